/**
 * The MCP bench's bare hop: the least an HTTP API in front of the same client can add. A process
 * of its own with one session (Lass's `openSession`, as the bench's direct client) to one server,
 * and `Deno.serve` answering `POST /` `{"tool", "args"}` with the call's result as JSON: no
 * routing, checks, manager, events or trace. Run as
 * `deno run -A _bare_hop.ts '<server>' <era>`, where `<server>` is `{"inProcess": true}` (its own
 * demo) or `{"stdio": {"command", "args"}}`; prints the port it listens on, on a line of its own.
 */
import type { EraSetting } from "../core/mcp/session/errors.ts";
import { openSession } from "../core/mcp/session/client.ts";
import type { SessionHandlers, TransportSpec } from "../core/mcp/session/types.ts";
import { createDemoHandler } from "../core/mcp/demo/server.ts";

/** Which server the hop reaches. */
export type HopServer = { inProcess: true } | { stdio: { command: string; args: string[] } };

/** Session handlers that refuse server requests and drop what servers tell: the bench's clients. */
export const QUIET_HANDLERS: SessionHandlers = {
  sampling: () => Promise.reject(new Error("no sampling in the bench")),
  elicitation: () => Promise.reject(new Error("no elicitation in the bench")),
  log: () => {},
  stderr: () => {},
  listChanged: () => {},
  reread: () => {},
  closed: () => {},
  troubled: () => {},
};

/** Starts a bare hop to `server` as a child process; its port, and a stop. */
export async function startBareHop(server: HopServer, era: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, JSON.stringify(server), era],
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/^\d+$/m.test(text)) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`the bare hop exited before listening:\n${text}`);
    text += value;
  }
  await lines.cancel();
  return {
    port: Number(/^(\d+)$/m.exec(text)![1]),
    stop: async () => {
      child.kill();
      await child.status;
    },
  };
}

async function serve(server: HopServer, era: string): Promise<void> {
  const env = { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "" };
  const spec: TransportSpec = "inProcess" in server
    ? { kind: "in-process", handler: createDemoHandler() }
    : { kind: "stdio", ...server.stdio, env };
  const session = await openSession(spec, QUIET_HANDLERS, {
    timeoutMs: 60_000,
    era: era as EraSetting,
  });
  const http = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen: ({ port }) => console.log(port),
  }, async (req) => {
    const { tool, args } = await req.json();
    const options = { timeoutMs: 10_000 };
    return Response.json(
      session.runsAsTask(tool)
        ? await session.callToolTask(tool, args, options)
        : await session.callTool(tool, args, options),
    );
  });
  await http.finished;
}

if (import.meta.main) await serve(JSON.parse(Deno.args[0]), Deno.args[1]);
