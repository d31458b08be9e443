/**
 * The shapes of a tool-server session, in Lass's own terms: how to reach a server, what a session
 * reports back, and what an open session offers. Types only (the SDK's are imported as types).
 */
import type {
  CallToolResult,
  CreateMessageRequest,
  CreateMessageResult as PlainMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
  Transport,
} from "@modelcontextprotocol/client";
import type { SessionAuth } from "../oauth/provider.ts";
import type { WireSink } from "./trace.ts";
import type {
  Completion,
  CompletionRequest,
  LogLevel,
  PingVia,
} from "../../../wire/tool_servers.ts";
import type { OutputCheck } from "./output_check.ts";
import type { TaskCallOptions, TaskReference, TaskSnapshot } from "../tasks/types.ts";
import type { EraSetting, EraVerdict } from "./errors.ts";

/** The answer to a sampling request: one content block, or blocks with tool calls when tools were offered. */
export type CreateMessageResult = PlainMessageResult | CreateMessageResultWithTools;

export type {
  CallToolResult,
  ElicitResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
};

/** The params of a server's sampling request. */
export type SamplingParams = CreateMessageRequest["params"];
/** The params of a server's elicitation request (form or url mode). */
export type ElicitationParams = ElicitRequest["params"];

/**
 * A server Lass runs in its own process (the demo server): a new in-memory connection served like
 * stdio, or a `fetch` function answering Streamable HTTP requests.
 */
export type InProcessHandler =
  | { connect(): Transport }
  | { fetch(request: Request): Promise<Response> };

/** How to reach a tool server, with env references already resolved. */
export type TransportSpec =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "http" | "sse"; url: string; headers: Record<string, string>; auth?: SessionAuth }
  | { kind: "in-process"; handler: InProcessHandler };

/** The lists a server may announce changes of. */
export type ListKind = "tools" | "prompts" | "resources";

/** What the session reports back to its owner. */
export interface SessionHandlers {
  sampling(params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult>;
  elicitation(params: ElicitationParams, signal: AbortSignal): Promise<ElicitResult>;
  log(level: string, data: unknown, logger?: string): void;
  stderr(line: string): void;
  listChanged(kind: ListKind): void;
  /** A list may have changed unannounced (a listen stream was down): read it again. */
  reread(kind: ListKind): void;
  /** The connection ended without `close()` being called (process exit, a stream that ended). */
  closed(): void;
  /** A remote transport reported a failure; the connection may be gone (the owner checks). */
  troubled(reason: string): void;
  /**
   * A wire-trace sink for each transport the session opens (its own, and an era probe's): every
   * JSON-RPC message that crosses it. Absent: nothing is recorded.
   */
  wire?(): WireSink;
  /** The roots Lass offers the server (file URIs); without it, none. */
  roots?(): { uri: string; name?: string }[];
  /** A resource the session follows has changed. */
  resourceUpdated?(uri: string): void;
  /**
   * Keeps how to stop a process the session's transports start (its own, an era probe's), so
   * that closing the owner stops it even while a connect is under way; the answer forgets it.
   */
  track?(stop: () => Promise<void>): () => void;
}

/** Options of a tool call. */
export interface CallOptions {
  /** The deadline: the request fails with a timeout after it, progress or not (unless below). */
  timeoutMs: number;
  /** Each progress notification restarts the deadline, up to `maxTotalTimeoutMs` in all. */
  progressExtendsTimeout?: boolean;
  /** With `progressExtendsTimeout`: the longest the request may run; default ten deadlines. */
  maxTotalTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: number, total?: number, message?: string) => void;
}

/** How to open a session. */
export interface OpenOptions {
  /** Bounds the handshake (and, under `auto`, the probe with the fallback). */
  timeoutMs: number;
  /** Which protocol era to speak; default `auto`. */
  era?: EraSetting;
  /** A verdict kept from an earlier connect to the same server: skips the probe. */
  prior?: EraVerdict;
  /**
   * The era is known from an earlier start: a stdio server answers the era probe on its own
   * process, not on a short-lived sibling (a server that no longer speaks that era fails the
   * connect, and the caller probes again the usual way).
   */
  probeInPlace?: boolean;
  /** The log level chosen for this server before (kept across reconnects); default `debug`. */
  logLevel?: LogLevel;
}

/** An open connection to one tool server. */
export interface McpSession {
  readonly serverInfo?: { name: string; version: string; title?: string };
  readonly capabilities?: Record<string, unknown>;
  readonly instructions?: string;
  /** `modern` (2026-07-28 and later) or `legacy` (the 2025 `initialize` handshake). */
  readonly era: "modern" | "legacy";
  /** The negotiated protocol version. */
  readonly protocolVersion?: string;
  /** What to pass as `prior` next time. */
  readonly verdict: EraVerdict;
  /** Whether the peer is across the network (http, sse). */
  readonly remote: boolean;
  /** Completion, log level, resource subscriptions, ping and roots changes. */
  readonly controls: SessionControls;
  /** Lists (every page); `timeoutMs` bounds the request. */
  listTools(timeoutMs?: number): Promise<Tool[]>;
  listPrompts(timeoutMs?: number): Promise<Prompt[]>;
  listResources(timeoutMs?: number): Promise<Resource[]>;
  listResourceTemplates(timeoutMs?: number): Promise<ResourceTemplate[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult>;
  readResource(uri: string, options: CallOptions): Promise<ReadResourceResult>;
  getPrompt(
    name: string,
    args: Record<string, string>,
    options: CallOptions,
  ): Promise<GetPromptResult>;
  /**
   * Whether a call of `tool` goes through MCP Tasks: the server runs tasks (2025
   * `capabilities.tasks`, or the 2026 extension) and the tool allows it (2025 `execution.taskSupport`).
   */
  runsAsTask(tool: string): boolean;
  /**
   * Calls a tool that may run as a task and follows the task to its end: `onStatus` hears every
   * change, input requests go to the session's handlers, aborting the signal cancels the task.
   * A task that fails or is cancelled rejects with `TaskEnded`.
   */
  callToolTask(
    name: string,
    args: Record<string, unknown>,
    options: TaskCallOptions,
  ): Promise<CallToolResult>;
  /**
   * Follows a task that an earlier session of this server started and lost, as `callToolTask`
   * does; rejects when the server no longer knows it.
   */
  resumeToolTask(reference: TaskReference, options: TaskCallOptions): Promise<CallToolResult>;
  /**
   * The output-schema check of a listed tool's results, for calls that bypass the SDK's
   * `callTool` (`callToolTask`); throws at once when the tool's output schema is invalid.
   */
  outputCheck(tool: string): OutputCheck;
  /** The server's current view of a task (`tasks/get`). */
  getTask(taskId: string, timeoutMs: number): Promise<TaskSnapshot>;
  /** Asks the server to cancel a task (cooperative: it may still complete). */
  cancelTask(taskId: string): Promise<void>;
  /** Whether a remote server still answers HTTP at all (any status counts); local ones are. */
  reachable(timeoutMs: number): Promise<boolean>;
  /**
   * Closes the connection. Running tasks are asked to cancel, unless `keepTasks` (a lost
   * connection): then their calls reject with `TaskLost` and a later session may follow them.
   */
  close(options?: { keepTasks?: boolean }): Promise<void>;
}

/** Opens sessions; a test or another runtime may pass its own. */
export type SessionOpener = (
  spec: TransportSpec,
  handlers: SessionHandlers,
  options: OpenOptions,
) => Promise<McpSession>;

/**
 * How a session checks that its server is alive, as `POST /api/mcp/:id/ping` names it: MCP
 * `ping` (2025), a `server/discover` round trip (2026 over stdio or in process), a HEAD request
 * (2026 over HTTP).
 */
export type PingKind = PingVia;

/** The controls every session offers. */
export interface SessionControls {
  /** Suggestions for an argument; a server without the completions capability has none. */
  complete(request: CompletionRequest, timeoutMs: number): Promise<Completion>;
  /** The level of log messages the server is asked for (`debug` until changed). */
  readonly logLevel: LogLevel;
  /**
   * Changes the log level: 2025 sends `logging/setLevel`; 2026 has none, so it becomes the level
   * that every later request asks for.
   */
  setLogLevel(level: LogLevel, timeoutMs: number): Promise<void>;
  readonly pingKind: PingKind;
  /** Checks that the server answers (the way `pingKind` says) and returns the round trip in ms. */
  ping(timeoutMs: number): Promise<number>;
  /** The resource URIs this session follows. */
  readonly subscriptions: readonly string[];
  /**
   * Follows a resource's updates: 2025 `resources/subscribe`; 2026 a `subscriptions/listen`
   * stream with the URI, which throws when the server does not honour it.
   */
  subscribe(uri: string, timeoutMs: number): Promise<void>;
  unsubscribe(uri: string, timeoutMs: number): Promise<void>;
  /**
   * Tells the server that the roots changed: 2025 `notifications/roots/list_changed`. A 2026
   * server asks for roots within each request that needs them, so nothing is sent (false).
   */
  rootsChanged(): Promise<boolean>;
}
