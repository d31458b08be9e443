/**
 * The real Lass as a child process for benchmarks, run as `deno task start` runs it (its flags and
 * permissions): started on a config, stopped cleanly.
 */
import { START_FLAGS } from "../scripts/permissions.ts";

const MAIN_TS = new URL("../main.ts", import.meta.url).pathname;
const READY = /^Lass ready: http:\/\/127\.0\.0\.1:(\d+)\//;
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5000;

/** The token every bench server uses. */
export const BENCH_TOKEN = "bench-token";

/** A running Lass. */
export interface LassProcess {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** SIGTERM, SIGKILL after 5 s; resolves when the process has exited. */
  stop(): Promise<void>;
}

/** Keeps the last few KB of a stream's text, draining it so the child never blocks. */
async function tail(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  onText: (text: string) => void,
) {
  let kept = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    kept = (kept + text).slice(-4096);
    onText(kept);
  }
}

/** Waits for `promise`, or rejects after `ms`; the timer is always cleared. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends a signal to a child that may have exited already. */
function signal(child: Deno.ChildProcess, name: Deno.Signal): void {
  try {
    child.kill(name);
  } catch {
    // Already exited.
  }
}

/**
 * Writes `config` as `<dir>/service.json`, starts `main.ts` on a free port with its data in
 * `<dir>/data` and the bench token, and waits for its ready line (stderr is shown on failure).
 */
export async function startLassProcess(
  dir: string,
  config: unknown,
  env: Record<string, string> = {},
): Promise<LassProcess> {
  await Deno.writeTextFile(`${dir}/service.json`, JSON.stringify(config));
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...START_FLAGS,
      MAIN_TS,
      "--port",
      "0",
      "--config",
      `${dir}/service.json`,
      "--data-dir",
      `${dir}/data`,
    ],
    env: { NO_COLOR: "1", LASS_TOKEN: BENCH_TOKEN, ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  const { promise: ready, resolve: onReady } = Promise.withResolvers<number>();
  const drained = Promise.all([
    tail(child.stderr, (text) => void (stderr = text)),
    tail(child.stdout, (text) => {
      const match = text.split("\n").map((line) => READY.exec(line)).find(Boolean);
      if (match) onReady(Number(match[1]));
    }),
  ]);
  const stop = async () => {
    signal(child, "SIGTERM");
    await within(child.status, STOP_TIMEOUT_MS, "no exit").catch(() => signal(child, "SIGKILL"));
    await child.status;
    await drained;
  };
  const exited = child.status.then((status) => {
    throw new Error(`Lass exited with code ${status.code} before it was ready`);
  });
  try {
    const port = await within(Promise.race([ready, exited]), READY_TIMEOUT_MS, "no ready line");
    return { pid: child.pid, port, base: `http://127.0.0.1:${port}`, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr.trim()}`);
  }
}
