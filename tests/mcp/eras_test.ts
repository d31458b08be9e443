/** Both protocol eras per server: `protocolEra`, the negotiated era in the state, not-found answers, error texts. */
import assert from "node:assert/strict";
import { EVERYTHING, everythingStdio } from "../_everything.ts";
import { DEMO_SERVER } from "../_chat.ts";
import { configWithServers, post, startService } from "../_helpers.ts";

const COUNT_STARTS = new URL("../fixtures/count_starts.ts", import.meta.url).pathname;

Deno.test("the demo server is reached in the 2026-07-28 era; GET /api/mcp and mcp.state say so", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const state = (await post(t, "/api/mcp/demo/connect")).body;
    assert.equal(state.status, "connected");
    assert.equal(state.era, "modern");
    assert.equal(state.protocolVersion, "2026-07-28");
    const listed = (await (await t.call("/api/mcp")).json()).servers[0];
    assert.equal(listed.era, "modern");
    const event = t.service.events.history().findLast((e) =>
      e.type === "mcp.state" && e.data.status === "connected"
    );
    assert.equal(event?.data.era, "modern");
    assert.equal(event?.data.protocolVersion, "2026-07-28");
  } finally {
    await t.close();
  }
});

Deno.test("protocolEra legacy speaks 2025 to a dual-era server; modern refuses a 2025-only server in words", async () => {
  const t = await startService({
    config: configWithServers([
      { ...DEMO_SERVER, protocolEra: "legacy" },
      everythingStdio({ protocolEra: "modern", timeoutMs: 20_000 }),
    ]),
  });
  try {
    const demo = (await post(t, "/api/mcp/demo/connect")).body;
    assert.equal(demo.status, "connected");
    assert.equal(demo.era, "legacy");
    assert.match(demo.protocolVersion, /^2025-/);
    const call = await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 2, b: 3 } });
    assert.equal(call.body.result.structuredContent.sum, 5);

    const everything = (await post(t, "/api/mcp/everything/connect")).body;
    assert.equal(everything.status, "error");
    assert.match(
      everything.error,
      /^no answer with protocol 2026-07-28 to server\/discover within 20 s \(protocolEra "modern" pins it; a 2025 server needs "auto" or "legacy"\)/,
    );
  } finally {
    await t.close();
  }
});

Deno.test("auto reaches a 2025-only stdio server as legacy and keeps the verdict: the next connect spawns once", async () => {
  const counter = await Deno.makeTempFile();
  const starts = async () => (await Deno.readTextFile(counter)).split("\n").filter(Boolean).length;
  const t = await startService({
    config: configWithServers([everythingStdio({
      args: ["run", "-A", COUNT_STARTS, counter, `${EVERYTHING}/dist/index.js`, "stdio"],
      timeoutMs: 20_000,
    })]),
  });
  try {
    const first = (await post(t, "/api/mcp/everything/connect")).body;
    assert.equal(first.status, "connected", first.error);
    assert.equal(first.era, "legacy");
    const afterFirst = await starts();
    assert.ok(afterFirst >= 1);
    // With the verdict kept, a forced reconnect runs the 2025 handshake directly: no probe.
    const again = (await post(t, "/api/mcp/everything/connect", { force: true })).body;
    assert.equal(again.status, "connected");
    assert.equal(again.era, "legacy");
    assert.equal(await starts(), afterFirst + 1, "one process for the reconnect, no probe");
  } finally {
    await t.close();
    await Deno.remove(counter);
  }
});

for (const [label, server] of [["modern", DEMO_SERVER], ["legacy", everythingStdio()]] as const) {
  Deno.test(`an unknown prompt or resource is 404 not-found (${label} era)`, async () => {
    const id = server.id;
    const t = await startService({ config: configWithServers([server]) });
    try {
      assert.equal((await post(t, `/api/mcp/${id}/connect`)).body.status, "connected");
      const prompt = await post(t, `/api/mcp/${id}/prompt`, { name: "no-such-prompt", args: {} });
      assert.equal(prompt.status, 404, JSON.stringify(prompt.body));
      assert.equal(prompt.body.error.code, "not-found");
      const resource = await post(t, `/api/mcp/${id}/resource`, { uri: "demo://no/such/thing" });
      assert.equal(resource.status, 404, JSON.stringify(resource.body));
      assert.equal(resource.body.error.code, "not-found");
      assert.doesNotMatch(resource.body.error.message, /MCP error -?\d+: MCP error/);
    } finally {
      await t.close();
    }
  });
}
