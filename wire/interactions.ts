/** Interactions: requests that wait for a person (`GET /api/interactions`, `POST /api/interactions/:id`). */
import type { ProxyClientInfo } from "./trace.ts";

/** Where an interaction came from: a chat run and/or a tool server. */
interface Origin {
  runId?: string;
  serverId?: string;
  /** The column of a compare turn (`POST /api/chat/compare`) whose run asks. */
  column?: CompareColumnLabel;
}

/** A column of a compare turn: its index (from 0) and its label. */
export interface CompareColumnLabel {
  index: number;
  label: string;
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

/**
 * A request held by Lass's proxy before it is relayed (a hold on its method): the client (or the
 * server, for a request to the client) waits until the user forwards, replies or drops it.
 */
export interface ProxyHoldRequest extends Origin {
  kind: "proxy-hold";
  serverId: string;
  /** The proxy session it belongs to, and its client. */
  session: string;
  client?: ProxyClientInfo;
  /** `out` client → server, `in` server → client. */
  dir: "out" | "in";
  method: string;
  /** The JSON-RPC request as it arrived. */
  message: Record<string, unknown>;
  /** Unanswered for this long, it is forwarded as it is. */
  timeoutMs: number;
}

/** What can be asked. */
export type InteractionRequest =
  | ApprovalRequest
  | ElicitationRequest
  | SamplingRequest
  | ProxyHoldRequest;
/** The kinds of interaction. */
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

/**
 * The answer to a held proxy request: `forward` it (with `params` in place of its own, when
 * given), `reply` in the other side's place (a `result` or an `error`; the held request's
 * addressee never sees it), or `drop` it (nobody answers; its sender waits).
 */
export type ProxyHoldAnswer =
  | { action: "forward"; params?: Record<string, unknown> }
  | { action: "reply"; result: Record<string, unknown> }
  | { action: "reply"; error: { code: number; message: string; data?: unknown } }
  | { action: "drop" };

/** The body of `POST /api/interactions/:id`. */
export interface InteractionAnswerBody {
  response: ApprovalAnswer | SamplingAnswer | ElicitationAnswer | ProxyHoldAnswer;
}
