/**
 * An HTTP listener that cuts off slow and idle clients, which `Deno.serve` (Deno 2.9) does not:
 * a connection must deliver a request's headers within the header timeout of opening (or of
 * its previous response's end), and a kept-alive connection with no request in flight is closed
 * after the idle timeout. A request in flight (an event stream, a chat) is never cut off.
 *
 * Each accepted connection is served by Deno's own HTTP server for one connection
 * (`serveHttpOnConnection`, the same code path as `Deno.serve`, reached through `Deno.internal`
 * because it is not public). Closing a connection aborts its signal: Deno then shuts it down.
 */

/** The limits of {@link serveWithTimeouts}. */
export interface ClientTimeouts {
  /** Time for a request's headers to arrive, from accept or the end of the last response. */
  headerTimeoutMs: number;
  /** Time a kept-alive connection may sit with no request in flight. */
  idleTimeoutMs: number;
}

/** Lass's limits: headers within 10 s; an idle connection lives 5 s (Node's keep-alive default). */
export const DEFAULT_CLIENT_TIMEOUTS: ClientTimeouts = {
  headerTimeoutMs: 10_000,
  idleTimeoutMs: 5_000,
};

/**
 * The listen queue: connections the kernel holds until Lass accepts them. A connection that finds
 * the queue full is dropped and the client's retry comes a second later. Deno's default is 511,
 * and Lass accepts at most about 128 connections per turn of its event loop: a burst of a
 * thousand connects while turns are running overflowed it (Linux caps this at `somaxconn`).
 */
export const LISTEN_BACKLOG = 4096;

/** What {@link serveWithTimeouts} listens on. */
export interface ListenOptions {
  hostname: string;
  port: number;
  /** Aborting stops accepting and closes every connection once its requests are done. */
  signal: AbortSignal;
}

/** A running listener: where it is bound and when it has stopped. */
export interface GuardedServer {
  addr: Deno.NetAddr;
  /** Settles once the listener is closed and every connection has ended. */
  finished: Promise<void>;
}

/** What the sweep knows of one connection. */
interface Watched {
  /** Requests whose handler has not answered yet. */
  inFlight: number;
  /** When the connection opened or its last handler answered (`performance.now()`). */
  since: number;
  /** Whether a request has arrived (then the shorter of the two limits applies). */
  served: boolean;
  /** Aborted to close the connection. */
  close: AbortController;
}

type Handler = (req: Request, info: Deno.ServeHandlerInfo<Deno.NetAddr>) => Promise<Response>;
type ServeOnConnection = (
  conn: Deno.Conn,
  signal: AbortSignal,
  handler: Handler,
  onError: (error: unknown) => Response,
  onListen: () => void,
) => { finished: Promise<void> };

/** Deno's one-connection server, or undefined on a Deno that no longer has it. */
function serveOnConnection(): ServeOnConnection | undefined {
  const internal = (Deno as unknown as Record<symbol, Record<string, unknown>>)[
    (Deno as unknown as { internal: symbol }).internal
  ];
  const serve = internal?.serveHttpOnConnection;
  return typeof serve === "function" ? serve as ServeOnConnection : undefined;
}

/**
 * Closes a connection by aborting its signal. When its peer has closed it already, Deno's
 * listener on that signal throws `BadResource`, which an event dispatch reports as an uncaught
 * error that ends the process (seen on Ctrl-C after a client closed a kept-alive connection): that
 * one error is swallowed while the abort runs.
 */
function closeConnection(watched: Watched): void {
  const goneAlready = (event: ErrorEvent) => {
    if (event.error instanceof Deno.errors.BadResource) event.preventDefault();
  };
  globalThis.addEventListener("error", goneAlready);
  try {
    watched.close.abort();
  } finally {
    globalThis.removeEventListener("error", goneAlready);
  }
}

function internalError(error: unknown): Response {
  console.error("lass: unexpected error while serving a request:", error);
  return new Response("Internal Server Error", { status: 500 });
}

/**
 * Serves `handler` on a TCP listener with the {@link ClientTimeouts}. Throws as `Deno.listen`
 * does (e.g. `Deno.errors.AddrInUse`). On a Deno without the one-connection server it falls back
 * to `Deno.serve` without timeouts, and says so on stderr.
 */
export function serveWithTimeouts(
  options: ListenOptions,
  handler: Handler,
  timeouts: ClientTimeouts = DEFAULT_CLIENT_TIMEOUTS,
): GuardedServer {
  const serveConnection = serveOnConnection();
  if (serveConnection === undefined) {
    console.error("lass: this Deno cannot cut off slow clients (no serveHttpOnConnection)");
    const server = Deno.serve(
      { ...options, tcpBacklog: LISTEN_BACKLOG, onListen() {} },
      handler,
    );
    return { addr: server.addr, finished: server.finished };
  }
  const listener = Deno.listen({
    hostname: options.hostname,
    port: options.port,
    tcpBacklog: LISTEN_BACKLOG,
  });
  const connections = new Map<Promise<void>, Watched>();
  const stopped = options.signal.aborted ? Promise.resolve() : new Promise<void>((resolve) => {
    options.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  stopped.then(() => listener.close()).catch(() => {});
  // One sweep a second instead of a timer per request: a request costs two counter updates.
  const limit = Math.min(timeouts.idleTimeoutMs, timeouts.headerTimeoutMs);
  const sweep = setInterval(() => {
    const now = performance.now();
    for (const watched of connections.values()) {
      const allowed = watched.served ? limit : timeouts.headerTimeoutMs;
      if (watched.inFlight === 0 && now - watched.since > allowed) closeConnection(watched);
    }
  }, Math.max(10, Math.min(1000, limit / 4)));

  const serve = (conn: Deno.Conn) => {
    const watched: Watched = {
      inFlight: 0,
      since: performance.now(),
      served: false,
      close: new AbortController(),
    };
    const stop = () => closeConnection(watched);
    options.signal.addEventListener("abort", stop, { once: true });
    const ended = () => {
      watched.inFlight--;
      watched.since = performance.now();
    };
    // A request counts from its headers until its response's body has been sent (or given up):
    // an event stream is in flight for as long as it is open.
    const guarded: Handler = (req, info) => {
      watched.inFlight++;
      watched.served = true;
      info.completed.then(ended, ended);
      return handler(req, info);
    };
    const done: Promise<void> = serveConnection(
      conn,
      watched.close.signal,
      guarded,
      internalError,
      () => {},
    )
      .finished
      .catch(() => {})
      .finally(() => {
        options.signal.removeEventListener("abort", stop);
        connections.delete(done);
      });
    connections.set(done, watched);
  };

  const accepting = (async () => {
    while (!options.signal.aborted) {
      let conn: Deno.Conn;
      try {
        conn = await listener.accept();
      } catch (error) {
        if (options.signal.aborted || error instanceof Deno.errors.BadResource) return;
        // Out of file descriptors or a connection reset before accept: breathe, then go on.
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      serve(conn);
    }
  })();
  const finished = (async () => {
    await accepting;
    while (connections.size > 0) await Promise.all([...connections.keys()]);
    clearInterval(sweep);
  })();
  return { addr: listener.addr as Deno.NetAddr, finished };
}
