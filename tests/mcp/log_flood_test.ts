/** A tool server that floods its log: a few `mcp.log` events a second, its last lines kept. */
import assert from "node:assert/strict";
import { type Json, startService } from "../_helpers.ts";
import { chatConfig } from "../_chat.ts";
import { type LogClock, ServerLog } from "../../core/mcp/manager/log_limit.ts";
import type { LassEvent } from "../../wire/events.ts";

/** A clock whose time moves only when told; timers run as it passes them. */
function fakeClock() {
  let now = 0;
  let next = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: LogClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      timers.set(++next, { at: now + ms, fn });
      return next;
    },
    clearTimeout: (id) => void timers.delete(id as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...timers].sort((a, b) => a[1].at - b[1].at)) {
      if (timer.at > now) continue;
      timers.delete(id);
      timer.fn();
    }
  };
  return { clock, advance, pending: () => timers.size };
}

Deno.test("50 lines a second become events, the rest are counted once when the window ends", () => {
  const { clock, advance, pending } = fakeClock();
  const dropped: number[] = [];
  const log = new ServerLog((count) => dropped.push(count), { clock });
  const line = (i: number) => ({ level: "stderr", message: `line ${i}` });
  let admitted = 0;
  for (let i = 0; i < 120; i++) if (log.admit(line(i))) admitted++;
  assert.equal(admitted, 50);
  assert.deepEqual(dropped, [], "reported when the window ends, not before");
  advance(999);
  assert.deepEqual(dropped, []);
  advance(1);
  assert.deepEqual(dropped, [70]);
  assert.equal(pending(), 0);
  // A quiet window reports nothing; the next lines are events again.
  advance(5000);
  assert.deepEqual(dropped, [70]);
  assert.equal(log.admit(line(120)), true);
  // The last 200 lines are kept, emitted or not.
  for (let i = 121; i < 400; i++) log.admit(line(i));
  const kept = log.lines();
  assert.equal(kept.length, 200);
  assert.equal(kept[0].message, "line 200");
  assert.equal(kept.at(-1)!.message, "line 399");
  // The window's end reports the lines held back in it.
  advance(1000);
  assert.deepEqual(dropped, [70, 230]);
  log.close();
  assert.equal(pending(), 0);
});

Deno.test("a new window's first line reports the last window's drops before it is emitted", () => {
  const { clock, advance } = fakeClock();
  const order: string[] = [];
  const log = new ServerLog((count) => order.push(`dropped ${count}`), { clock, perWindow: 2 });
  for (let i = 0; i < 5; i++) if (log.admit({ level: "info", message: `${i}` })) order.push(`${i}`);
  // The line comes at the window's end, before the timer had its turn.
  (clock as { now: () => number }).now = () => 1000;
  if (log.admit({ level: "info", message: "5" })) order.push("5");
  assert.deepEqual(order, ["0", "1", "dropped 3", "5"]);
  advance(2000);
  assert.deepEqual(order, ["0", "1", "dropped 3", "5"]);
  log.close();
});

Deno.test("a server flooding stderr gives at most 50 mcp.log events per window; health answers meanwhile", async () => {
  const flood = {
    id: "flood",
    name: "Flood",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", new URL("../fixtures/stderr_flood_server.ts", import.meta.url).pathname],
  };
  const t = await startService({ config: chatConfig({ servers: [flood] }) });
  const logs: LassEvent[] = [];
  let windows = 0;
  let enough: () => void;
  const threeWindows = new Promise<void>((resolve) => enough = resolve);
  const stop = t.service.events.subscribe((event) => {
    if (event.type !== "mcp.log" || event.data.serverId !== "flood") return;
    logs.push(event);
    if (event.data.dropped !== undefined && ++windows === 3) enough();
  });
  try {
    await t.service.mcp.connect("flood");
    // Health is answered while the server floods.
    for (let i = 0; i < 5; i++) {
      const health = await t.call("/api/health");
      assert.equal(health.status, 200);
      await health.body?.cancel();
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      threeWindows,
      new Promise((_, reject) =>
        timer = setTimeout(() =>
          reject(
            new Error(`three dropped-lines events did not come within 30 s (saw ${windows})`),
          ), 30_000)
      ),
    ]).finally(() => clearTimeout(timer));
    // Each window: at most 50 line events, then one event with the count held back.
    let inWindow = 0;
    for (const event of logs) {
      if (event.data.dropped !== undefined) {
        assert.ok(Number(event.data.dropped) > 0);
        assert.match(String(event.data.message), /^\d+ log lines were dropped/);
        inWindow = 0;
      } else {
        assert.ok(++inWindow <= 50, `${inWindow} mcp.log events in one window`);
      }
    }
    const dropped = logs.reduce((sum, e) => sum + Number(e.data.dropped ?? 0), 0);
    assert.ok(dropped > logs.length, `${dropped} lines dropped, ${logs.length} events`);
    const health = await t.call("/api/health");
    assert.equal(health.status, 200);
    await health.body?.cancel();
    // The last 200 lines are kept for the API.
    const response = await t.call("/api/mcp/flood/log");
    assert.equal(response.status, 200);
    const { lines } = await response.json() as { lines: Json[] };
    assert.equal(lines.length, 200);
    assert.match(lines.at(-1).message, /^flood line \d+ x+$/);
    assert.equal(lines.at(-1).level, "stderr");
    const unknown = await t.call("/api/mcp/nope/log");
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  } finally {
    stop();
    await t.close();
  }
});
