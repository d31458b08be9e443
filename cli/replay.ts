/** `lass replay`: serves a cassette as a tool server, over stdio or Streamable HTTP. */
import { LassError } from "../core/errors.ts";
import type { ReplayOptions } from "../core/mcp/recordings/types.ts";
import { CliError } from "./errors.ts";
import { parseFlags } from "./options.ts";

/** The help of `lass replay`. */
export const REPLAY_HELP =
  `Usage: lass replay [--port <n>] [--match exact|tool] [--speed <x>] <file.cassette.json>

Serves a recorded tool server (docs/recordings.md) to any MCP client: the recorded handshake
and lists, each request answered by the recorded one with the same method and params (the
closest recorded request is named in the error when none matches), with the notifications and
server requests recorded in between, at the recorded pace.

Without --port it speaks MCP on stdin and stdout until stdin closes (an MCP client's command).
With --port it serves Streamable HTTP on http://127.0.0.1:<port>/mcp (0 picks a free port) and
prints that URL on stdout once it listens; Ctrl-C stops it. On a loopback address, requests
from other host names or origins are refused (403), against DNS rebinding.

Options:
  --port <n>          Serve Streamable HTTP on this loopback port instead of stdio
  --host <name>       The address to listen on with --port (default 127.0.0.1)
  --match exact|tool  tool: a tools/call with no exact recording takes the same tool's closest
                      arguments (default exact)
  --speed <x>         Recorded delays are divided by x (default 1; 0 answers at once)
  --help              Show this help
`;

/** Host names of this machine's loopback interface. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** Whether a request names a loopback host, and a loopback origin when it has one. */
function fromLoopback(req: Request): boolean {
  const host = req.headers.get("host");
  const hostName = host && URL.canParse(`http://${host}`) ? new URL(`http://${host}`).hostname : "";
  const origin = req.headers.get("origin");
  const originName = origin && URL.canParse(origin) ? new URL(origin).hostname : undefined;
  return LOOPBACK.has(hostName) && (origin === null || LOOPBACK.has(originName ?? ""));
}

/** The replay options of the flags. */
function replayOptions(values: { match?: string; speed?: string }): ReplayOptions {
  if (values.match !== undefined && values.match !== "exact" && values.match !== "tool") {
    throw new CliError(`--match must be exact or tool, not ${JSON.stringify(values.match)}`);
  }
  const speed = values.speed === undefined ? 1 : Number(values.speed);
  if (values.speed?.trim() === "" || !Number.isFinite(speed) || speed < 0) {
    throw new CliError(
      `--speed must be a number of at least 0, not ${JSON.stringify(values.speed)}`,
    );
  }
  return { match: (values.match ?? "exact") as ReplayOptions["match"], speed };
}

/** Runs `lass replay` until stdin closes (stdio) or the process is stopped (HTTP); the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      port: { type: "string" },
      host: { type: "string" },
      match: { type: "string" },
      speed: { type: "string" },
    },
    "replay",
    true,
  );
  if (values.help) return console.log(REPLAY_HELP), 0;
  if (positionals.length !== 1) {
    throw new CliError("give one cassette file (see lass replay --help)");
  }
  const options = replayOptions(values);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && (!/^\d{1,5}$/.test(values.port!) || port > 65535)) {
    throw new CliError(`--port must be a port number, not ${JSON.stringify(values.port)}`);
  }
  const { readCassette } = await import("../core/mcp/recordings/load.ts");
  let cassette;
  try {
    cassette = await readCassette(positionals[0]);
  } catch (error) {
    if (error instanceof LassError) throw new CliError(error.message, 1);
    throw error;
  }
  const { createReplayHandler, serveReplayOverStdio } = await import(
    "../core/mcp/recordings/replay_server.ts"
  );
  if (port === undefined) {
    await serveReplayOverStdio(cassette, options);
    return 0;
  }
  const handler = createReplayHandler(cassette, options);
  const hostname = values.host ?? "127.0.0.1";
  const { promise: listening, resolve } = Promise.withResolvers<Deno.NetAddr>();
  const loopback = LOOPBACK.has(hostname);
  const server = Deno.serve({ hostname, port, onListen: resolve }, (req) => {
    const url = new URL(req.url);
    if (url.pathname !== "/mcp") {
      return new Response("Not found: the endpoint is /mcp", { status: 404 });
    }
    // DNS rebinding: on a loopback address, only loopback names and origins are served.
    if (loopback && !fromLoopback(req)) {
      return new Response("Forbidden: not a loopback host or origin", { status: 403 });
    }
    return handler.fetch(req);
  });
  const address = await listening;
  console.log(`Lass replay: http://${hostname}:${address.port}/mcp`);
  // The open event streams end first: the server's shutdown waits for every response.
  const stop = () => void handler.close().then(() => server.shutdown());
  Deno.addSignalListener("SIGINT", stop);
  Deno.addSignalListener("SIGTERM", stop);
  await server.finished;
  Deno.removeSignalListener("SIGINT", stop);
  Deno.removeSignalListener("SIGTERM", stop);
  return 0;
}
