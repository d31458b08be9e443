/**
 * Deadlines of tool calls: a call ends at its deadline (the call's `timeoutMs`, the record's
 * `callTimeoutMs`, else 120 s) even while it reports progress, with 504 `timeout` over the API and
 * `isError: true` in chat; a record with `progressExtendsTimeout` lets progress restart it, up to
 * `maxTotalTimeoutMs`.
 */
import assert from "node:assert/strict";
import { configWithServers, type Json, post, startService } from "../_helpers.ts";
import { chat, chatConfig, DEMO_SERVER, ofType, user } from "../_chat.ts";

/** The demo server with extra record fields. */
const demo = (extra: Record<string, unknown> = {}) => ({ ...DEMO_SERVER, ...extra });

/** `slow_count` with a step every 100 ms: progress keeps coming until it ends. */
const slowCount = (steps: number, extra: Record<string, unknown> = {}) => ({
  tool: "slow_count",
  args: { steps, delayMs: 100 },
  ...extra,
});

/** The progress events of the calls so far. */
function progressEvents(events: Json[]): Json[] {
  return events.filter((event) => event.type === "tool.progress");
}

for (const era of ["auto", "legacy"] as const) {
  Deno.test(`POST /api/mcp/:id/call with timeoutMs: a call that reports progress still ends at its deadline with 504 timeout (${era})`, async () => {
    const t = await startService({ config: configWithServers([demo({ protocolEra: era })]) });
    try {
      // Connected first: the deadline is the call's own, not the connect's.
      await t.service.mcp.connect("demo");
      const answer = await post(t, "/api/mcp/demo/call", {
        tool: "slow_count",
        // The first step is due after 100 ms, the deadline after 2 s: progress comes before
        // the deadline even on a loaded machine, and all 50 steps would take 5 s.
        args: { steps: 50, delayMs: 100 },
        timeoutMs: 2000,
      });
      assert.equal(answer.status, 504, JSON.stringify(answer.body));
      assert.equal(answer.body.error.code, "timeout");
      assert.match(answer.body.error.message, /slow_count on demo got no answer within 2 s/);
      // It reported progress and still ended long before its 50 steps (5 s).
      const progress = progressEvents(t.service.events.history());
      assert.ok(progress.length >= 1, "the tool reported progress before its deadline");
      assert.ok(progress.length < 50, `ended at its deadline: ${progress.length} steps reported`);
      // The connection stays usable.
      const next = await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 2, b: 3 } });
      assert.equal(next.status, 200, JSON.stringify(next.body));
    } finally {
      await t.close();
    }
  });
}

Deno.test("the record's callTimeoutMs is the default deadline; a call's timeoutMs wins over it", async () => {
  const t = await startService({ config: configWithServers([demo({ callTimeoutMs: 300 })]) });
  try {
    const late = await post(t, "/api/mcp/demo/call", slowCount(30));
    assert.equal(late.status, 504, JSON.stringify(late.body));
    assert.match(late.body.error.message, /within 0\.3 s/);
    const longer = await post(t, "/api/mcp/demo/call", slowCount(5, { timeoutMs: 5000 }));
    assert.equal(longer.status, 200, JSON.stringify(longer.body));
    assert.equal(longer.body.result.structuredContent.steps, 5);
  } finally {
    await t.close();
  }
});

Deno.test("progressExtendsTimeout: progress restarts the deadline, up to maxTotalTimeoutMs", async () => {
  const t = await startService({
    config: configWithServers([
      demo({ callTimeoutMs: 400, progressExtendsTimeout: true }),
      demo({
        id: "capped",
        name: "Capped",
        callTimeoutMs: 400,
        progressExtendsTimeout: true,
        maxTotalTimeoutMs: 600,
      }),
    ]),
  });
  try {
    // 8 steps of 100 ms (800 ms) outlast the 400 ms deadline, but each step restarts it.
    const extended = await post(t, "/api/mcp/demo/call", slowCount(8));
    assert.equal(extended.status, 200, JSON.stringify(extended.body));
    assert.equal(extended.body.result.structuredContent.steps, 8);
    const capped = await post(t, "/api/mcp/capped/call", slowCount(30));
    assert.equal(capped.status, 504, JSON.stringify(capped.body));
    assert.equal(capped.body.error.code, "timeout");
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/mcp/:id/call refuses a timeoutMs out of range with its path", async () => {
  const t = await startService({ config: configWithServers([demo()]) });
  try {
    const refused = await post(t, "/api/mcp/demo/call", slowCount(1, { timeoutMs: 5 }));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.details[0].path, "timeoutMs");
  } finally {
    await t.close();
  }
});

Deno.test("in chat, a call past its deadline is an isError result and the turn goes on", async () => {
  const t = await startService({
    config: chatConfig({ servers: [demo({ callTimeoutMs: 300 })] }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("slow count 30 steps of 100 ms")] });
    const progress = ofType(chunks, "tool-progress");
    assert.ok(progress.length >= 1, "the tool reported progress before its deadline");
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, true, JSON.stringify(result));
    assert.match(String(result.output), /no answer within 0\.3 s/);
    assert.equal(ofType(chunks, "finish").length, 1, "the turn still finishes");
  } finally {
    await t.close();
  }
});
