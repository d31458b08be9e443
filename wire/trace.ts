/** The lines of `GET /api/mcp/:id/trace`: the JSON-RPC messages that crossed a tool server's transport. */

/**
 * Which way a message crossed: `out` Lass → server, `in` server → Lass (on the transport);
 * `view-out` host → MCP App View, `view-in` View → host (on the MCP Apps bridge in the browser).
 */
export type TraceDirection = "out" | "in" | "view-out" | "view-in";

/** One recorded JSON-RPC message. */
export interface TraceMessage {
  /** Increases per server and is never reused while Lass runs (a reconnect keeps counting). */
  seq: number;
  /** When Lass recorded it (ISO 8601). */
  time: string;
  serverId: string;
  dir: TraceDirection;
  /**
   * The message as it crossed. Over 64 KiB of JSON it is clipped to
   * `{jsonrpc, id?, method?, clipped: "<the first 64 KiB of its JSON text>"}` with `truncated`.
   */
  message: unknown;
  /** The size of the message's JSON text in UTF-8 bytes (the real size, even when clipped). */
  bytes: number;
  /** On a response: milliseconds since the request with the same id went the other way. */
  ms?: number;
  truncated?: true;
  /**
   * Set on an error response that Lass recorded itself (it never crossed the wire): the
   * connection closed before the request was answered, so it failed with "Connection closed".
   */
  unanswered?: true;
  /** Set on a message that crossed Lass's proxy (`/mcp/:id`, `lass proxy`) rather than Lass's own session. */
  via?: "proxy";
  /** The proxy session the message belongs to (one per connected client session). */
  session?: string;
  /** The proxied client's `clientInfo`, once its `initialize` (or first request's `_meta`) named it. */
  client?: ProxyClientInfo;
  /**
   * On a request Lass sent: who asked for it, the inspector (the API's tool-server routes) or a
   * chat turn; absent for Lass's own (connect, list refreshes, pings) and for other messages.
   */
  by?: TraceRequester;
}

/** Who asked Lass to send a request. */
export type TraceRequester = "inspector" | "chat";

/** A client's `clientInfo` as it named itself to the proxy. */
export interface ProxyClientInfo {
  name: string;
  version?: string;
}

/** Whose traffic a trace channel carries: Lass's own session (absent), or one proxy session. */
export interface TraceOrigin {
  via: "proxy";
  session: string;
  /** Filled in once the client names itself; read at each message. */
  client?: ProxyClientInfo;
}
