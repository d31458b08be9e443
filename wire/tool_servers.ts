/**
 * The tool-server routes' records: a server's state as `GET /api/mcp` and `mcp.state` events carry
 * it, and the answers of the test, import, log-level, completion and ping routes.
 */
import type {
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
} from "@modelcontextprotocol/client";
import type { McpServerConfig, McpServerInput } from "./config/schema.ts";
import type { PinDrift } from "./pinning.ts";

/** The three tool-server transports; `http` is Streamable HTTP. */
export type ToolServerTransport = McpServerConfig["transport"];

/** The states of a tool-server connection (DESIGN.md section 5). */
export type ServerStatus = "disconnected" | "connecting" | "connected" | "needs-auth" | "error";

/** A tool as `GET /api/mcp` lists it. */
export interface ToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** Listed in `disabledTools`: hidden from the model. */
  disabled: boolean;
  /** The name the model sees, `<serverId>__<tool>`. */
  modelName: string;
  /** Offered to the model: not disabled, and its `_meta.ui.visibility` (if any) includes "model". */
  modelVisible: boolean;
  /** MCP Apps metadata: the UI resource and who may call the tool. */
  ui?: { resourceUri?: string; visibility?: string[] };
}

/**
 * What the connection tells of one tool server: the manager's record, which a (re)connect
 * replaces; {@link ToolServerState} adds the choices the user made over the API.
 */
export interface ConnectionState {
  id: string;
  name: string;
  transport: ToolServerTransport;
  status: ServerStatus;
  error?: string;
  authUrl?: string;
  serverInfo?: { name: string; version: string; title?: string };
  capabilities?: Record<string, unknown>;
  instructions?: string;
  /** The protocol era of the open connection: `modern` (2026-07-28 and later) or `legacy` (2025). */
  era?: "modern" | "legacy";
  /** The negotiated protocol version. */
  protocolVersion?: string;
  tools: ToolInfo[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  connectedAt?: string;
  /**
   * What the server offers that differs from its pins (`pinning` is not `off`): absent while
   * everything matches. `POST /api/mcp/:id/pins/accept` makes it the pins.
   */
  drift?: PinDrift;
  /**
   * Lass's own reconnects after a failure: present from the first failed connect until the server
   * connects, is disconnected, or the user's Connect starts a new round.
   */
  retry?: RetryState;
}

/**
 * How Lass reconnects a failed server by itself: with backoff (1 s doubling to 30 s) while
 * something wants the server; a stdio server at most {@link MAX_FAILED_STARTS} starts in a row.
 */
export interface RetryState {
  /** Failed connects in a row (for stdio: failed starts of the process). */
  attempts: number;
  /** How many Lass makes before it stops (stdio); absent when it keeps trying (http, sse). */
  maxAttempts?: number;
  /** When the next try starts (ISO 8601); absent while one runs, or when none is planned. */
  at?: string;
  /** The wait before that try in ms, as planned. */
  inMs?: number;
  /** Lass stopped trying after `maxAttempts` failed starts: Connect starts it again. */
  stopped?: true;
}

/** The failed starts in a row after which Lass stops restarting a stdio server by itself. */
export const MAX_FAILED_STARTS = 5;

/** The state of one tool server, as `GET /api/mcp` reports it (`mcp.state` events carry a part). */
export interface ToolServerState extends ConnectionState {
  /** The log level set with `POST /api/mcp/:id/log-level`; absent when never set. */
  logLevel?: LogLevel;
  /** The URIs of the resources Lass follows for the user, in the order they were subscribed. */
  subscriptions: string[];
}

/**
 * A client whose config file can be imported (`POST /api/mcp/import`), or `server-json`: a
 * registry `server.json`.
 */
export type ImportFormat =
  | "claude-desktop"
  | "claude-code"
  | "cursor"
  | "vscode"
  | "windsurf"
  | "zed"
  | "cline"
  | "continue"
  | "goose"
  | "codex"
  | "gemini"
  | "server-json";

/** A literal secret of an imported record, and the reference that would replace it. */
export interface ImportSecret {
  /** The id of the record in the answer's `servers`. */
  serverId: string;
  /** Where the literal is: an environment variable of a stdio server, or a header. */
  field: "env" | "headers";
  /** The variable or header name. */
  key: string;
  /** The variable of Lass's environment that would hold the secret. */
  variable: string;
  /** The value that refers to it instead: `env:FOO`, `Bearer ${ID_TOKEN}`. */
  reference: string;
  /** The warning about it, as it is in the answer's `warnings`. */
  warning: string;
}

/** The answer of `POST /api/mcp/import`: valid records, what to know of them, the format read. */
export interface ImportResult {
  /** `mcpServers[]` records as written in `service.json` (defaults not yet filled in). */
  servers: McpServerInput[];
  /** Sentences prefixed by the server's key, e.g. `github: ${input:pat} ... became ${PAT} ...`. */
  warnings: string[];
  /** The format that was read: forced, or detected from the shape. */
  format: string;
  /**
   * Other formats that read this config exactly the same (several clients write the same
   * `mcpServers` shape, so a detected format is one of them); empty when forced.
   */
  sameShape: ImportFormat[];
  /**
   * Literal secrets in `env` values and `headers`, each with the reference that keeps it out of
   * the config (`env:FOO`, `Bearer ${ID_TOKEN}`); each also has a warning.
   */
  secrets: ImportSecret[];
}

/** The answer of `POST /api/mcp/test`: the draft's state after connecting, and how long it took. */
export type ServerProbe = ToolServerState & { ok: boolean; latencyMs: number };

/** The MCP log levels, least severe first (`POST /api/mcp/:id/log-level`). */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One MCP log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a completion is for: a prompt's argument or a resource template's variable. */
export type CompletionRef =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/** The body of `POST /api/mcp/:id/complete`. */
export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** Values of the other arguments, which may narrow the suggestions. */
  context?: { arguments?: Record<string, string> };
}

/** The answer of `POST /api/mcp/:id/complete`: suggested values (at most 100). */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * How Lass asked a server whether it is alive: MCP `ping` (2025), a `server/discover` round trip
 * (2026-07-28 over stdio or in process, which has no ping), or a HEAD request (2026 over HTTP).
 */
export type PingVia = "ping" | "server/discover" | "http-head";

/** The answer of `POST /api/mcp/:id/ping`: the round trip in milliseconds, and how it was measured. */
export interface PingResult {
  ok: true;
  ms: number;
  via: PingVia;
}
