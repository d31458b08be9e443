/** The parts of recordings on their own: a cassette from trace messages, and one replay session. */
import assert from "node:assert/strict";
import type { TraceMessage } from "../../../wire/trace.ts";
import type { Cassette } from "../../../wire/cassette.ts";
import { cassetteFromTrace } from "../../../core/mcp/recordings/from_trace.ts";
import { ReplaySession } from "../../../core/mcp/recordings/replay.ts";
import type { RpcMessage } from "../../../core/mcp/recordings/types.ts";
import { differences, isIgnored } from "../../../core/mcp/recordings/diff.ts";
import { withCassettes } from "../../../core/mcp/recordings/replay_config.ts";

/** Trace messages from `[dir, message]` pairs, 10 ms apart. */
function trace(...items: ["out" | "in" | "view-in", Record<string, unknown>][]): TraceMessage[] {
  return items.map(([dir, message], index) => ({
    seq: index + 1,
    time: new Date(Date.UTC(2026, 10, 28, 10, 0, 0, index * 10)).toISOString(),
    serverId: "s",
    dir,
    message: { jsonrpc: "2.0", ...message },
    bytes: 1,
  }));
}

Deno.test("cassetteFromTrace pairs answers by id, gives each server message to its request, and keeps the handshake", () => {
  const cassette = cassetteFromTrace(
    trace(
      ["out", { id: 0, method: "initialize", params: { protocolVersion: "2025-11-25" } }],
      ["in", {
        id: 0,
        result: {
          protocolVersion: "2025-11-25",
          capabilities: { tools: {} },
          serverInfo: { name: "s", version: "1" },
        },
      }],
      ["out", { method: "notifications/initialized" }],
      ["out", {
        id: 1,
        method: "tools/call",
        params: { name: "slow", arguments: {}, _meta: { progressToken: "p1" } },
      }],
      ["out", { id: 2, method: "tools/call", params: { name: "ask", arguments: {} } }],
      ["in", { method: "notifications/progress", params: { progressToken: "p1", progress: 1 } }],
      ["in", { id: 7, method: "sampling/createMessage", params: { maxTokens: 5, messages: [] } }],
      ["out", { id: 7, result: { role: "assistant", content: { type: "text", text: "hi" } } }],
      ["view-in", { method: "ui/notifications/initialized" }],
      ["in", { id: 2, result: { content: [{ type: "text", text: "asked" }] } }],
      ["in", { id: 1, error: { code: -32603, message: "boom" } }],
      ["in", { method: "notifications/tools/list_changed" }],
    ),
    { id: "s", era: "legacy", tools: [{ name: "slow", disabled: false, modelName: "s__slow" }] },
  );
  assert.equal(cassette.server.era, "legacy");
  assert.deepEqual(cassette.server.serverInfo, { name: "s", version: "1" });
  assert.equal(cassette.server.protocolVersion, "2025-11-25");
  assert.deepEqual(cassette.lists.tools, [{ name: "slow" }], "Lass's own fields are left out");
  const [slow, ask] = cassette.exchanges;
  assert.equal(cassette.exchanges.length, 2, "the handshake is not an exchange");
  assert.deepEqual(slow.error, { code: -32603, message: "boom" });
  assert.equal(slow.ms, 70);
  assert.deepEqual(slow.events?.map((e) => [e.message.method, e.at, e.after]), [
    ["notifications/progress", 20, undefined],
    ["notifications/tools/list_changed", 10, true],
  ]);
  assert.deepEqual(ask.result, { content: [{ type: "text", text: "asked" }] });
  assert.equal(ask.events?.length, 1);
  assert.equal(ask.events?.[0].message.method, "sampling/createMessage");
  assert.deepEqual(ask.events?.[0].reply, {
    jsonrpc: "2.0",
    result: { role: "assistant", content: { type: "text", text: "hi" } },
  });
});

Deno.test("cassetteFromTrace removes known secrets, credential fields and bearer credentials, and keeps progress tokens", () => {
  const cassette = cassetteFromTrace(
    trace(
      ["out", {
        id: 1,
        method: "tools/call",
        params: {
          name: "fetch",
          arguments: { headers: { Authorization: "Basic dXNlcjpwYXNz" }, apiKey: "k-123456" },
          _meta: { progressToken: 5 },
        },
      }],
      ["in", {
        id: 1,
        result: {
          content: [{ type: "text", text: "sent Bearer abcdefghij0123 with hunter2-secret" }],
        },
      }],
    ),
    { id: "s", instructions: "use hunter2-secret" },
    { secrets: ["hunter2-secret", "abc"] },
  );
  const text = JSON.stringify(cassette);
  for (const secret of ["hunter2-secret", "dXNlcjpwYXNz", "k-123456", "abcdefghij0123"]) {
    assert.ok(!text.includes(secret), secret);
  }
  const params = cassette.exchanges[0].request.params as Record<string, Record<string, unknown>>;
  assert.deepEqual(params.arguments, {
    headers: { Authorization: "<redacted>" },
    apiKey: "<redacted>",
  });
  assert.deepEqual(params._meta, { progressToken: 5 });
  assert.match(text, /sent Bearer <redacted> with <redacted>/);
  assert.equal(cassette.server.instructions, "use <redacted>");
});

/** A cassette with one slow call that reports progress, asks the client for roots, and a notice after. */
const CASSETTE: Cassette = {
  lassCassette: 1,
  recordedAt: "2026-11-28T10:00:00.000Z",
  server: { id: "s", era: "legacy", capabilities: { tools: {} } },
  lists: { tools: [{ name: "slow" }], prompts: [], resources: [], resourceTemplates: [] },
  exchanges: [{
    request: { method: "tools/call", params: { name: "slow", arguments: { n: 1 } } },
    result: { content: [{ type: "text", text: "done" }] },
    ms: 80,
    events: [
      {
        at: 10,
        message: {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 3, progress: 1 },
        },
      },
      { at: 20, message: { jsonrpc: "2.0", id: 9, method: "roots/list" } },
      {
        at: 5,
        message: { jsonrpc: "2.0", method: "notifications/tools/list_changed" },
        after: true,
      },
    ],
  }],
};

/** A replay session and what it sent, with a way to wait for the n-th message. */
function session(speed: number) {
  const sent: RpcMessage[] = [];
  const waiters: (() => void)[] = [];
  const replay = new ReplaySession(CASSETTE, { match: "exact", speed }, (message) => {
    sent.push(message);
    waiters.splice(0).forEach((wake) => wake());
  });
  const sentCount = async (count: number) => {
    while (sent.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return sent;
  };
  return { replay, sent, sentCount };
}

Deno.test("ReplaySession replays a call's progress (with the live token), its server request and the answer in order", async () => {
  const { replay, sentCount } = session(0);
  replay.receive({
    jsonrpc: "2.0",
    id: "live-1",
    method: "tools/call",
    params: { name: "slow", arguments: { n: 1 }, _meta: { progressToken: "tok" } },
  });
  const first = await sentCount(2);
  assert.deepEqual(first[0].params, { progressToken: "tok", progress: 1 });
  assert.equal(first[1].method, "roots/list");
  assert.equal(first[1].id, "lass-replay-1");
  // The answer waits for the client's answer to the server request.
  replay.receive({ jsonrpc: "2.0", id: "lass-replay-1", result: { roots: [] } });
  const all = await sentCount(4);
  assert.deepEqual(all[2], {
    jsonrpc: "2.0",
    id: "live-1",
    result: { content: [{ type: "text", text: "done" }] },
  });
  assert.equal(all[3].method, "notifications/tools/list_changed");
  replay.close();
});

Deno.test("ReplaySession: no progress without a token, the recorded latency at speed 1, and errors for the unknown", async () => {
  const { replay, sent, sentCount } = session(1);
  const started = performance.now();
  replay.receive({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "slow", arguments: { n: 1 } },
  });
  await sentCount(1);
  assert.equal(
    sent[0].method,
    "roots/list",
    "no progress notification for a request without a token",
  );
  replay.receive({ jsonrpc: "2.0", id: sent[0].id, result: { roots: [] } });
  await sentCount(2);
  assert.equal(sent[1].id, 1);
  assert.ok(performance.now() - started >= 75, "the answer comes after the recorded 80 ms");

  replay.receive({ jsonrpc: "2.0", id: 2, method: "server/discover" });
  replay.receive({
    jsonrpc: "2.0",
    id: 3,
    method: "tools/call",
    params: { name: "slow", arguments: { n: 2 } },
  });
  replay.receive({ jsonrpc: "2.0", id: 4, method: "tools/list", params: {} });
  const all = await sentCount(6);
  const byId = new Map(all.map((message) => [message.id, message]));
  assert.equal(byId.get(2)?.error?.code, -32601, "a legacy recording knows no server/discover");
  assert.deepEqual(byId.get(3)?.error?.data, {
    replay: "unmatched",
    request: { method: "tools/call", params: { name: "slow", arguments: { n: 2 } } },
    closest: { method: "tools/call", params: { name: "slow", arguments: { n: 1 } } },
  });
  assert.deepEqual(byId.get(4)?.result, { tools: [{ name: "slow" }] });
  replay.close();
});

Deno.test("verify's diff: JSON pointers, ignored ones with * and their children left out", () => {
  const recorded = { result: { content: [{ type: "text", text: "a" }], _meta: { at: 1 } } };
  const live = {
    result: {
      content: [{ type: "text", text: "b" }, { type: "text", text: "c" }],
      _meta: { at: 2 },
    },
  };
  assert.deepEqual(differences(recorded, live), [
    { path: "/result/content/0/text", recorded: "a", live: "b" },
    { path: "/result/content/1", live: { type: "text", text: "c" } },
    { path: "/result/_meta/at", recorded: 1, live: 2 },
  ]);
  assert.deepEqual(differences(recorded, live, ["/result/content/*", "/result/_meta"]), []);
  assert.ok(isIgnored("/result/content/0/text", ["/result/content/*/text"]));
  assert.ok(!isIgnored("/result/content/0/type", ["/result/content/*/text"]));
});

Deno.test("eval --replay's config: servers with a cassette become replays and keep how Lass treats them", () => {
  const stored = {
    mcpServers: [
      {
        id: "a",
        name: "A",
        transport: "stdio",
        command: "x",
        env: { K: "v" },
        disabledTools: ["t"],
      },
      { id: "b", name: "B", transport: "http", url: "http://x" },
    ],
  };
  const { stored: replayed, replaced } = withCassettes(
    stored,
    "/rec",
    (path) => path === "/rec/a.cassette.json",
  );
  assert.deepEqual(replaced, ["a"]);
  assert.deepEqual((replayed.mcpServers as unknown[])[0], {
    id: "a",
    name: "A",
    disabledTools: ["t"],
    transport: "replay",
    cassette: "/rec/a.cassette.json",
    speed: 0,
  });
  assert.deepEqual((replayed.mcpServers as unknown[])[1], stored.mcpServers[1]);
});

Deno.test("ReplaySession: a listen stream with another filter gets the recorded stream's messages and stays open", async () => {
  const withListen: Cassette = {
    ...CASSETTE,
    server: { ...CASSETTE.server, era: "modern" },
    exchanges: [{
      request: {
        method: "subscriptions/listen",
        params: { notifications: { toolsListChanged: true } },
      },
      events: [{
        at: 0,
        message: {
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { notifications: { toolsListChanged: true } },
        },
      }],
    }],
  };
  for (const cassette of [withListen, CASSETTE]) {
    const sent: RpcMessage[] = [];
    let wake = () => {};
    const replay = new ReplaySession(cassette, { match: "exact", speed: 0 }, (message) => {
      sent.push(message);
      wake();
    });
    replay.receive({
      jsonrpc: "2.0",
      id: 7,
      method: "subscriptions/listen",
      params: { notifications: { promptsListChanged: true } },
    });
    replay.receive({ jsonrpc: "2.0", id: 8, method: "ping" });
    while (sent.length < 2) await new Promise<void>((resolve) => wake = resolve);
    assert.ok(sent.some((m) => m.method === "notifications/subscriptions/acknowledged"));
    assert.deepEqual(sent.map((m) => m.id).filter((id) => id !== undefined), [8], "no answer to 7");
    replay.close();
  }
});
