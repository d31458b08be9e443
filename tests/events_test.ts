import assert from "node:assert/strict";
import { EventBus } from "../core/events.ts";
import { type EventLine } from "../wire/events.ts";
import { type Json, readJsonResponse, startService } from "./_helpers.ts";

/** Reads NDJSON lines from a response until `count` lines arrived, then cancels the body. */
async function readLines(response: Response, count: number): Promise<Json[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const lines: Json[] = [];
  let buffer = "";
  while (lines.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += value;
    let newline;
    while ((newline = buffer.indexOf("\n")) >= 0 && lines.length < count) {
      lines.push(JSON.parse(buffer.slice(0, newline)));
      buffer = buffer.slice(newline + 1);
    }
  }
  await reader.cancel();
  return lines;
}

Deno.test("the bus keeps the last 1,000 events with increasing seq", () => {
  const bus = new EventBus();
  for (let i = 0; i < 1005; i++) bus.emit("test", { i });
  const history = bus.history();
  assert.equal(history.length, 1000);
  assert.equal(history[0].seq, 6);
  assert.equal(history.at(-1)!.seq, 1005);
  assert.deepEqual(bus.history(1003).map((e) => e.seq), [1004, 1005]);
  bus.clear();
  assert.equal(bus.history().length, 0);
  assert.equal(bus.emit("after").seq, 1006, "seq keeps increasing after a clear");
});

Deno.test("an oversized event keeps only a note of its size", () => {
  assert.deepEqual(new EventBus().emit("big", { text: "x".repeat(20_000) }).data, {
    truncated: true,
    bytes: 20_011,
  }, "the default limit is 16 KiB");
  const bus = new EventBus({ maxDataBytes: 100 });
  const event = bus.emit("big", { text: "x".repeat(500) });
  assert.deepEqual(event.data, { truncated: true, bytes: 511 });
  const wide = bus.emit("wide", { text: "é".repeat(50) });
  assert.deepEqual(wide.data, { truncated: true, bytes: 111 }, "the limit counts UTF-8 bytes");
});

Deno.test("a stream replays history, then delivers live events and heartbeats", async () => {
  const bus = new EventBus();
  bus.emit("one");
  bus.emit("two");
  const reader = bus.stream({ since: 1, heartbeatMs: 30 }).getReader();
  assert.equal(((await reader.read()).value as EventLine).type, "two");
  setTimeout(() => bus.emit("three"), 5);
  assert.equal(((await reader.read()).value as EventLine).type, "three");
  assert.equal(((await reader.read()).value as EventLine).type, "heartbeat");
  await reader.cancel();
  assert.equal(bus.streamCount, 0, "a cancelled stream lets go of the bus");
});

Deno.test("a reader that stops reading is dropped once it falls out of the buffer", async () => {
  const bus = new EventBus({ capacity: 50 });
  const reader = bus.stream({ heartbeatMs: 60_000 }).getReader();
  bus.emit("first");
  assert.equal(((await reader.read()).value as EventLine).type, "first");
  for (let i = 0; i < 49; i++) bus.emit("filler");
  assert.equal(bus.streamCount, 1, "49 behind still fits in the buffer");
  bus.emit("overflow");
  bus.emit("overflow");
  assert.equal(bus.streamCount, 0, "the slow reader is dropped");
  const rest: EventLine[] = [];
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest.push(r.value);
  assert.equal(rest.at(-1)!.type, "dropped", "the stream ends with a line that says why");
  assert.ok(rest.length <= 3, "nothing of the backlog is kept for the reader");
});

Deno.test("a since from before a restart (beyond the newest seq) replays the whole buffer", async () => {
  const bus = new EventBus();
  bus.emit("a");
  bus.emit("b");
  const reader = bus.stream({ since: 500, heartbeatMs: 60_000 }).getReader();
  assert.equal(((await reader.read()).value as EventLine).type, "a");
  assert.equal(((await reader.read()).value as EventLine).type, "b");
  await reader.cancel();
});

Deno.test("a stream still follows new events after the buffer is cleared", async () => {
  const bus = new EventBus();
  bus.emit("a");
  const reader = bus.stream({ since: 1, heartbeatMs: 60_000 }).getReader();
  bus.emit("b");
  bus.clear();
  bus.emit("c");
  assert.equal(((await reader.read()).value as EventLine).type, "c");
  await reader.cancel();
});

Deno.test("GET /api/events streams NDJSON: history, ?since, live events and heartbeats", async () => {
  const t = await startService({ heartbeatMs: 40 });
  try {
    t.service.events.emit("test.one", { n: 1 });
    t.service.events.emit("test.two", { n: 2 });
    const response = await t.call("/api/events");
    assert.equal(response.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
    const all = await readLines(response, 2);
    assert.deepEqual(all.map((e) => [e.type, e.data.n]), [["test.one", 1], ["test.two", 2]]);
    assert.ok(all[0].seq < all[1].seq && typeof all[0].time === "string");

    const since = await t.call(`/api/events?since=${all[0].seq}`);
    setTimeout(() => t.service.events.emit("test.live", { n: 3 }), 5);
    const lines = await readLines(since, 3);
    assert.deepEqual(lines.map((e) => e.type), ["test.two", "test.live", "heartbeat"]);
    assert.equal(t.service.events.streamCount, 0, "cancelled streams are released");

    const bad = await readJsonResponse(await t.call("/api/events?since=-4"));
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details[0].path, "since");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/events/ui records ui.action and ui.rpc, and validates them", async () => {
  const t = await startService();
  try {
    const action = await readJsonResponse(
      await t.call("/api/events/ui", {
        method: "POST",
        json: { type: "ui.action", data: { name: "submit", surfaceId: "s1", context: { a: 1 } } },
      }),
    );
    assert.equal(action.status, 200);
    assert.equal(action.body.ok, true);
    const recorded = t.service.events.history().find((e) => e.seq === action.body.seq)!;
    assert.equal(recorded.type, "ui.action");
    assert.deepEqual(recorded.data, { name: "submit", surfaceId: "s1", context: { a: 1 } });
    const rpc = await readJsonResponse(
      await t.call("/api/events/ui", {
        method: "POST",
        json: { type: "ui.rpc", data: { method: "tools/call", direction: "from-app" } },
      }),
    );
    assert.equal(rpc.status, 200);
    for (
      const body of [
        { type: "chat.start", data: {} },
        { type: "ui.action", data: {} },
        { type: "ui.rpc", data: { method: 3 } },
        { type: "ui.action" },
      ]
    ) {
      const { status, body: error } = await readJsonResponse(
        await t.call("/api/events/ui", { method: "POST", json: body }),
      );
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(error.error.code, "invalid-request");
      assert.ok(error.error.details.length > 0);
    }
  } finally {
    await t.close();
  }
});

Deno.test("DELETE /api/events clears the buffer", async () => {
  const t = await startService();
  try {
    t.service.events.emit("test");
    const { status, body } = await readJsonResponse(
      await t.call("/api/events", { method: "DELETE" }),
    );
    assert.equal(status, 200);
    assert.deepEqual(body, { ok: true });
    assert.equal(t.service.events.history().length, 0);
  } finally {
    await t.close();
  }
});
