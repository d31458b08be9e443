/** The types the recordings room's files share: where a cassette's server part comes from, and how replay answers. */

/**
 * Who a recorded server is, when the trace does not hold its handshake or lists: a tool server's
 * state (`GET /api/mcp/:id`) fits.
 */
export interface CassetteSource {
  id: string;
  name?: string;
  transport?: string;
  era?: "legacy" | "modern";
  protocolVersion?: string;
  serverInfo?: { name: string; version: string; title?: string };
  capabilities?: Record<string, unknown>;
  instructions?: string;
  tools?: readonly object[];
  prompts?: readonly object[];
  resources?: readonly object[];
  resourceTemplates?: readonly object[];
}

/** How replay matches requests and paces answers (a replay record's `match` and `speed`). */
export interface ReplayOptions {
  /**
   * `exact`: a request matches a recorded one with the same method and canonical params; `tool`:
   * a `tools/call` with no exact match takes the same tool's recording with the closest arguments.
   */
  match: "exact" | "tool";
  /** Recorded delays are divided by it: 1 as recorded, 2 twice as fast; 0 answers at once. */
  speed: number;
}

/** A JSON-RPC message as replay reads and writes it. */
export interface RpcMessage {
  jsonrpc?: "2.0";
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}
