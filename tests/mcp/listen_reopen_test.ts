/**
 * 2026-07-28 listen streams that the server (or a proxy in front of it) ends are opened again:
 * list changes and resource updates keep arriving, and what may have been missed is read again.
 */
import assert from "node:assert/strict";
import type { LassEvent } from "../../wire/events.ts";
import {
  configWithServers,
  eventSeen,
  type Json,
  post,
  startService,
  waitForEvent,
  waitUntil,
} from "../_helpers.ts";
import { startHttp, V2_SERVER } from "../_v2_fixtures.ts";

const README = "fixture://readme";
const LIST_REOPENED = "the subscription stream ended and was opened again";
const README_REOPENED = `the updates stream of ${README} ended and was opened again`;

const lassLog = (message: string) => (event: LassEvent) =>
  event.type === "mcp.log" && event.data.serverId === "v2" &&
  event.data.message === message;

Deno.test("a dropped 2026 listen stream is opened again: list changes and resource updates keep arriving", async () => {
  await using peer = await startHttp(V2_SERVER, ["--era", "modern", "--transport", "http"]);
  const t = await startService({
    config: configWithServers([{
      id: "v2",
      name: "V2 fixture",
      transport: "http",
      url: peer.url.href,
      oauth: false,
      timeoutMs: 20_000,
    }]),
  });
  try {
    const state = (await post(t, "/api/mcp/v2/connect")).body;
    assert.equal(state.status, "connected", state.error);
    assert.equal(state.era, "modern");
    const subscribed = await post(t, "/api/mcp/v2/subscribe", { uri: README });
    assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));

    const listReopened = waitForEvent(t, lassLog(LIST_REOPENED), {
      what: `mcp.log "${LIST_REOPENED}"`,
    });
    const readmeReopened = waitForEvent(t, lassLog(README_REOPENED), {
      what: `mcp.log "${README_REOPENED}"`,
    });
    const dropped = await post(t, "/api/mcp/v2/call", { tool: "drop_listens", args: {} });
    assert.equal(dropped.status, 200, JSON.stringify(dropped.body));
    assert.equal(dropped.body.result.content[0].text, "dropped 2", "both streams were open");
    const reopened = await readmeReopened;
    await listReopened;
    // An update may have been missed while the stream was down: one is reported after the reopen.
    const missed = await eventSeen(
      t,
      (e) => e.type === "mcp.resource-updated" && e.data.uri === README && e.seq > reopened.seq,
      `mcp.resource-updated of ${README} after the reopen`,
    );
    assert.deepEqual(missed.data, { serverId: "v2", uri: README });
    assert.equal(t.service.mcp.state("v2").status, "connected", "no reconnect was needed");

    // The reopened streams carry what the server sends next.
    const updated = waitForEvent(
      t,
      (e) => e.type === "mcp.resource-updated" && e.data.uri === README && e.seq > missed.seq,
      { what: `mcp.resource-updated of ${README} sent after the reopen` },
    );
    await post(t, "/api/mcp/v2/call", { tool: "touch", args: { uri: README } });
    await updated;
    const changed = waitForEvent(
      t,
      (e) =>
        e.type === "mcp.notification" && e.data.serverId === "v2" &&
        e.data.method === "notifications/tools/list_changed",
      { what: "a tools list_changed notification on the reopened stream" },
    );
    const hasExtra = () =>
      t.service.mcp.state("v2").tools.some((tool: Json) => tool.name === "extra");
    const before = hasExtra();
    await post(t, "/api/mcp/v2/call", { tool: "toggle_tool", args: {} });
    await changed;
    await waitUntil(() => hasExtra() !== before, "the tool list read again after list_changed");
  } finally {
    await t.close();
  }
});
