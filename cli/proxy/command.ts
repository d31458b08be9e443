/**
 * `lass proxy`: Lass's MCP proxy over stdio, for clients that launch a command. It relays to a
 * configured tool server (`lass proxy <serverId>`) or wraps any stdio server
 * (`lass proxy -- <command> [args...]`); stdout carries only MCP messages, its words go to stderr.
 */
import type { TransportSpec } from "../../core/mcp/session/types.ts";
import { CliError } from "../errors.ts";
import { openLass, parseFlags, RUN_ONCE } from "../options.ts";
import { LassHolds } from "./holds.ts";
import { ProxyReporter } from "./report.ts";
import { writeReportFile } from "../output.ts";
import { secretEnvValues, StdioRecording } from "./record.ts";

/** The help of `lass proxy`. */
export const PROXY_HELP = `Usage: lass proxy <serverId> [options]
       lass proxy [options] -- <command> [args...]

Speaks MCP on stdin and stdout and relays every message to a tool server: the record
<serverId> of the config (its env, headers and Lass's OAuth sign-in applied), or any stdio
server started with <command>. Only MCP messages are written to stdout. In an MCP client's
config, e.g. Claude Desktop's:
  {"command": "deno", "args": ["task", "lass", "proxy", "my-server"]}

Options:
  --url <url>         A running Lass to show the traffic in (its wire trace and proxy
                      clients) and whose holds apply: a held request waits for the
                      answer given in that Lass (see docs/proxy.md)              [LASS_URL]
  --token <token>     That Lass's service token                                  [LASS_TOKEN]
  --id <serverId>     With -- <command>: the server whose trace the traffic joins, and whose
                      holds apply, in that Lass
  --record <file>     Write what crossed as a cassette when the session ends (secrets
                      removed; see docs/recordings.md): lass replay serves it again
`;

/** Relays until the client's stdin ends or the server ends; the exit code. */
export async function run(args: string[]): Promise<number> {
  const dash = args.indexOf("--");
  const own = dash >= 0 ? args.slice(0, dash) : args;
  const command = dash >= 0 ? args.slice(dash + 1) : undefined;
  const { values, positionals } = parseFlags(
    own,
    {
      url: { type: "string" },
      token: { type: "string" },
      id: { type: "string" },
      record: { type: "string" },
    },
    "proxy",
    true,
  );
  // Help is the one thing on stdout that is not MCP: nothing is relayed then.
  if (values.help) return console.log(PROXY_HELP), 0;
  if (command !== undefined && command.length === 0) {
    throw new CliError("lass proxy -- needs a command to start (see lass proxy --help)");
  }
  if (command === undefined && positionals.length !== 1) {
    throw new CliError("lass proxy needs one server id, or -- <command> (see lass proxy --help)");
  }
  const warn = (message: string) => console.error(`lass proxy: ${message}`);
  const lass = command === undefined ? await openLass(values, RUN_ONCE) : undefined;
  const serverId = command === undefined ? positionals[0] : values.id;
  let holds: LassHolds | undefined;
  try {
    const target = lass ? await lass.service.mcp.proxyTarget(serverId!) : undefined;
    const spec: TransportSpec = target
      ? target.spec
      : { kind: "stdio", command: command![0], args: command!.slice(1), env: Deno.env.toObject() };
    const url = values.url ?? Deno.env.get("LASS_URL");
    const token = values.token ?? Deno.env.get("LASS_TOKEN");
    let reporter: ProxyReporter | undefined;
    if (url && token && serverId) {
      reporter = new ProxyReporter(url, token, serverId, warn);
      const { session } = reporter;
      const reported = () => reporter!.sent();
      holds = new LassHolds({ url, token, serverId, session, reported, warn });
    } else if (url && !serverId) {
      warn("--url needs --id <serverId> with -- <command>; not reported, nothing held");
    } else if (url && !token) {
      warn("--url needs --token (or LASS_TOKEN); not reported, nothing held");
    }
    if (!holds && target?.record.holds?.length) {
      warn(
        `${serverId} holds ${target.record.holds.join(", ")}, but holds need a running Lass to ` +
          "answer them (--url and --token): nothing is held",
      );
    }
    const { createTransport } = await import("../../core/mcp/session/transports.ts");
    const { relayStdio } = await import("../../core/mcp/proxy/stdio_relay.ts");
    const { stdioPinGate } = await import("../../core/mcp/proxy/stdio_pins.ts");
    const page = url
      ? `${url.replace(/\/$/, "")}/inspector/${encodeURIComponent(serverId!)}`
      : undefined;
    const gate = lass ? await stdioPinGate(lass.service, serverId!, page) : undefined;
    const [opened] = await Promise.all([
      createTransport(spec, { stderr: (line) => console.error(line) }),
      holds?.start(),
    ]);
    const output = Deno.stdout.writable.getWriter();
    const encoder = new TextEncoder();
    const recording = values.record === undefined ? undefined : new StdioRecording();
    const ended = await relayStdio(opened.transport, {
      input: Deno.stdin.readable,
      write: (line) => output.write(encoder.encode(`${line}\n`)),
      observe: (dir, message) => {
        reporter?.add(dir, message);
        recording?.add(dir, message);
      },
      warn,
      ...(gate && { gate }),
      ...(holds && { hold: (dir, message) => holds!.hold(dir, message) }),
    });
    holds?.close();
    if (opened.stop) await opened.stop(() => opened.transport.close());
    else await opened.transport.close();
    await reporter?.close();
    if (recording) {
      const secrets = lass ? lass.service.mcp.secrets(serverId!) : secretEnvValues();
      const text = await recording.cassette(serverId ?? command![0], spec.kind, secrets);
      await writeReportFile(values.record!, text, "cassette");
      console.error(`lass proxy: wrote ${values.record} (${recording.size} messages)`);
    }
    output.releaseLock();
    if (ended === "server") warn("the tool server ended the connection");
    return ended === "server" ? 1 : 0;
  } catch (error) {
    throw new CliError((error as Error).message, 1);
  } finally {
    holds?.close();
    await lass?.close();
  }
}
