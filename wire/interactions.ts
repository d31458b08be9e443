/** Interactions: requests that wait for a person (`GET /api/interactions`, `POST /api/interactions/:id`). */

/** Where an interaction came from: a chat run and/or a tool server. */
interface Origin {
  runId?: string;
  serverId?: string;
}

/** A tool call that waits for the user's approval. */
export interface ApprovalRequest extends Origin {
  kind: "approval";
  tool: string;
  input: unknown;
}

/** A tool server asking the user for input (MCP elicitation). */
export interface ElicitationRequest extends Origin {
  kind: "elicitation";
  message: string;
  mode: "form" | "url";
  requestedSchema?: Record<string, unknown>;
  url?: string;
}

/** A tool server asking for a model completion (MCP sampling). */
export interface SamplingRequest extends Origin {
  kind: "sampling";
  messages: unknown[];
  systemPrompt?: string;
  maxTokens: number;
  modelPreferences?: Record<string, unknown>;
}

/** What can be asked. */
export type InteractionRequest = ApprovalRequest | ElicitationRequest | SamplingRequest;
/** The three kinds of interaction. */
export type InteractionKind = InteractionRequest["kind"];
/** A pending interaction as `GET /api/interactions` lists it. */
export type Interaction = InteractionRequest & { id: string; createdAt: string };

/** The answer to an approval request (and the base of a sampling answer). */
export interface ApprovalAnswer {
  approved: boolean;
  remember?: "session" | "always";
}

/**
 * The answer to a sampling request: `approved` lets the model answer it; `text` (with
 * `approved: true`) is the user's own reply, sent to the server instead of a model's.
 */
export interface SamplingAnswer extends ApprovalAnswer {
  text?: string;
}

/** The answer to an elicitation request. */
export interface ElicitationAnswer {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
}

/** The body of `POST /api/interactions/:id`. */
export interface InteractionAnswerBody {
  response: ApprovalAnswer | SamplingAnswer | ElicitationAnswer;
}
