/** What `GET /api/mcp/:id/proxy` lists: the clients connected to a tool server through Lass's proxy. */
import type { ProxyClientInfo } from "./trace.ts";

/** One client session relayed by the proxy (`/mcp/:id` over HTTP, or `lass proxy` over stdio). */
export interface ProxyClient {
  /** The proxy session: the `session` of its messages in the wire trace. */
  session: string;
  serverId: string;
  /** How the client reached Lass. */
  transport: "http" | "stdio";
  /** The client's `clientInfo`, once it named itself. */
  client?: ProxyClientInfo;
  /** When the session opened (ISO 8601). */
  since: string;
  /** When its last message crossed (ISO 8601). */
  lastAt?: string;
  /** Messages relayed, both ways. */
  messages: number;
  /** JSON-RPC error responses among them. */
  errors: number;
}

/** The data of an `mcp.proxy` event: a client session opened or closed. */
export interface ProxyEventData {
  /** The tool server's id. */
  id: string;
  session: string;
  state: "open" | "closed";
  transport: "http" | "stdio";
  client?: ProxyClientInfo;
  /** Why it closed: `client` (DELETE, stdin ended), `server` (the upstream ended), `idle`, `removed`. */
  reason?: string;
}
