/** `lass demo-server`: the built-in demo tool server over stdio, for other MCP clients. */
import { parseFlags } from "./options.ts";

/** The help of `lass demo-server`. */
export const DEMO_SERVER_HELP = `Usage: lass demo-server

Serves Lass's built-in demo tool server (MCP) over stdin and stdout until stdin closes, so
that any MCP client can start it as a stdio server, e.g. in an mcp.json:
  {"command": "deno", "args": ["task", "lass", "demo-server"]}
`;

/** Runs the demo server until stdin closes; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(args, {}, "demo-server");
  if (values.help) return console.log(DEMO_SERVER_HELP), 0;
  const { runDemoServerOverStdio } = await import("../core/mcp/demo/server.ts");
  await runDemoServerOverStdio();
  return 0;
}
