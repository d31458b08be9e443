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
}
