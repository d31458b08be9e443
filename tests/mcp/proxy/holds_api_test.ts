/**
 * Holds over stdio, in process: the routes `lass proxy --url` uses (the holds it watches, the hold
 * it waits on: timeout, withdrawal) and the stdio relay's handling of each decision in both
 * directions. The command's side is in `tests/cli/proxy_holds_test.ts`.
 */
import assert from "node:assert/strict";
import { nextHold } from "../../_proxy.ts";
import type { Transport } from "@modelcontextprotocol/client";
import {
  configWithServers,
  type Json,
  post,
  startService,
  TOKEN,
  waitForEvent,
  waitUntil,
} from "../../_helpers.ts";
import type { HoldOutcome } from "../../../core/mcp/proxy/holds.ts";
import type { RpcMessage } from "../../../core/mcp/proxy/messages.ts";
import { relayStdio } from "../../../core/mcp/proxy/stdio_relay.ts";

const DEMO = { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" };

Deno.test("the holds a stdio proxy watches: now, then on each change of the switch or the record", async () => {
  const t = await startService({ config: configWithServers([{ ...DEMO, holdTimeoutMs: 5000 }]) });
  try {
    assert.deepEqual(await (await t.call("/api/mcp/demo/proxy/holds")).json(), {
      holds: [],
      timeoutMs: 5000,
    });
    const linked = await t.call(`/api/mcp/demo/proxy/holds?token=${TOKEN}`, { token: null });
    assert.equal(linked.status, 200, "the token may come in the query");
    await linked.body?.cancel();
    const response = await t.call("/api/mcp/demo/proxy/holds?watch=true");
    assert.match(response.headers.get("content-type") ?? "", /application\/x-ndjson/);
    const lines = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    const nextLine = async (what: string) => {
      while (!buffered.includes("\n")) {
        const { done, value } = await lines.read();
        assert.ok(!done, `the watch ended before ${what}`);
        buffered += value;
      }
      const end = buffered.indexOf("\n");
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      return JSON.parse(line);
    };
    assert.deepEqual(await nextLine("the first holds"), { holds: [], timeoutMs: 5000 });
    await t.call("/api/mcp/demo/proxy/holds", { method: "PUT", json: { methods: ["tools/call"] } });
    assert.deepEqual(await nextLine("the switch's holds"), {
      holds: ["tools/call"],
      timeoutMs: 5000,
    });
    await t.call("/api/mcp/demo/proxy/holds", { method: "PUT", json: { methods: null } });
    assert.deepEqual(await nextLine("the record's holds again"), { holds: [], timeoutMs: 5000 });
    const config = await (await t.call("/api/config")).json();
    const demo = config.mcpServers.find((s: Json) => s.id === "demo");
    Object.assign(demo, { holds: ["sampling/createMessage"], holdTimeoutMs: 7000 });
    const saved = await t.call("/api/config", { method: "PUT", json: config });
    assert.equal(saved.status, 200, await saved.clone().text());
    assert.deepEqual(await nextLine("the record's new holds"), {
      holds: ["sampling/createMessage"],
      timeoutMs: 7000,
    });
    await lines.cancel();

    const unknown = await t.call("/api/mcp/nope/proxy/holds?watch=true");
    assert.equal(unknown.status, 404);
    await unknown.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/mcp/:id/proxy/hold: not held goes on at once, unanswered goes on as it came, a withdrawn wait ends its hold", async () => {
  const t = await startService({
    config: configWithServers([{ ...DEMO, holds: ["tools/call"], holdTimeoutMs: 200 }]),
  });
  try {
    const session = "stdio-session-1";
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo" } };
    const list = { jsonrpc: "2.0", id: 8, method: "tools/list" };
    const free = await post(t, "/api/mcp/demo/proxy/hold", { session, dir: "out", message: list });
    assert.deepEqual(free.body, { action: "forward", message: list });

    const expired = waitForEvent(
      t,
      (event) => event.type === "interaction.resolved" && event.data.outcome === "expired",
      { what: "the hold to expire" },
    );
    const waited = await post(t, "/api/mcp/demo/proxy/hold", {
      session,
      dir: "out",
      message: call,
    });
    await expired;
    assert.equal(waited.status, 200, JSON.stringify(waited.body));
    assert.deepEqual(waited.body, { action: "forward", message: call });
    const { clients } = await (await t.call("/api/mcp/demo/proxy")).json();
    assert.deepEqual(clients.map((c: Json) => [c.session, c.transport]), [[session, "stdio"]]);

    const notRequest = await post(t, "/api/mcp/demo/proxy/hold", {
      session,
      dir: "out",
      message: { jsonrpc: "2.0", method: "notifications/initialized" },
    });
    assert.equal(notRequest.status, 400);
    assert.equal(notRequest.body.error.code, "invalid-request");
    assert.equal(notRequest.body.error.details[0].path, "message");
    const unknown = await post(t, "/api/mcp/nope/proxy/hold", {
      session,
      dir: "out",
      message: call,
    });
    assert.equal(unknown.status, 404);

    // The proxy gave up waiting (its session ended): the interaction is withdrawn.
    await t.call("/api/mcp/demo/proxy/holds", { method: "PUT", json: { methods: ["tools/call"] } });
    const created = nextHold(t, "tools/call");
    const cancelled = waitForEvent(
      t,
      (event) => event.type === "interaction.resolved" && event.data.outcome === "cancelled",
      { what: "the withdrawn hold" },
    );
    const waiting = await t.call("/api/mcp/demo/proxy/hold", {
      method: "POST",
      json: { session, dir: "out", message: call },
    });
    assert.equal(waiting.status, 200);
    await created;
    await waiting.body!.cancel();
    await cancelled;
    assert.deepEqual((await (await t.call("/api/interactions")).json()).interactions, []);
  } finally {
    await t.close();
  }
});

/** A tool server's transport in memory: what the relay sends is kept; `deliver` plays the server. */
function fakeUpstream() {
  const sent: RpcMessage[] = [];
  const transport = {
    start: () => Promise.resolve(),
    send: (message: RpcMessage) => {
      sent.push(message);
      return Promise.resolve();
    },
    close: () => Promise.resolve(transport.onclose?.()),
  } as unknown as Transport & { onclose?: () => void };
  return {
    transport,
    sent,
    deliver: (message: RpcMessage) => transport.onmessage?.(message as never),
  };
}

Deno.test("the stdio relay carries out each decision on a held request, both ways, and lets the rest pass", async () => {
  const upstream = fakeUpstream();
  const written: RpcMessage[] = [];
  const observed: [string, RpcMessage][] = [];
  const decisions = new Map<unknown, HoldOutcome>([
    [1, {
      action: "forward",
      message: { jsonrpc: "2.0", id: 1, method: "tools/call", params: { x: 2 } },
    }],
    [2, { action: "reply", response: { jsonrpc: "2.0", id: 2, result: { by: "user" } } }],
    [3, { action: "drop" }],
    ["s1", { action: "reply", response: { jsonrpc: "2.0", id: "s1", result: { for: "server" } } }],
    ["s2", {
      action: "forward",
      message: { jsonrpc: "2.0", id: "s2", method: "sampling/createMessage" },
    }],
  ]);
  const held: string[] = [];
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const client = input.writable.getWriter();
  const send = (message: unknown) =>
    client.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  const relay = relayStdio(upstream.transport, {
    input: input.readable,
    write: (line) => Promise.resolve(void written.push(JSON.parse(line))),
    observe: (dir, message) => void observed.push([dir, message as RpcMessage]),
    warn: (message) => assert.fail(`unexpected warning: ${message}`),
    hold: (dir, message) => {
      const decision = decisions.get(message.id);
      if (!decision || !message.method) return undefined;
      held.push(`${dir} ${message.id}`);
      return Promise.resolve(decision);
    },
  });
  for (const id of [1, 2, 3]) {
    await send({ jsonrpc: "2.0", id, method: "tools/call", params: { x: 1 } });
  }
  await send({ jsonrpc: "2.0", id: 4, method: "tools/list" });
  await waitUntil(() => upstream.sent.length === 2, "the forwarded call and the free list");
  upstream.deliver({ jsonrpc: "2.0", id: "s1", method: "sampling/createMessage" });
  upstream.deliver({ jsonrpc: "2.0", id: "s2", method: "sampling/createMessage" });
  upstream.deliver({ jsonrpc: "2.0", id: 4, result: { tools: [] } });
  await waitUntil(() => written.length === 3, "the reply, the forwarded request and the list");
  await waitUntil(() => upstream.sent.length === 3, "the user's reply to the server");
  await client.close();
  assert.equal(await relay, "client");

  assert.deepEqual(held, ["out 1", "out 2", "out 3", "in s1", "in s2"]);
  assert.deepEqual(
    upstream.sent.map((m) => [m.id, m.params ?? m.result]).sort(),
    [
      [1, { x: 2 }],
      [4, undefined],
      ["s1", { for: "server" }],
    ].sort(),
    "the edited call, the free list and the user's reply to the server",
  );
  assert.deepEqual(written.map((m) => m.id).sort(), [2, 4, "s2"].sort());
  assert.deepEqual(written.find((m) => m.id === 2)?.result, { by: "user" });
  const seen = observed.map(([dir, m]) => `${dir} ${m.id}${m.result ? " result" : ""}`);
  for (
    const expected of [
      "out 1",
      "out 2",
      "in 2 result",
      "out 3",
      "in s1",
      "out s1 result",
      "in s2",
    ]
  ) {
    assert.ok(seen.includes(expected), `${expected} was traced (traced: ${seen.join(", ")})`);
  }
  assert.ok(
    !observed.some(([, m]) => m.id === 1 && (m.params as Json)?.x === 1),
    "not the original",
  );
});
