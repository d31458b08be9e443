/** What the model path and the agent path of a chat turn share: their input and their output. */
import type { ModelMessage } from "ai";
import type { Service } from "../service.ts";
import type { TurnChunk } from "./types.ts";
import type { ChatUsage } from "../../wire/usage.ts";
import type { ChatBody, ResolvedChat } from "./request.ts";
import type { TurnTrace } from "../telemetry/turn_trace.ts";

/** One checked chat turn. */
export interface Turn {
  service: Service;
  body: ChatBody;
  messages: ModelMessage[];
  resolved: ResolvedChat;
  runId: string;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
  /** The turn's trace, when telemetry is on. */
  trace?: TurnTrace;
}

/** How a turn ends when it succeeds. */
export interface TurnOutcome {
  /** What the client appends to its history. */
  messages: ModelMessage[];
  usage: ChatUsage;
  steps: number;
  finishReason: string;
}

/**
 * A turn that is ready to run: what its `start` chunk says, and its body, which yields the content
 * chunks (`text`, `reasoning`, `tool-call`, `tool-result`, `step`) and returns the outcome. A
 * failure is thrown as an `Error` whose message is one sentence.
 */
export interface ReadyTurn {
  model: string;
  profileId: string;
  tools: number;
  /** Enabled tool servers left out of the turn, and why. */
  unavailable?: { serverId: string; tool?: string; status: string; error: string }[];
  /** Extra fields of the `chat.start` event. */
  startEvent: Record<string, unknown>;
  /** Fields of the session record (`llmId` or `agentId`). */
  sessionFields: { llmId?: string; agentId?: string };
  body: AsyncGenerator<TurnChunk, TurnOutcome>;
}
