/**
 * Helpers of the bundle tests: `dist/lass.js` and `dist/mod.js` built once (when stale), a file
 * copied alone into an empty folder, processes started there, and the processes they leave.
 */
import assert from "node:assert/strict";
import { copyFile, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { buildBundles } from "../scripts/build_bundle.ts";
import { START_PERMISSIONS } from "../scripts/permissions.ts";

export { START_PERMISSIONS };

/** The ready line of `lass serve` and of the mounting recipes. */
const READY = /^Lass ready: (http:\/\/[^/]+:(\d+))\/\?token=([A-Za-z0-9_-]+)$/;

/** `dist/lass.js` and `dist/mod.js`, built by `deno task build`'s script when a source is newer. */
export async function builtBundles(): Promise<{ lassJs: string; modJs: string }> {
  const { files } = await buildBundles({ ifStale: true });
  const [lassJs, modJs] = files;
  return { lassJs, modJs };
}

/** A new empty temp folder holding only a copy of `file`; the copy's path. */
export async function copyAlone(
  file: string,
  prefix: string,
): Promise<{ dir: string; copy: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const copy = join(dir, basename(file));
  await copyFile(file, copy);
  return { dir, copy };
}

/**
 * The program of a fenced code block in a doc page whose first line is `// <name>: ...` (the
 * mounting recipes of docs/mounting.md), so that the tests run what the docs show.
 */
export async function recipeFrom(doc: URL, name: string): Promise<string> {
  const text = await readFile(doc, "utf8");
  for (const [, code] of text.matchAll(/```js\n([\s\S]*?)```/g)) {
    if (code.startsWith(`// ${name}:`)) return code;
  }
  throw new Error(`${doc.pathname} has no code block starting with // ${name}:`);
}

/** A server process that printed its ready line. */
export interface ServerProcess {
  process: Deno.ChildProcess;
  /** `http://127.0.0.1:<port>` */
  base: string;
  token: string;
  /** Everything it wrote to stderr, once it has exited. */
  stderr: Promise<string>;
}

/** Starts `command args` in `cwd` and waits for the ready line on stdout. */
export async function startServer(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
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
  // The rest of stdout is not read: drain it so that the process never blocks on a full pipe.
  reader.releaseLock();
  process.stdout.pipeTo(new WritableStream()).catch(() => {});
  const match = READY.exec(buffered.split("\n")[0]);
  assert.ok(match, `a ready line, not ${JSON.stringify(buffered)}`);
  return { process, base: match[1], token: match[3], stderr };
}

/** Stops a server with SIGTERM and returns its exit code. */
export async function stopServer(server: ServerProcess): Promise<number> {
  server.process.kill("SIGTERM");
  const { code } = await server.process.status;
  await server.stderr;
  return code;
}

/** Runs a command to its end in `cwd`: its exit code and output. */
export async function runToEnd(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(command, {
    args,
    cwd: options.cwd,
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
  cwd: string,
): Promise<{ serverName: string; code: number }> {
  const child = new Deno.Command(command, {
    args,
    cwd,
    env: { NO_COLOR: "1" },
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
