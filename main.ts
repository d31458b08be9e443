/**
 * The Lass command line: picks the subcommand (default `serve`) and turns its result into the
 * process's exit code. Each subcommand lives in `cli/` and is loaded only when it runs.
 */
import { VERSION } from "./core/version.ts";
import { CliError, isParseArgsError } from "./cli/errors.ts";
import { COMMON_HELP } from "./cli/options.ts";

/** A subcommand: its one-line summary and its module (`run(args)` resolves to the exit code). */
interface Command {
  summary: string;
  load: () => Promise<{ run: (args: string[]) => Promise<number> }>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: "run the service: API, web UI and the MCP Apps sandbox (the default)",
    load: () => import("./cli/serve.ts"),
  },
  chat: {
    summary: "one chat turn per message on a workspace; the answer on stdout",
    load: () => import("./cli/chat/command.ts"),
  },
  check: {
    summary: "check a workspace's tool servers and models for what breaks model providers",
    load: () => import("./cli/check/command.ts"),
  },
  eval: {
    summary: "run an eval file's cases on models and check the tool calls and answers",
    load: () => import("./cli/eval/command.ts"),
  },
  call: {
    summary: "call one tool of a configured tool server; its result as JSON",
    load: () => import("./cli/call.ts"),
  },
  proxy: {
    summary: "MCP over stdio, relayed to a configured tool server or any stdio command",
    load: () => import("./cli/proxy/command.ts"),
  },
  record: {
    summary: "record a tool server's lists and answers into a cassette file",
    load: () => import("./cli/record.ts"),
  },
  replay: {
    summary: "serve a cassette as a tool server, over stdio or Streamable HTTP",
    load: () => import("./cli/replay.ts"),
  },
  verify: {
    summary: "send a cassette's requests to the live server and show what drifted",
    load: () => import("./cli/verify.ts"),
  },
  "demo-server": {
    summary: "the built-in demo tool server over stdio, for other MCP clients",
    load: () => import("./cli/demo_server.ts"),
  },
};

/** The overview printed by `lass help` and `lass --help`. */
function overview(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) =>
    `  ${name.padEnd(width)}  ${command.summary}`
  );
  return `Lass ${VERSION}: the Local Agent Sandbox Service

Usage: lass [command] [options]        (deno task lass ...; deno task start is lass serve)

Commands:
${lines.join("\n")}

Every command takes:
${COMMON_HELP}

Run lass <command> --help for a command's own options (lass serve --help: ports and host).
`;
}

/** Runs the command named by `args[0]` (or `serve` when it is a flag or missing). */
async function main(args: string[]): Promise<number> {
  const [first = "", ...rest] = args;
  // `lass help chat` is `lass chat --help`.
  if (first === "help" && rest.length === 1 && Object.hasOwn(COMMANDS, rest[0])) {
    return await (await COMMANDS[rest[0]].load()).run(["--help"]);
  }
  if (first === "help" || ((first === "--help" || first === "-h") && args.length === 1)) {
    console.log(overview());
    return 0;
  }
  if (first === "" || first.startsWith("-")) {
    return await (await COMMANDS.serve.load()).run(args);
  }
  const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (command === undefined) {
    throw new CliError(`unknown command ${JSON.stringify(first)}\n\n${overview()}`);
  }
  return await (await command.load()).run(rest);
}

/**
 * `deno task lass` runs in the repo's folder and names the folder it was called from in
 * `LASS_TASK_CWD` (deno.json): the command works there, so relative paths and the config lookup
 * mean what they would for `lass` itself. The variable is not passed on to tool servers.
 */
function enterTaskFolder(): void {
  // `lass demo-server` may run with no permissions at all (an MCP client's command line).
  const env = Deno.permissions.querySync({ name: "env", variable: "LASS_TASK_CWD" });
  if (env.state !== "granted") return;
  const folder = Deno.env.get("LASS_TASK_CWD");
  if (!folder) return;
  Deno.env.delete("LASS_TASK_CWD");
  Deno.chdir(folder);
}

/**
 * Runs the command line with `args` and exits with its code; a usage or known failure prints
 * `lass: <message>`. The bundle's entry (`scripts/build_bundle.ts`) calls it too.
 */
export async function runCli(args: string[]): Promise<never> {
  enterTaskFolder();
  let code: number;
  try {
    code = await main(args);
  } catch (error) {
    if (!(error instanceof CliError) && !isParseArgsError(error)) throw error;
    console.error(`lass: ${error.message}`);
    code = error instanceof CliError ? error.exitCode : 2;
  }
  Deno.exit(code);
}

if (import.meta.main) await runCli(Deno.args);
