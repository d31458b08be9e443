/** `POST /api/chat`: the request body and the chunks of its NDJSON stream, `type` first. */
import type { ModelMessage } from "./messages.ts";
import type { ChatCost, ChatUsage, Priced, PricedUsage } from "./usage.ts";

/** The body of `POST /api/chat`. */
export interface ChatRequest {
  messages: ModelMessage[];
  workspaceId?: string;
  llmId?: string;
  agentId?: string;
  /** Append the finished turn to this stored session (created if needed). */
  sessionId?: string;
}

/** One step of a turn (one model call): its tokens, their price and why it ended. */
export interface ChatStep extends PricedUsage {
  /** `stop`, `tool-calls`, `length`, `content-filter`, `error` or `other`. */
  finishReason: string;
}

/** How a tool result can be shown as UI (see `core/chat/tool_output.ts`). */
export type ToolUi =
  | { kind: "mcp-app"; serverId: string; resourceUri: string }
  | { kind: "mcp-ui"; resource: Record<string, unknown> }
  | { kind: "a2ui"; messages: unknown[]; title?: string };

/** The status of an MCP task a tool call runs as; the last three end it. */
import type { TaskStatus as ToolTaskStatus } from "./tool_tasks.ts";

/**
 * Why a tool call did not run to its end: `cancelled` by the user while it ran
 * (`POST /api/chat/runs/:runId/tool-calls/:callId/cancel`), or `denied` (its approval was denied,
 * or not given in time). A call that failed on its own has no ending.
 */
export type ToolCallEnding = "cancelled" | "denied";

/** Where a tool comes from: a tool server's id, or `ui`, `skills`, `agent`. */
export type ToolSource = string;

/** One chunk of a chat stream. */
export type ChatChunk =
  | {
    type: "start";
    runId: string;
    model: string;
    profileId: string;
    tools: number;
    /**
     * Enabled tool servers left out of this turn, and why (absent when every server is ready);
     * an entry with `tool` is one tool held back (`status: "changed"`, "changed since pinned").
     */
    unavailable?: { serverId: string; tool?: string; status: string; error: string }[];
  }
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | {
    type: "tool-call";
    id: string;
    name: string;
    tool: string;
    source: ToolSource;
    input: unknown;
  }
  | {
    /**
     * How a running tool call is getting on: the server's progress notifications, or the status
     * of the MCP task the call runs as. Several may come between `tool-call` and `tool-result`.
     */
    type: "tool-progress";
    id: string;
    progress?: number;
    total?: number;
    /** The progress message, or the task's status message. */
    message?: string;
    /** When the call runs as an MCP task. */
    task?: { taskId: string; status: ToolTaskStatus };
  }
  | {
    type: "tool-result";
    id: string;
    output: unknown;
    isError: boolean;
    durationMs: number;
    ui?: ToolUi;
    raw?: unknown;
    /** Set when the call did not run to its end (then `isError` is true). */
    ending?: ToolCallEnding;
  }
  | ({ type: "step" } & ChatStep)
  | ({
    type: "finish";
    /** The tokens of every step together, and (`cost`, `costUnknown`) their price. */
    usage: ChatUsage;
    /** Each step of the turn, as its `step` chunk said. */
    steps: ChatStep[];
    durationMs: number;
    messages: unknown[];
  } & Priced)
  | { type: "error"; message: string };

/**
 * What a session keeps about one tool call besides the messages, in `meta.toolCalls[<call id>]`:
 * the server writes it when it appends the turn, so a reopened chat shows the same cards.
 */
export interface StoredToolCall {
  source: ToolSource;
  tool: string;
  durationMs?: number;
  /** The result's UI: whole up to 256,000 characters of JSON, else only its kind. */
  ui?: ToolUi | { kind: ToolUi["kind"] };
  /** The raw MCP result, when it is at most 16,000 characters of JSON. */
  raw?: unknown;
  /** The `ending` of its `tool-result` chunk, when it had one. */
  ending?: ToolCallEnding;
  /** The MCP task it ran as: the last `task` of its `tool-progress` chunks. */
  task?: { taskId: string; status: ToolTaskStatus };
}

/**
 * The result a tool call gets in its session when its turn ended (stopped, or failed) before the
 * call finished, so the history stays valid; a reopened chat shows such a call as "no result".
 */
export const UNFINISHED_CALL = "the turn ended before this tool call finished";

/** One column of `POST /api/chat/compare`: who answers it (default the workspace's model). */
export interface CompareColumnRequest {
  llmId?: string;
  agentId?: string;
  /** Shown over the column; default the profile's or agent's id. */
  label?: string;
}

/** The body of `POST /api/chat/compare`: a chat body and 2 to 4 columns. */
export interface CompareRequest extends ChatRequest {
  columns: CompareColumnRequest[];
}

/** How one column of a compare turn went, in its `compare-summary`. */
export interface CompareColumnSummary {
  column: number;
  label: string;
  /** The profile or agent that answered. */
  llmId?: string;
  agentId?: string;
  /** From the request to the column's `finish` or `error`. */
  ms: number;
  /**
   * The column's tokens and (`cost`, `costUnknown`) their price: its `finish` chunk's, or for a
   * column that failed or was stopped those of the steps it finished.
   */
  usage: ChatUsage;
  cost: ChatCost | null;
  /** Why there is no cost; present exactly when `cost` is null. */
  costUnknown?: string;
  toolCalls: number;
  steps: number;
  error?: string;
}

/** A chunk of `POST /api/chat/compare`: a chat chunk of one column, or the summary at the end. */
export type CompareChunk =
  | (ChatChunk & { column: number })
  | {
    type: "compare-summary";
    compareId: string;
    columns: CompareColumnSummary[];
    /** With a `sessionId`: the index of the turn's user message in the session (for the pick). */
    messageIndex?: number;
  };

/**
 * What a session keeps of a compare turn, in `meta.compares[<index of its user message>]`: each
 * column's answer, and which one the conversation goes on with (its messages are the session's).
 */
export interface StoredCompare {
  compareId: string;
  picked: number;
  columns: (CompareColumnSummary & {
    /** The messages the column's turn produced (what it streamed, when it failed). */
    messages: unknown[];
    /** Its tool calls' details, as `meta.toolCalls` keeps them. */
    calls?: Record<string, StoredToolCall>;
  })[];
}
