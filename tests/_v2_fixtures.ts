/** The SDK v2 fixture servers as processes: `tests/fixtures/v2_server.ts` and `broken_gateway.ts`. */
import assert from "node:assert/strict";

/** The v2 server fixture: `--era modern|legacy|dual --transport stdio|http [--port N]`. */
export const V2_SERVER = new URL("./fixtures/v2_server.ts", import.meta.url).pathname;
/** A `mcpServers[]` record of the v2 fixture server over stdio, speaking only `era`. */
export function v2StdioRecord(
  era: "modern" | "legacy",
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: "v2",
    name: "V2 fixture",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", V2_SERVER, "--era", era, "--transport", "stdio"],
    timeoutMs: 20_000,
    ...extra,
  };
}

/** A gateway that answers 2025 requests and breaks the 2026 probe: `--mode 5xx|empty200|idnull|hang`. */
export const GATEWAY = new URL("./fixtures/broken_gateway.ts", import.meta.url).pathname;

/** A fixture process serving HTTP, started and ready. */
export interface HttpFixture extends AsyncDisposable {
  url: URL;
  port: number;
  stop(): Promise<void>;
}

/** Starts `script` with `args` and waits for its `listening on` line on stderr. */
export async function startHttp(script: string, args: string[]): Promise<HttpFixture> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let match: RegExpMatchArray | null = null;
  while (!(match = seen.match(/listening on (http:\/\/\S+)/))) {
    const { value, done } = await lines.read();
    if (done) {
      await child.status;
      assert.fail(`${script} ${args.join(" ")} ended before listening: ${seen}`);
    }
    seen += value;
  }
  // Keep reading stderr so that the child never blocks on a full pipe.
  const drained = (async () => {
    while (!(await lines.read()).done) { /* drain */ }
  })();
  const url = new URL(match[1]);
  let stopped: Promise<void> | undefined;
  const stop = () =>
    stopped ??= (async () => {
      child.kill();
      await child.status;
      await drained;
    })();
  return { url, port: Number(url.port), stop, [Symbol.asyncDispose]: stop };
}
