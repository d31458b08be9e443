/**
 * A cassette served as a tool server: in process for Lass (a new in-memory connection per
 * session, like the demo server), over Streamable HTTP as a `fetch` function, or over stdio.
 */
import { InMemoryTransport, type Transport } from "@modelcontextprotocol/server";
import type { Cassette } from "../../../wire/cassette.ts";
import { ReplaySession } from "./replay.ts";
import { replayFetch } from "./replay_http.ts";
import type { ReplayOptions, RpcMessage } from "./types.ts";

/** A replayed server in this process: each connection and HTTP session replays on its own. */
export interface ReplayHandler {
  /** A new connection, served like stdio. */
  connect(): Transport;
  /** Streamable HTTP requests. */
  fetch(req: Request): Promise<Response>;
  /** Ends every connection's replay. */
  close(): Promise<void>;
}

/** The default pace and matching of a replay record. */
export const REPLAY_DEFAULTS: ReplayOptions = { match: "exact", speed: 1 };

/** Serves `cassette` to any number of clients. */
export function createReplayHandler(
  cassette: Cassette,
  options: ReplayOptions = REPLAY_DEFAULTS,
): ReplayHandler {
  const sessions = new Set<ReplaySession>();
  const http = replayFetch((send) => new ReplaySession(cassette, options, send));
  return {
    connect: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      serveOn(serverSide, cassette, options, sessions);
      return clientSide;
    },
    fetch: (req) => http.fetch(req),
    close: async () => {
      http.close();
      for (const session of sessions) session.close();
      sessions.clear();
      await Promise.resolve();
    },
  };
}

/** Replays on one transport until it closes; resolves then. */
function serveOn(
  transport: Transport,
  cassette: Cassette,
  options: ReplayOptions,
  sessions: Set<ReplaySession>,
): Promise<void> {
  const session = new ReplaySession(cassette, options, (message) => {
    transport.send(message as Parameters<Transport["send"]>[0]).catch(() => {});
  });
  sessions.add(session);
  return new Promise((resolve) => {
    transport.onmessage = (message) => session.receive(message as RpcMessage);
    transport.onclose = () => {
      session.close();
      sessions.delete(session);
      resolve();
    };
    transport.start().catch(() => resolve());
  });
}

/**
 * Serves `cassette` on this process' stdin/stdout until stdin ends. Nothing else may write to
 * stdout meanwhile: it carries the protocol.
 */
export async function serveReplayOverStdio(
  cassette: Cassette,
  options: ReplayOptions = REPLAY_DEFAULTS,
): Promise<void> {
  const { StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  await serveOn(new StdioServerTransport(), cassette, options, new Set());
}
