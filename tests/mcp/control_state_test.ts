/**
 * A tool server's state carries the log level and the resource subscriptions set over the API
 * (`logLevel`, `subscriptions`): in `GET /api/mcp`, the bootstrap and the routes that answer a
 * state, across a reconnect and a disconnect, in both eras.
 */
import assert from "node:assert/strict";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  startService,
  type TestService,
} from "../_helpers.ts";
import { v2StdioRecord } from "../_v2_fixtures.ts";

const README = "fixture://readme";
const ALPHA = "fixture://items/alpha";

/** The server's state in `GET /api/mcp`. */
async function listed(t: TestService): Promise<Json> {
  const { status, body } = await readJsonResponse(await t.call("/api/mcp"));
  assert.equal(status, 200, JSON.stringify(body));
  return body.servers.find((state: Json) => state.id === "v2");
}

/** The server's state in `GET /api/bootstrap`. */
async function bootstrapped(t: TestService): Promise<Json> {
  const { status, body } = await readJsonResponse(await t.call("/api/bootstrap"));
  assert.equal(status, 200, JSON.stringify(body));
  return body.mcp.find((state: Json) => state.id === "v2");
}

/** Posts and checks for a 200. */
async function ok(t: TestService, path: string, json?: unknown): Promise<Json> {
  const { status, body } = await post(t, path, json);
  assert.equal(status, 200, `${path}: ${JSON.stringify(body)}`);
  return body;
}

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`the state lists the log level and subscriptions set over the API (${era})`, async () => {
    const t = await startService({ config: configWithServers([v2StdioRecord(era)]) });
    try {
      const before = await listed(t);
      assert.deepEqual(before.subscriptions, []);
      assert.equal("logLevel" in before, false, "no log level before one is set");

      const connected = await ok(t, "/api/mcp/v2/connect");
      assert.equal(connected.status, "connected", connected.error);
      assert.equal(connected.era, era);
      await ok(t, "/api/mcp/v2/log-level", { level: "warning" });
      await ok(t, "/api/mcp/v2/subscribe", { uri: README });
      await ok(t, "/api/mcp/v2/subscribe", { uri: ALPHA });
      // Subscribing twice keeps one entry, in the first subscription's place.
      await ok(t, "/api/mcp/v2/subscribe", { uri: README });

      for (
        const [where, state] of [["GET /api/mcp", await listed(t)], [
          "GET /api/bootstrap",
          await bootstrapped(t),
        ]]
      ) {
        assert.equal(state.logLevel, "warning", where);
        assert.deepEqual(state.subscriptions, [README, ALPHA], where);
      }

      const reconnected = await ok(t, "/api/mcp/v2/connect", { force: true });
      assert.equal(reconnected.status, "connected", reconnected.error);
      assert.equal(reconnected.logLevel, "warning", "the state after a reconnect");
      assert.deepEqual(reconnected.subscriptions, [README, ALPHA], "the state after a reconnect");
      const refreshed = await ok(t, "/api/mcp/v2/refresh");
      assert.equal(refreshed.logLevel, "warning", "the state of POST /refresh");
      assert.deepEqual(refreshed.subscriptions, [README, ALPHA], "the state of POST /refresh");

      await ok(t, "/api/mcp/v2/unsubscribe", { uri: README });
      assert.deepEqual((await listed(t)).subscriptions, [ALPHA]);
      assert.deepEqual((await bootstrapped(t)).subscriptions, [ALPHA]);

      await ok(t, "/api/mcp/v2/log-level", { level: "debug" });
      assert.equal((await listed(t)).logLevel, "debug");

      // Lass keeps both for the next connection, and a disconnected server can be unsubscribed.
      const disconnected = await ok(t, "/api/mcp/v2/disconnect");
      assert.equal(disconnected.status, "disconnected");
      assert.equal(disconnected.logLevel, "debug");
      assert.deepEqual(disconnected.subscriptions, [ALPHA]);
      await ok(t, "/api/mcp/v2/unsubscribe", { uri: ALPHA });
      const last = await listed(t);
      assert.deepEqual(last.subscriptions, []);
      assert.equal(last.logLevel, "debug");
    } finally {
      await t.close();
    }
  });
}

Deno.test("the state is the same object while nothing changes, and a new one after a subscription", async () => {
  const t = await startService({ config: configWithServers([v2StdioRecord("legacy")]) });
  try {
    await ok(t, "/api/mcp/v2/connect");
    const first = t.service.mcp.state("v2");
    assert.equal(t.service.mcp.state("v2"), first, "an unchanged state is reported as it was");
    await ok(t, "/api/mcp/v2/subscribe", { uri: README });
    const second = t.service.mcp.state("v2");
    assert.notEqual(second, first);
    assert.deepEqual(first.subscriptions, [], "a state handed out earlier does not change");
    assert.deepEqual(second.subscriptions, [README]);
    await ok(t, "/api/mcp/v2/log-level", { level: "error" });
    assert.equal(t.service.mcp.state("v2").logLevel, "error");
    assert.equal(t.service.mcp.states()[0], t.service.mcp.state("v2"));
  } finally {
    await t.close();
  }
});
