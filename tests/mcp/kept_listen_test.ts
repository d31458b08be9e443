/** KeptListen: a 2026 listen stream opened again when it ends, with growing delays, until closed. */
import assert from "node:assert/strict";
import type { McpSubscription } from "@modelcontextprotocol/client";
import { KeptListen } from "../../core/mcp/session/kept_listen.ts";

type How = "local" | "graceful" | "remote";

/** A subscription the test ends by hand. */
function fakeSubscription() {
  let end!: (how: How) => void;
  const closed = new Promise<How>((resolve) => end = resolve);
  const subscription: McpSubscription = {
    honoredFilter: {},
    closed,
    close: () => Promise.resolve(end("local")),
  };
  return { subscription, end };
}

/** Records the hooks' calls; `next(what)` resolves at the next one. */
function recorder() {
  const calls: string[] = [];
  const waiting: { what: string; resolve: () => void }[] = [];
  const note = (call: string) => {
    calls.push(call);
    for (const wait of waiting.splice(0)) {
      if (call.startsWith(wait.what)) wait.resolve();
      else waiting.push(wait);
    }
  };
  const next = (what: string) => new Promise<void>((resolve) => waiting.push({ what, resolve }));
  return { calls, note, next };
}

Deno.test("a kept listen reopens a stream that ends, and reports it; close stops it", async () => {
  const first = fakeSubscription();
  const opened: ReturnType<typeof fakeSubscription>[] = [];
  const { calls, note, next } = recorder();
  const kept = new KeptListen(first.subscription, () => {
    const one = fakeSubscription();
    opened.push(one);
    return Promise.resolve(one.subscription);
  }, {
    reopened: () => note("reopened"),
    failed: (reason) => note(`failed: ${reason}`),
  });
  let reopened = next("reopened");
  first.end("remote");
  await reopened;
  assert.deepEqual(calls, ["failed: the subscription stream ended", "reopened"]);
  reopened = next("reopened");
  opened[0].end("graceful");
  await reopened;
  assert.equal(calls[2], "failed: the server ended the subscription stream");
  await kept.close();
  assert.equal(await opened[1].subscription.closed, "local", "close ends the current stream");
  assert.equal(opened.length, 2);
});

Deno.test("a kept listen waits longer after each stream that ends at once, and retries a failed reopen", async () => {
  const first = fakeSubscription();
  let opens = 0;
  const streams: ReturnType<typeof fakeSubscription>[] = [];
  const { calls, note, next } = recorder();
  const kept = new KeptListen(first.subscription, () => {
    opens++;
    // The second reopen fails; the others give streams that the test ends at once.
    if (opens === 2) return Promise.reject(new Error("refused"));
    const one = fakeSubscription();
    streams.push(one);
    return Promise.resolve(one.subscription);
  }, {
    reopened: () => note("reopened"),
    failed: (reason) => note(`failed: ${reason}`),
    // Two immediate attempts, then one no test waits for.
    delaysMs: [0, 0, 0, 3_600_000],
  });
  let reopened = next("reopened");
  first.end("remote");
  await reopened;
  reopened = next("reopened");
  streams[0].end("remote");
  await reopened;
  assert.equal(opens, 3, "the failed reopen was tried again");
  assert.ok(calls.includes("failed: cannot reopen the subscription stream: refused"));
  // The stream opened on the third attempt ends at once: the next wait is the long one.
  const failed = next("failed");
  streams[1].end("remote");
  await failed;
  // A reopen without delay would be a 0 ms timer set before this one, so it would run first.
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(opens, 3, "no reopen right after a stream that ended at once, again");
  await kept.close();
});
