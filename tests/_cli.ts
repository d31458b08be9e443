/** Running `main.ts` subcommands as a user does: child processes on a temp config and data dir. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { START_PERMISSIONS } from "../scripts/permissions.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** A command's exit code and output. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

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

/** Runs `main.ts <args>` to its end, with stdin closed and no LASS_* variables but `env`. */
export async function runLass(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const clean = Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => !name.startsWith("LASS_")),
  );
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...START_PERMISSIONS, MAIN, ...args],
    env: { ...clean, NO_COLOR: "1", ...env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
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
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...START_PERMISSIONS, MAIN, "serve", "--port", "0", ...args],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (!buffered.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`lass serve exited before its ready line: ${await stderr}`);
    buffered += value;
  }
  const match = /^Lass ready: ((http:\/\/[^/]+)\/\?token=([A-Za-z0-9_-]+))$/m.exec(buffered);
  if (!match) throw new Error(`no ready line in ${JSON.stringify(buffered)}`);
  return {
    url: match[1],
    origin: match[2],
    token: match[3],
    stop: async () => {
      child.kill("SIGTERM");
      await reader.cancel();
      await child.status;
      await stderr;
    },
  };
}
