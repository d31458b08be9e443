/** The heap watcher of `lass serve`: when it collects, and that the collection it uses is real. */
import assert from "node:assert/strict";
import { exposedGc, QuietHeapRule, reduceHeapWhenQuiet } from "../../cli/heap_reducer.ts";

const MB = 1024 * 1024;
const LIMITS = { growthBytes: 64 * MB, stillBytes: MB, quietTicks: 3 };

Deno.test("the rule collects a heap that grew past the threshold once it held still for the quiet ticks", () => {
  const rule = new QuietHeapRule(40 * MB, LIMITS);
  // A burst: the heap grows at every tick.
  for (const used of [80, 120, 160, 200]) assert.equal(rule.tick(used * MB), false);
  // Still, but not yet for three ticks.
  assert.equal(rule.tick(200 * MB), false);
  assert.equal(rule.tick(200.5 * MB), false);
  assert.equal(rule.tick(200.5 * MB), true);
  rule.collected(45 * MB);
  // From the collection on, the count starts again: still, but no growth.
  for (let tick = 0; tick < 5; tick++) assert.equal(rule.tick(45 * MB), false);
});

Deno.test("the rule leaves a heap alone that grew less than the threshold, or that is still in use", () => {
  const small = new QuietHeapRule(40 * MB, LIMITS);
  small.tick(90 * MB);
  for (let tick = 0; tick < 10; tick++) assert.equal(small.tick(90 * MB), false);
  // A request allocating at every tick resets the quiet count each time.
  const busy = new QuietHeapRule(40 * MB, LIMITS);
  for (const used of [200, 200, 210, 210, 220, 220, 230]) assert.equal(busy.tick(used * MB), false);
});

Deno.test("a collection by V8 itself lowers the mark that growth is counted from", () => {
  const rule = new QuietHeapRule(100 * MB, LIMITS);
  rule.tick(150 * MB);
  // V8 collected: the heap is back to 30 MB, then a burst leaves 110 MB (80 over the new mark).
  rule.tick(30 * MB);
  rule.tick(110 * MB);
  assert.equal(rule.tick(110 * MB), false);
  assert.equal(rule.tick(110 * MB), false);
  assert.equal(rule.tick(110 * MB), true);
});

Deno.test("the exposed gc() collects an object that nothing references", async () => {
  const gc = await exposedGc();
  const ref = (() => new WeakRef({ payload: new Array(1000).fill("garbage") }))();
  // A WeakRef holds its target until the job that made it has ended.
  await new Promise((resolve) => setTimeout(resolve, 0));
  gc();
  assert.equal(ref.deref(), undefined, "the unreferenced object survived gc()");
  // The flag was cleared again: a context made later has no `gc`.
  const { runInNewContext } = await import("node:vm");
  assert.equal(runInNewContext("typeof gc"), "undefined");
});

Deno.test("the watcher collects once the heap it reads goes quiet, then counts from the new mark", async () => {
  // One reading when it starts, then one per tick: growth, then the heap holds still.
  const readings = [40, 120, 200, 200, 200, 200];
  let reads = 0;
  const collections: number[] = [];
  const laterTicks = Promise.withResolvers<void>();
  const stop = new AbortController();
  reduceHeapWhenQuiet(stop.signal, {
    tickMs: 1,
    limits: LIMITS,
    heapUsed: () => {
      const used = readings[reads] ?? 45;
      if (++reads === readings.length + 10) laterTicks.resolve();
      return used * MB;
    },
    collect: () => {
      collections.push(reads);
      return Promise.resolve();
    },
  });
  // The watcher's timer does not hold the process: this one does, and ends a stuck wait.
  const deadline = setTimeout(
    () => laterTicks.reject(new Error(`the watcher read the heap ${reads} times, not 16, in 10 s`)),
    10_000,
  );
  try {
    await laterTicks.promise;
    // Collected at the third still reading (the sixth), and not again at 45 MB.
    assert.deepEqual(collections, [6]);
  } finally {
    clearTimeout(deadline);
    stop.abort();
  }
});
