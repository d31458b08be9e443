/** Types the chat tool modules and the chunks share, apart so that neither imports the other. */
import type { ChatChunk } from "../../wire/chat.ts";
import type { ChatUsage } from "../../wire/usage.ts";

/** Where a model-visible tool name leads. */
export interface ToolOrigin {
  /** A tool server's id, or `ui`, `skills`, `agent`. */
  source: string;
  /** The tool's own name at its source. */
  tool: string;
}

/** A `step` chunk as a model or an agent yields it, before the chat run adds its price. */
export interface UnpricedStep {
  type: "step";
  usage: ChatUsage;
  finishReason: string;
}

/**
 * What the model or agent of a turn yields: the content chunks and unpriced steps (never `start`,
 * `finish` or `error`, which the chat run adds).
 */
export type TurnChunk =
  | Exclude<ChatChunk, { type: "step" | "start" | "finish" | "error" }>
  | UnpricedStep;
