/** Item 7 of issue 19: slow and idle connections are closed; event streams are not. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const TOKEN = "slow-clients-token";

/** Starts the real process with short timeouts and waits for its ready line. */
async function start(dir: string) {
  const process = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "--port", "0", "--sandbox-port", "0"],
    env: {
      NO_COLOR: "1",
      LASS_TOKEN: TOKEN,
      LASS_CONFIG: join(dir, "service.json"),
      LASS_DATA_DIR: join(dir, "data"),
      // For tests: a request head within 300 ms, idle connections closed after 600 ms.
      LASS_HEADER_TIMEOUT_MS: "300",
      LASS_IDLE_TIMEOUT_MS: "600",
    },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = process.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  while (!buffered.includes("\n")) {
    const { done, value } = await lines.read();
    if (done) throw new Error("the server exited before its ready line");
    buffered += value;
  }
  lines.releaseLock();
  const port = Number(/:(\d+)\/\?token=/.exec(buffered)?.[1]);
  assert.ok(port > 0, `ready line: ${buffered}`);
  return { process, port, rest: lines };
}

/** Reads a raw socket until the server closes it; returns what it sent. */
async function readUntilClosed(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(4096);
  let text = "";
  while (true) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) return text;
    text += new TextDecoder().decode(buffer.subarray(0, n));
  }
}

Deno.test("slow request heads and idle connections are closed; event streams stay; others are served", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-slow-"));
  const { process, port, rest } = await start(dir);
  const base = `http://127.0.0.1:${port}`;
  const headers = { "x-service-token": TOKEN };
  const events = await fetch(`${base}/api/events`, { headers });
  assert.equal(events.status, 200);
  const eventLines = events.body!.pipeThrough(new TextDecoderStream()).getReader();
  try {
    const encoder = new TextEncoder();
    // A head that never ends, a connection that sends nothing, and one idle after a request.
    const partial = await Deno.connect({ hostname: "127.0.0.1", port });
    await partial.write(encoder.encode(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`));
    const silent = await Deno.connect({ hostname: "127.0.0.1", port });
    const idle = await Deno.connect({ hostname: "127.0.0.1", port });
    await idle.write(
      encoder.encode(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`),
    );
    const closed = Promise.all([partial, silent, idle].map(readUntilClosed));

    // Meanwhile another client is served.
    const health = await fetch(`${base}/api/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();

    // Awaited: the server closing all three sockets (it never does without the timeouts).
    const [partialText, silentText, idleText] = await closed;
    assert.equal(partialText, "");
    assert.equal(silentText, "");
    assert.match(idleText, /^HTTP\/1\.1 200/);
    for (const conn of [partial, silent, idle]) conn.close();

    // The event stream, open and quiet for longer than both timeouts, still delivers.
    const posted = await fetch(`${base}/api/events/ui`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ type: "ui.action", data: { name: "still-here" } }),
    });
    assert.ok(posted.ok, `POST /api/events/ui: ${posted.status}`);
    await posted.body?.cancel();
    let received = "";
    while (!received.includes("still-here")) {
      const { done, value } = await eventLines.read();
      assert.ok(!done, `the event stream ended before the ui.action arrived: ${received}`);
      received += value;
    }
  } finally {
    await eventLines.cancel().catch(() => {});
    process.kill("SIGTERM");
    await process.status;
    await rest.cancel().catch(() => {});
    await rm(dir, { recursive: true, force: true });
  }
});
