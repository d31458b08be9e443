/**
 * Child processes as a user runs them: a server started until its `Lass ready:` line, a command
 * run to its end, and a stdio MCP server asked to `initialize`.
 */
import assert from "node:assert/strict";
import { basename } from "node:path";

/** The ready line of `lass serve` and of the mounting recipes. */
const READY = /^Lass ready: ((http:\/\/[^/]+:(\d+))\/\?token=([A-Za-z0-9_-]+))$/;

/** A server process that printed its ready line. */
export interface ServerProcess {
  process: Deno.ChildProcess;
  /** The printed URL, token included. */
  url: string;
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  token: string;
  /** Everything it wrote to stderr, once it has exited. */
  stderr: Promise<string>;
  /** What it wrote to stdout after its ready line, once it has exited. */
  laterStdout: Promise<string>;
}

/** Starts `command args` (in `cwd`) and waits for the ready line on stdout. */
export async function startServer(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<ServerProcess> {
  const process = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(process.stderr).text();
  const reader = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (!buffered.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) {
      throw new Error(`${basename(command)} exited before its ready line: ${await stderr}`);
    }
    buffered += value;
  }
  // The rest of stdout is read as it comes, so that the process never blocks on a full pipe.
  const laterStdout = (async () => {
    let rest = buffered.slice(buffered.indexOf("\n") + 1);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return rest;
        rest += value;
      }
    } catch {
      return rest;
    }
  })();
  const match = READY.exec(buffered.split("\n")[0]);
  assert.ok(match, `a ready line, not ${JSON.stringify(buffered)}`);
  return {
    process,
    url: match[1],
    base: match[2],
    port: Number(match[3]),
    token: match[4],
    stderr,
    laterStdout,
  };
}

/** Stops a server with SIGTERM and returns its exit code. */
export async function stopServer(server: ServerProcess): Promise<number> {
  server.process.kill("SIGTERM");
  const { code } = await server.process.status;
  await server.stderr;
  return code;
}

/** A command's exit code and output. */
export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end (in `cwd`) with stdin closed: its exit code and output. With
 * `clearEnv` it sees only `env` (and `NO_COLOR`).
 */
export async function runToEnd(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; clearEnv?: boolean } = {},
): Promise<Ran> {
  const output = await new Deno.Command(command, {
    args,
    cwd: options.cwd,
    clearEnv: options.clearEnv,
    env: { NO_COLOR: "1", ...options.env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

/**
 * Starts `command args` as a stdio MCP server, sends `initialize`, and returns the server's name
 * from the answer and the exit code once stdin is closed.
 */
export async function initializeOverStdio(
  command: string,
  args: string[],
  cwd?: string,
  env: Record<string, string> = {},
): Promise<{ serverName: string; code: number }> {
  const child = new Deno.Command(command, {
    args,
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bundle-test", version: "1" },
      },
    }) + "\n",
  ));
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  await writer.close();
  await reader.cancel();
  const { code } = await child.status;
  assert.ok(text.includes("\n"), `an answer to initialize, not ${JSON.stringify(text)}`);
  return { serverName: JSON.parse(text.split("\n")[0]).result.serverInfo.name, code };
}

/** How many processes have `marker` in their command line (read from `/proc`). */
export async function processesWith(marker: string): Promise<number> {
  let count = 0;
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const line = await Deno.readTextFile(`/proc/${entry.name}/cmdline`).catch(() => "");
    if (line.includes(marker)) count++;
  }
  return count;
}
