/** The SDK transports of a session: one per kind of {@link TransportSpec}, loaded when first needed. */
import type {
  SSEClientTransport,
  StreamableHTTPClientTransport,
  Transport,
} from "@modelcontextprotocol/client";
import type { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { TransportSpec } from "./types.ts";
import { stopProcessTree } from "./process_tree.ts";
import type { WireSink } from "./trace.ts";
import { tapTransport } from "./wire_tap.ts";
import { type McpPeer, McpRequestSpans } from "../../telemetry/mcp_spans.ts";

/**
 * How long a process whose start failed (no answer in time) or an era probe's process gets to
 * exit after its stdin closed, and after SIGTERM: it holds no session state worth waiting for.
 */
export const FAILED_START_GRACE_MS = 250;

/** Where in-process servers are addressed; never dialled (the handler's `fetch` answers). */
const IN_PROCESS_URL = "http://in-process.lass.invalid/mcp";

const MAX_STDERR_LINE = 4096;

/** A transport ready for `Client.connect`, with what closing it needs. */
export interface OpenedTransport {
  transport: Transport;
  /** Ends a Streamable HTTP session before closing (Deno keeps sockets open otherwise). */
  terminate?: () => Promise<void>;
  /** Whether losing the peer is noticed only by the network (http, sse), not by a process exit. */
  remote: boolean;
  /**
   * Closes the transport with `closeClient` and stops what it started: a stdio server and its
   * descendants (stdin closed, then SIGTERM, then SIGKILL after 2 s). Absent for other kinds.
   */
  stop?: (closeClient: () => Promise<void>, graceMs?: number) => Promise<void>;
  /** The telemetry spans of the requests sent inside traced tool calls. */
  spans: McpRequestSpans;
}

/** What a transport reports besides its messages to the client. */
export interface TransportHooks {
  /** A stdio server's stderr, line by line. */
  stderr: (line: string) => void;
  /** A wire-trace sink for each transport opened (the session's, and an era probe's). */
  wire?: () => WireSink;
  /** Keeps how to stop each process started, until it is stopped (`SessionHandlers.track`). */
  track?: (stop: () => Promise<void>) => () => void;
  /** A stdio server answers the era probe on its own process (`OpenOptions.probeInPlace`). */
  probeInPlace?: boolean;
}

/**
 * Builds the transport of a spec, tapped for the wire trace (when `hooks.wire` is given) and for
 * the telemetry of requests sent inside traced tool calls.
 */
export async function createTransport(
  spec: TransportSpec,
  hooks: TransportHooks,
): Promise<OpenedTransport> {
  const opened = await openTransport(spec, hooks);
  const spans = new McpRequestSpans(peerOf(spec, opened.transport));
  tapTransport(opened.transport, hooks.wire?.(), spans);
  return { ...opened, spans };
}

/** What the telemetry spans of a transport's requests say of its connection. */
function peerOf(spec: TransportSpec, transport: Transport): McpPeer {
  const sessionId = () => (transport as { sessionId?: string }).sessionId;
  if (spec.kind === "stdio") return { networkTransport: "pipe", sessionId };
  if (spec.kind === "in-process") return { networkTransport: "inproc", sessionId };
  const url = new URL(spec.url);
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { networkTransport: "tcp", address: url.hostname, port, sessionId };
}

async function openTransport(
  spec: TransportSpec,
  { stderr, wire, track, probeInPlace }: TransportHooks,
): Promise<Omit<OpenedTransport, "spans">> {
  switch (spec.kind) {
    case "stdio": {
      const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
      // The SDK probes a subclass of its stdio transport in place, on the session's own process.
      const Transport = probeInPlace
        ? class InPlace extends StdioClientTransport {}
        : StdioClientTransport;
      const transport: StdioClientTransport = new Transport({
        command: spec.command,
        args: spec.args,
        env: spec.env,
        cwd: spec.cwd,
        stderr: "pipe",
      });
      transport.stderr?.on("data", lineSplitter(stderr));
      reapProbeSiblings(transport, { Base: StdioClientTransport, wire, track });
      return { transport, remote: false, stop: stopOnce(transport, track) };
    }
    case "http": {
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      const transport: StreamableHTTPClientTransport = new StreamableHTTPClientTransport(
        new URL(spec.url),
        {
          requestInit: { headers: spec.headers },
          ...(spec.auth && { authProvider: spec.auth.provider, fetch: spec.auth.fetch }),
        },
      );
      spec.auth?.attach((params) => transport.finishAuth(params));
      return { transport, terminate: () => transport.terminateSession(), remote: true };
    }
    case "sse": {
      const { SSEClientTransport } = await import("@modelcontextprotocol/client");
      // The SDK sends `requestInit` headers on the event stream and on every POST.
      const transport: SSEClientTransport = new SSEClientTransport(new URL(spec.url), {
        requestInit: { headers: spec.headers },
        ...(spec.auth && { authProvider: spec.auth.provider, fetch: spec.auth.fetch }),
      });
      spec.auth?.attach((params) => transport.finishAuth(params));
      return { transport, remote: true };
    }
    case "in-process": {
      const handler = spec.handler;
      if ("connect" in handler) return { transport: handler.connect(), remote: false };
      const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
      const transport = new StreamableHTTPClientTransport(new URL(IN_PROCESS_URL), {
        fetch: (url, init) => handler.fetch(new Request(url, init)),
      });
      return { transport, remote: false };
    }
  }
}

/**
 * The SDK's `auto` era probe runs on a short-lived sibling process, built with
 * `new transport.constructor(params)` and reaped by its internal `_dispose` (SIGTERM, then a
 * SIGKILL that does nothing under Deno, then a wait for the exit: a server that ignores SIGTERM
 * would hang the connect for ever, and a server's children would be left behind). An own
 * `constructor` on the instance (the class and its prototype stay the SDK's, which the probe
 * checks) builds the same sibling and reaps it with its process tree instead; the probe's
 * messages go to the wire trace too.
 */
function reapProbeSiblings(
  transport: StdioClientTransport,
  { Base, wire, track }: { Base: typeof StdioClientTransport } & Omit<TransportHooks, "stderr">,
): void {
  type Params = ConstructorParameters<typeof StdioClientTransport>[0];
  type Disposable = { _dispose?: () => Promise<void> };
  function Sibling(params: Params): StdioClientTransport {
    const sibling = new Base(params);
    const sink = wire?.();
    if (sink) tapTransport(sibling, sink);
    const dispose = (sibling as unknown as Disposable)._dispose;
    if (typeof dispose === "function") {
      const stop = stopOnce(sibling, track);
      Object.defineProperty(sibling, "_dispose", {
        // A probe holds no session: it gets the short grace of a start that failed. Its probe
        // request, if unanswered, ends in the trace.
        value: () =>
          stop(() => dispose.call(sibling), FAILED_START_GRACE_MS).finally(() => sink?.closed?.()),
        configurable: true,
      });
    }
    return sibling;
  }
  Object.defineProperty(transport, "constructor", { value: Sibling, configurable: true });
}

/**
 * Stops a stdio transport's process tree once, however many ask (its session's close, its owner's
 * shutdown): the first asker's `close` ends the server's stdin. The stop is tracked with `track`
 * until it is done.
 */
function stopOnce(
  transport: StdioClientTransport,
  track: TransportHooks["track"],
): (close: () => Promise<void>, graceMs?: number) => Promise<void> {
  const pid = keptPid(transport);
  let stopping: Promise<void> | undefined;
  const stop = (close: () => Promise<void>, graceMs?: number) =>
    stopping ??= stopProcessTree(pid(), close, { graceMs }).finally(() => untrack?.());
  const untrack = track?.(() => stop(() => transport.close()));
  return stop;
}

/**
 * The pid of a stdio transport's process, kept from its start: the SDK forgets it as soon as its
 * own close begins (a failed connect closes the transport), which would leave the process to a
 * close that waits seconds before it signals, and that a one-shot command does not outlive.
 */
function keptPid(transport: StdioClientTransport): () => number | null {
  let pid: number | null = null;
  const start = transport.start.bind(transport);
  transport.start = async () => {
    try {
      await start();
    } finally {
      pid = transport.pid;
    }
  };
  return () => pid ?? transport.pid;
}

/** Cuts a byte stream into lines; a line is cut at 4 KiB so a server that never ends one cannot grow the buffer. */
function lineSplitter(onLine: (line: string) => void): (chunk: Uint8Array | string) => void {
  const decoder = new TextDecoder();
  let partial = "";
  return (chunk) => {
    partial += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    const lines = partial.split(/\r?\n/);
    partial = lines.pop() ?? "";
    if (partial.length > MAX_STDERR_LINE) {
      lines.push(partial.slice(0, MAX_STDERR_LINE));
      partial = "";
    }
    for (const line of lines) {
      if (line.trim() !== "") {
        onLine(line.length > MAX_STDERR_LINE ? line.slice(0, MAX_STDERR_LINE) : line);
      }
    }
  };
}

/**
 * Whether an endpoint that refused Streamable HTTP speaks the older HTTP+SSE transport: its GET
 * answers an event stream whose first event is `endpoint`. Reads at most the first chunk.
 */
export async function looksLikeSseEndpoint(
  url: string,
  headers: Record<string, string>,
  fetchImpl: (url: string, init?: RequestInit) => Promise<Response> = fetch,
): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 3000);
  try {
    const response = await fetchImpl(url, {
      headers: { ...headers, accept: "text/event-stream" },
      signal: controller.signal,
    });
    if (!response.ok || !response.headers.get("content-type")?.includes("text/event-stream")) {
      await response.body?.cancel();
      return false;
    }
    const reader = response.body!.getReader();
    let text = "";
    while (text.length < 4096) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
      if (/\n\n/.test(text)) break;
    }
    await reader.cancel().catch(() => {});
    return /^event:\s*endpoint/m.test(text);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** Whether a URL answers HTTP (any status): a HEAD request, bounded by `timeoutMs`. */
export async function answersHttp(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { method: "HEAD", headers, signal: controller.signal });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
