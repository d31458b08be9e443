/**
 * Model messages as chat requests carry them and sessions store them: the parts of the AI SDK's
 * `ModelMessage` that Lass's clients read. Unknown part types pass through as `OtherPart`.
 */

/** Text of a user or assistant message. */
export interface TextPart {
  type: "text";
  text: string;
}

/** The model's reasoning, where the provider returns it. */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
}

/** A tool call of an assistant message. */
export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
}

/** What a tool returned, as the model saw it. */
export type ToolResultOutput =
  | { type: "text" | "error-text"; value: string }
  | { type: "json" | "error-json"; value: unknown }
  | { type: "execution-denied"; reason?: string }
  | { type: "content"; value: unknown[] };

/** A tool result of a tool message. */
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: ToolResultOutput;
}

/** Any other part (files, images, provider-specific parts): kept, not interpreted. */
export interface OtherPart {
  type: string;
  [field: string]: unknown;
}

/** One message of a chat history. */
export type ModelMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | (TextPart | OtherPart)[] }
  | { role: "assistant"; content: string | (TextPart | ReasoningPart | ToolCallPart | OtherPart)[] }
  | { role: "tool"; content: (ToolResultPart | OtherPart)[] };
