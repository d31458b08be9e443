/** Running `main.ts` subcommands as a user does: child processes on a temp config and data dir. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { START_FLAGS } from "../scripts/permissions.ts";
import { type Ran, runToEnd, startServer, stopServer } from "./_process.ts";

export type { Ran };

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A temp folder with a config written in it; `args` points a subcommand at both. */
export interface CliHome {
  dir: string;
  configPath: string;
  /** `--config <service.json> --data-dir <data>`. */
  args: string[];
  close(): Promise<void>;
}

/** Writes `config` as `service.json` in a new temp folder. */
export async function cliHome(config: unknown): Promise<CliHome> {
  const dir = await mkdtemp(join(tmpdir(), "lass-cli-"));
  const configPath = join(dir, "service.json");
  await writeFile(configPath, JSON.stringify(config, null, 2));
  return {
    dir,
    configPath,
    args: ["--config", configPath, "--data-dir", join(dir, "data")],
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The environment without LASS_* variables, plus `env`. */
function lassEnv(env: Record<string, string>): Record<string, string> {
  const clean = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !name.startsWith("LASS_")),
  );
  return { ...clean, ...env };
}

/** Runs `main.ts <args>` to its end, with stdin closed and no LASS_* variables but `env`. */
export function runLass(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return runToEnd(Deno.execPath(), ["run", ...START_FLAGS, MAIN, ...args], {
    env: lassEnv(env),
    clearEnv: true,
  });
}

/** Starts `main.ts <args>` as {@link runLass} does, with stdout and stderr piped to the caller. */
export function spawnLass(args: string[]): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...START_FLAGS, MAIN, ...args],
    env: lassEnv({ NO_COLOR: "1" }),
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** A `lass serve` child on a free port, with the URL and token it printed. */
export interface ServingLass {
  url: string;
  origin: string;
  token: string;
  stop(): Promise<void>;
}

/** Starts `main.ts serve --port 0 <args>` and waits for its ready line. */
export async function serveLass(args: string[]): Promise<ServingLass> {
  const server = await startServer(Deno.execPath(), [
    "run",
    ...START_FLAGS,
    MAIN,
    "serve",
    "--port",
    "0",
    ...args,
  ]);
  return {
    url: server.url,
    origin: server.base,
    token: server.token,
    stop: async () => void await stopServer(server),
  };
}

/**
 * An SDK client that starts `lass <command> <args>` (default `proxy`) as its stdio server, the way
 * Claude Desktop launches a command; what the command says on stderr is kept in `stderr`.
 */
export async function launchStdio(
  args: string[],
  name: string,
  options: { command?: string; env?: Record<string, string> } = {},
): Promise<{ client: Client; stderr: string[] }> {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", ...START_FLAGS, MAIN, options.command ?? "proxy", ...args],
    env: {
      NO_COLOR: "1",
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      ...options.env,
    },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr.push(new TextDecoder().decode(chunk)));
  const client = new Client({ name, version: "0.9.0" }, { capabilities: {} });
  await client.connect(transport);
  return { client, stderr };
}
