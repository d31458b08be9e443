/**
 * The protocol controls of a tool server over the API, against real peers in both eras:
 * completion, log level, resource subscriptions, ping and list refresh.
 */
import assert from "node:assert/strict";
import type { LassEvent } from "../../wire/events.ts";
import { DEMO_SERVER } from "../_chat.ts";
import { everythingStdio } from "../_everything.ts";
import {
  configWithServers,
  eventSeen,
  type Json,
  post,
  startService,
  type TestService,
  waitForEvent,
} from "../_helpers.ts";
import { startHttp, V2_SERVER, v2StdioRecord } from "../_v2_fixtures.ts";

const ENV_SERVER = new URL("../fixtures/env_server.ts", import.meta.url).pathname;

/** Connects a server and checks the era it speaks. */
async function connect(t: TestService, id: string, era?: "modern" | "legacy"): Promise<Json> {
  const state = (await post(t, `/api/mcp/${id}/connect`)).body;
  assert.equal(state.status, "connected", state.error);
  if (era) assert.equal(state.era, era);
  return state;
}

const logged = (serverId: string, message: string) => (event: LassEvent) =>
  event.type === "mcp.log" && event.data.serverId === serverId && event.data.message === message;

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`POST /api/mcp/:id/complete suggests the demo's prompt arguments and note ids (${era})`, async () => {
    const t = await startService({
      config: configWithServers([{ ...DEMO_SERVER, protocolEra: era }]),
    });
    try {
      await connect(t, "demo", era);
      const language = await post(t, "/api/mcp/demo/complete", {
        ref: { type: "ref/prompt", name: "code_review" },
        argument: { name: "language", value: "ty" },
      });
      assert.equal(language.status, 200, JSON.stringify(language.body));
      assert.deepEqual(language.body.values, ["TypeScript"]);
      const destination = await post(t, "/api/mcp/demo/complete", {
        ref: { type: "ref/prompt", name: "plan_trip" },
        argument: { name: "destination", value: "O" },
      });
      assert.deepEqual(destination.body.values, ["Oslo", "Oaxaca"]);
      const note = await post(t, "/api/mcp/demo/complete", {
        ref: { type: "ref/resource", uri: "demo://notes/{id}" },
        argument: { name: "id", value: "g" },
      });
      assert.deepEqual(note.body.values, ["groceries"]);
      const unknown = await post(t, "/api/mcp/demo/complete", {
        ref: { type: "ref/prompt", name: "no_such_prompt" },
        argument: { name: "x", value: "" },
      });
      assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
      assert.match(unknown.body.error.message, /has no prompt no_such_prompt/);
    } finally {
      await t.close();
    }
  });
}

Deno.test("POST /api/mcp/:id/complete passes the context: server-everything narrows names by department", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    await connect(t, "everything", "legacy");
    const ref = { type: "ref/prompt", name: "completable-prompt" };
    const departments = await post(t, "/api/mcp/everything/complete", {
      ref,
      argument: { name: "department", value: "S" },
    });
    assert.equal(departments.status, 200, JSON.stringify(departments.body));
    assert.deepEqual(departments.body.values, ["Sales", "Support"]);
    const names = await post(t, "/api/mcp/everything/complete", {
      ref,
      argument: { name: "name", value: "" },
      context: { arguments: { department: "Sales" } },
    });
    assert.deepEqual(names.body.values, ["David", "Eve", "Frank"]);
  } finally {
    await t.close();
  }
});

Deno.test("a server without completions, logging or subscriptions: no values, and 409 for log level and subscribe", async () => {
  const t = await startService({
    config: configWithServers([{
      id: "plain",
      name: "Plain",
      transport: "stdio",
      command: Deno.execPath(),
      args: ["run", "-A", ENV_SERVER],
      timeoutMs: 20_000,
    }]),
  });
  try {
    await connect(t, "plain");
    const completion = await post(t, "/api/mcp/plain/complete", {
      ref: { type: "ref/prompt", name: "anything" },
      argument: { name: "x", value: "" },
    });
    assert.equal(completion.status, 200);
    assert.deepEqual(completion.body, { values: [] });
    const level = await post(t, "/api/mcp/plain/log-level", { level: "error" });
    assert.equal(level.status, 409);
    assert.equal(level.body.error.code, "conflict");
    assert.match(level.body.error.message, /does not announce logging/);
    const subscribed = await post(t, "/api/mcp/plain/subscribe", { uri: "file:///x" });
    assert.equal(subscribed.status, 409);
    assert.equal(subscribed.body.error.code, "conflict");
    assert.match(subscribed.body.error.message, /resource subscriptions/);
    const badLevel = await post(t, "/api/mcp/plain/log-level", { level: "verbose" });
    assert.equal(badLevel.status, 400);
    assert.equal(badLevel.body.error.details[0].path, "level");
  } finally {
    await t.close();
  }
});

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`POST /api/mcp/:id/log-level changes what the v2 server sends, also after a reconnect (${era})`, async () => {
    const t = await startService({ config: configWithServers([v2StdioRecord(era)]) });
    const log = (level: string, message: string) =>
      post(t, "/api/mcp/v2/call", { tool: "log", args: { level, message } });
    try {
      await connect(t, "v2", era);
      const set = await post(t, "/api/mcp/v2/log-level", { level: "error" });
      assert.equal(set.status, 200, JSON.stringify(set.body));
      assert.deepEqual(set.body, { ok: true, level: "error" });
      assert.ok(
        t.service.events.history().some((e) =>
          e.type === "mcp.log-level" && e.data.serverId === "v2" && e.data.level === "error"
        ),
      );
      // The server sends a call's log message before its result: once the later error line is
      // in, an info line of the earlier call would be in too.
      for (const round of [1, 2]) {
        await log("info", `quiet ${round}`);
        await log("error", `loud ${round}`);
        await eventSeen(t, logged("v2", `loud ${round}`), `the error line of round ${round}`);
        assert.ok(
          !t.service.events.history().some(logged("v2", `quiet ${round}`)),
          `round ${round}: an info line arrived at level error`,
        );
        if (round === 1) {
          const again = (await post(t, "/api/mcp/v2/connect", { force: true })).body;
          assert.equal(again.status, "connected", again.error);
        }
      }
      await post(t, "/api/mcp/v2/log-level", { level: "debug" });
      await log("info", "heard");
      await eventSeen(t, logged("v2", "heard"), "the info line at level debug");
    } finally {
      await t.close();
    }
  });

  Deno.test(`POST /api/mcp/:id/subscribe delivers mcp.resource-updated; unsubscribe ends it (${era})`, async () => {
    const t = await startService({ config: configWithServers([v2StdioRecord(era)]) });
    const touch = (uri: string) => post(t, "/api/mcp/v2/call", { tool: "touch", args: { uri } });
    const updated = (uri: string) => (event: LassEvent) =>
      event.type === "mcp.resource-updated" && event.data.serverId === "v2" &&
      event.data.uri === uri;
    try {
      await connect(t, "v2", era);
      const readme = "fixture://readme";
      const subscribed = await post(t, "/api/mcp/v2/subscribe", { uri: readme });
      assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
      assert.deepEqual(subscribed.body, { ok: true });
      const update = waitForEvent(t, updated(readme), { what: `an update of ${readme}` });
      await touch(readme);
      assert.deepEqual((await update).data, { serverId: "v2", uri: readme });

      const unsubscribed = await post(t, "/api/mcp/v2/unsubscribe", { uri: readme });
      assert.deepEqual(unsubscribed.body, { ok: true });
      const count = () => t.service.events.history().filter(updated(readme)).length;
      // Updates arrive in order: once the followed item's update is in, one of the readme would be.
      const item = "fixture://items/alpha";
      await post(t, "/api/mcp/v2/subscribe", { uri: item });
      await touch(readme);
      const itemUpdate = waitForEvent(t, updated(item), { what: `an update of ${item}` });
      await touch(item);
      const first = await itemUpdate;
      assert.equal(count(), 1, "no update of the readme after unsubscribe");
      // A new connection follows what the old one followed.
      const again = (await post(t, "/api/mcp/v2/connect", { force: true })).body;
      assert.equal(again.status, "connected", again.error);
      const afterReconnect = waitForEvent(t, (e) => updated(item)(e) && e.seq > first.seq, {
        what: `an update of ${item} after the reconnect`,
      });
      await touch(item);
      await afterReconnect;
      const events = t.service.events.history().filter((e) => e.type === "mcp.subscription");
      assert.deepEqual(events.map((e) => [e.data.uri, e.data.subscribed]), [
        [readme, true],
        [readme, false],
        [item, true],
      ]);
    } finally {
      await t.close();
    }
  });
}

Deno.test("server-everything (2025): subscribe, and its simulated updates arrive as mcp.resource-updated", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    await connect(t, "everything", "legacy");
    const uri = "demo://resource/dynamic/text/1";
    const subscribed = await post(t, "/api/mcp/everything/subscribe", { uri });
    assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
    const update = waitForEvent(
      t,
      (e) => e.type === "mcp.resource-updated" && e.data.serverId === "everything",
      { what: "mcp.resource-updated from server-everything" },
    );
    const toggled = await post(t, "/api/mcp/everything/call", {
      tool: "toggle-subscriber-updates",
      args: {},
    });
    assert.equal(toggled.status, 200, JSON.stringify(toggled.body));
    assert.equal((await update).data.uri, uri);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/mcp/:id/ping: MCP ping on 2025, HEAD over 2026 HTTP, server/discover on 2026 stdio and in process; the answer says which", async () => {
  const peer = await startHttp(V2_SERVER, ["--era", "modern", "--transport", "http"]);
  const t = await startService({
    config: configWithServers([
      { ...v2StdioRecord("legacy"), id: "old" },
      { ...v2StdioRecord("modern"), id: "new" },
      { id: "web", name: "Web", transport: "http", url: peer.url.href, oauth: false },
      DEMO_SERVER,
    ]),
  });
  try {
    await connect(t, "old", "legacy");
    await connect(t, "web", "modern");
    await connect(t, "new", "modern");
    await connect(t, "demo", "modern");
    const ways = { old: "ping", web: "http-head", new: "server/discover", demo: "server/discover" };
    for (const [id, via] of Object.entries(ways)) {
      const before = t.service.mcp.trace(id, { limit: 2000 }).length;
      const pinged = await post(t, `/api/mcp/${id}/ping`);
      assert.equal(pinged.status, 200, JSON.stringify(pinged.body));
      assert.equal(pinged.body.ok, true);
      assert.equal(pinged.body.via, via, `${id}: the way it was asked`);
      assert.ok(Number.isInteger(pinged.body.ms) && pinged.body.ms >= 0, `${id}: ms`);
      if (via === "server/discover") {
        const sent = t.service.mcp.trace(id, { limit: 2000 }).slice(before)
          .map((m) => (m.message as { method?: string }).method);
        assert.ok(sent.includes("server/discover"), `${id}: a server/discover round trip`);
      }
    }
    const unknown = await post(t, "/api/mcp/nope/ping");
    assert.equal(unknown.status, 404);
  } finally {
    await t.close();
    await peer.stop();
  }
});

Deno.test("POST /api/mcp/:id/refresh reads the lists again without a reconnect", async () => {
  const t = await startService({ config: configWithServers([v2StdioRecord("modern")]) });
  try {
    const first = await connect(t, "v2", "modern");
    const has = (state: Json) => state.tools.some((tool: Json) => tool.name === "extra");
    const before = has(first);
    await post(t, "/api/mcp/v2/call", { tool: "toggle_tool", args: {} });
    const refreshed = await post(t, "/api/mcp/v2/refresh");
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal(has(refreshed.body), !before, "the tool list changed");
    assert.equal(refreshed.body.connectedAt, first.connectedAt, "the same connection");
    assert.deepEqual(
      refreshed.body.prompts.map((p: Json) => p.name).sort(),
      ["greet", "status"],
    );
    assert.ok(refreshed.body.resources.some((r: Json) => r.uri === "fixture://readme"));
    assert.ok(
      refreshed.body.resourceTemplates.some((r: Json) => r.uriTemplate === "fixture://items/{id}"),
    );
    const connects = t.service.events.history().filter((e) =>
      e.type === "mcp.state" && e.data.id === "v2" && e.data.status === "connecting"
    );
    assert.equal(connects.length, 1, "connected once");
  } finally {
    await t.close();
  }
});
