/**
 * A replayed server over Streamable HTTP, as a `fetch` function: each POSTed request gets an
 * event stream with what the recording sent during it, then its answer. An `initialize` opens a
 * session (`Mcp-Session-Id`) with its own replay; requests without a session (2026-07-28) share one.
 */
import type { ReplaySend, ReplaySession } from "./replay.ts";
import type { RpcMessage } from "./types.ts";

/** One HTTP session: its replay, and the open event stream of each running request. */
interface Connection {
  id?: string;
  session: ReplaySession;
  streams: Map<string | number, ReadableStreamDefaultController<Uint8Array>>;
}

/** Serves replay sessions over Streamable HTTP; `open` makes one per client session. */
export function replayFetch(
  open: (send: ReplaySend) => ReplaySession,
): { fetch(req: Request): Promise<Response>; close(): void } {
  const connections = new Map<string, Connection>();
  const encoder = new TextEncoder();
  const connect = (id?: string): Connection => {
    const streams = new Map<string | number, ReadableStreamDefaultController<Uint8Array>>();
    const send: ReplaySend = (message, related) => {
      const stream = related !== undefined ? streams.get(related) : undefined;
      if (!stream) return; // No standalone stream: a message for no running request is dropped.
      stream.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
      if (message.method === undefined && message.id === related && related !== undefined) {
        streams.delete(related);
        stream.close();
      }
    };
    const connection = { id, session: open(send), streams };
    if (id) connections.set(id, connection);
    return connection;
  };
  const shared = connect();

  async function post(req: Request): Promise<Response> {
    let message: RpcMessage;
    try {
      message = await req.json();
    } catch {
      return rpcError(400, -32700, "Parse error: the body is not JSON");
    }
    if (message === null || typeof message !== "object" || Array.isArray(message)) {
      return rpcError(400, -32600, "Invalid request: one JSON-RPC message per POST");
    }
    const sessionId = req.headers.get("mcp-session-id");
    let connection: Connection | undefined;
    if (message.method === "initialize") connection = connect(crypto.randomUUID());
    else if (sessionId) connection = connections.get(sessionId);
    else connection = shared;
    if (!connection) return rpcError(404, -32001, "Session not found");
    const headers: Record<string, string> = connection.id
      ? { "mcp-session-id": connection.id }
      : {};
    const { id } = message;
    if (typeof message.method !== "string" || id === undefined || id === null) {
      connection.session.receive(message);
      return new Response(null, { status: 202, headers });
    }
    const { streams, session } = connection;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        streams.set(id, controller);
      },
      cancel() {
        streams.delete(id);
        session.receive({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id },
        });
      },
    });
    session.receive(message);
    return new Response(body, {
      headers: { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  }

  return {
    fetch: async (req) => {
      if (req.method === "POST") return await post(req);
      if (req.method === "DELETE") {
        const id = req.headers.get("mcp-session-id");
        const connection = id ? connections.get(id) : undefined;
        if (!connection) return rpcError(404, -32001, "Session not found");
        connection.session.close();
        connections.delete(id!);
        return new Response(null, { status: 200 });
      }
      await req.body?.cancel();
      return new Response(null, { status: 405, headers: { allow: "POST, DELETE" } });
    },
    // Ends every replay and every open event stream (a listen stream never ends on its own).
    close: () => {
      for (const connection of [shared, ...connections.values()]) {
        connection.session.close();
        for (const stream of connection.streams.values()) {
          try {
            stream.close();
          } catch {
            // Already closed by its reader.
          }
        }
        connection.streams.clear();
      }
      connections.clear();
    },
  };
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status });
}
