/** `mergeStreams`: several async generators read at once (compare's turns, a step's tool runs). */
import assert from "node:assert/strict";
import { mergeStreams } from "../../core/chat/merge_streams.ts";

Deno.test("mergeStreams: a pull in flight that fails after an early end is dropped, not left unhandled", async () => {
  let fail = () => {};
  const failing = new Promise<void>((_, reject) => fail = () => reject(new Error("late failure")));
  // The source is pulled again as soon as it yields: that pull is in flight when the reader
  // stops, and fails afterwards.
  async function* source(): AsyncGenerator<number> {
    yield 1;
    await failing;
    yield 2;
  }
  let stopped = () => {};
  const readerStopped = new Promise<void>((resolve) => stopped = resolve);
  const ending = (async () => {
    for await (const [, value] of mergeStreams([source()])) {
      assert.equal(value, 1);
      stopped();
      break;
    }
  })();
  await readerStopped;
  fail();
  await ending;
  // An unhandled rejection would fail this test once the event loop turns.
  await new Promise((resolve) => setTimeout(resolve, 0));
});

Deno.test("mergeStreams: values come as each source yields them, and every source ends", async () => {
  async function* count(from: number, to: number): AsyncGenerator<number> {
    for (let n = from; n <= to; n++) yield n;
  }
  const seen: [number, number][] = [];
  for await (const entry of mergeStreams([count(1, 3), count(10, 11)])) seen.push(entry);
  assert.deepEqual(seen.filter(([i]) => i === 0).map(([, v]) => v), [1, 2, 3]);
  assert.deepEqual(seen.filter(([i]) => i === 1).map(([, v]) => v), [10, 11]);
});
