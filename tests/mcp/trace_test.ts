/** The wire trace: `GET /api/mcp/:id/trace` (read and follow), in both eras, bounded and clipped. */
import assert from "node:assert/strict";
import {
  MAX_TRACE_MESSAGE_BYTES,
  ToolServerTraces,
  TRACE_CAPACITY,
} from "../../core/mcp/session/trace.ts";
import { DEMO_SERVER, demoServerStdio } from "../_chat.ts";
import { startEverything } from "../_everything.ts";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  serveOverHttp,
  startService,
  type TestService,
  TOKEN,
  waitForEvent,
  waitUntil,
} from "../_helpers.ts";
import { startOAuthFixture } from "../fixtures/oauth_mcp_server.ts";

/** What a trace line is about: its method, or `result` / `error` for a response. */
function kindOf(line: Json): string {
  return line.message.method ?? (line.message.error ? "error" : "result");
}

async function traceOf(t: TestService, id: string, query = ""): Promise<Json[]> {
  const { status, body } = await readJsonResponse(await t.call(`/api/mcp/${id}/trace${query}`));
  assert.equal(status, 200, JSON.stringify(body));
  return body.messages;
}

const ERAS = [
  ["in-process, auto (modern)", DEMO_SERVER, "modern"],
  ["stdio, modern", demoServerStdio("modern"), "modern"],
  ["stdio, legacy", demoServerStdio("legacy"), "legacy"],
] as const;

for (const [label, server, era] of ERAS) {
  Deno.test(`the trace shows the handshake, tools/list and a tools/call with its response and ms, in order (${label})`, async () => {
    const t = await startService({ config: configWithServers([server]) });
    try {
      const state = (await post(t, "/api/mcp/demo/connect")).body;
      assert.equal(state.status, "connected", state.error);
      assert.equal(state.era, era);
      const call = await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 2, b: 3 } });
      assert.equal(call.status, 200);

      const lines = await traceOf(t, "demo");
      const seqs = lines.map((line) => line.seq);
      assert.deepEqual(seqs, [...seqs].sort((a, b) => a - b), "oldest first");
      assert.equal(new Set(seqs).size, seqs.length);
      for (const line of lines) {
        assert.equal(line.serverId, "demo");
        assert.ok(["out", "in"].includes(line.dir));
        assert.ok(!Number.isNaN(Date.parse(line.time)), "an ISO time");
        assert.equal(line.bytes, new TextEncoder().encode(JSON.stringify(line.message)).length);
        assert.equal(line.message.jsonrpc, "2.0");
      }
      const first = lines.findIndex((line) => line.dir === "out");
      const handshake = era === "modern" ? "server/discover" : "initialize";
      assert.equal(kindOf(lines[first]), handshake, `the trace opens with ${handshake}`);
      assert.ok(
        !lines.some((line) =>
          kindOf(line) === (era === "modern" ? "initialize" : "server/discover")
        ),
        "only the era's own handshake",
      );
      const answer = (request: Json) =>
        lines.find((line) =>
          line.dir === "in" && line.message.id === request.message.id &&
          line.message.method === undefined && line.seq > request.seq
        );
      const list = lines.find((line) => line.dir === "out" && kindOf(line) === "tools/list");
      assert.ok(list && list.seq > lines[first].seq, "tools/list after the handshake");
      assert.ok(answer(list)?.message.result.tools.some((tool: Json) => tool.name === "add"));
      const calls = lines.filter((line) => line.dir === "out" && kindOf(line) === "tools/call");
      assert.equal(calls.length, 1, "one call, recorded once");
      assert.equal(calls[0].message.params.name, "add");
      assert.ok(calls[0].seq > list.seq);
      const result = answer(calls[0]);
      assert.ok(result, "the call's response");
      assert.equal(result.message.result.structuredContent.sum, 5);
      assert.equal(typeof result.ms, "number");
      assert.ok(result.ms >= 0);
      assert.equal(calls[0].ms, undefined, "a request has no ms");
    } finally {
      await t.close();
    }
  });
}

Deno.test("GET /api/mcp/:id/trace: since and limit select, bad values are 400, an unknown server 404", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    await post(t, "/api/mcp/demo/connect");
    const all = await traceOf(t, "demo");
    assert.ok(all.length > 4);
    const lastTwo = await traceOf(t, "demo", "?limit=2");
    assert.deepEqual(lastTwo.map((line) => line.seq), all.slice(-2).map((line) => line.seq));
    const since = all[1].seq;
    const next = await traceOf(t, "demo", `?since=${since}&limit=2`);
    assert.deepEqual(next.map((line) => line.seq), [since + 1, since + 2]);
    assert.deepEqual(await traceOf(t, "demo", `?since=${all.at(-1).seq}`), []);
    const restarted = await traceOf(t, "demo", "?since=999999&limit=2");
    assert.deepEqual(
      restarted.map((line) => line.seq),
      lastTwo.map((line) => line.seq),
      "a since from before a restart counts as absent",
    );
    for (const query of ["?since=-1", "?since=x", "?limit=0", "?limit=2001", "?follow=yes"]) {
      const bad = await readJsonResponse(await t.call(`/api/mcp/demo/trace${query}`));
      assert.equal(bad.status, 400, query);
      assert.equal(bad.body.error.code, "invalid-request");
      assert.equal(bad.body.error.details[0].path, query.slice(1).split("=")[0]);
    }
    const missing = await readJsonResponse(await t.call("/api/mcp/nope/trace"));
    assert.deepEqual([missing.status, missing.body.error.code], [404, "not-found"]);
    const follow = await readJsonResponse(await t.call("/api/mcp/nope/trace?follow=1"));
    assert.equal(follow.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("follow=1 streams the buffered messages, then a live call, and lets go when the client goes away", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  const http = serveOverHttp(t);
  try {
    await post(t, "/api/mcp/demo/connect");
    const buffered = (await traceOf(t, "demo")).length;
    const controller = new AbortController();
    const response = await fetch(`${http.url}/api/mcp/demo/trace?follow=1`, {
      headers: { "x-service-token": TOKEN },
      signal: controller.signal,
    });
    assert.equal(response.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const lines: Json[] = [];
    let partial = "";
    const readUntil = async (test: (line: Json) => boolean) => {
      while (!lines.some(test)) {
        const { value, done } = await reader.read();
        assert.ok(!done, "the stream stays open");
        const parts = (partial + value).split("\n");
        partial = parts.pop()!;
        lines.push(...parts.map((part) => JSON.parse(part)));
      }
    };
    await readUntil(() => lines.length >= buffered);
    assert.equal(t.service.mcp.traceFollowers("demo"), 1);
    const call = post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 40, b: 2 } });
    await readUntil((line) => line.message.result?.structuredContent?.sum === 42);
    assert.equal((await call).status, 200);
    const seqs = lines.map((line) => line.seq);
    assert.deepEqual(seqs, seqs.map((_, i) => seqs[0] + i), "every message, in order");
    controller.abort();
    await reader.cancel().catch(() => {});
    await waitUntil(() => t.service.mcp.traceFollowers("demo") === 0, "the follower to go");
  } finally {
    await http.close();
    await t.close();
  }
});

Deno.test("a follow stream with since starts after it, and ends when the reader cancels", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    await post(t, "/api/mcp/demo/connect");
    const all = await traceOf(t, "demo");
    const response = await t.call(`/api/mcp/demo/trace?follow=1&since=${all.at(-2).seq}`);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = JSON.parse((await reader.read()).value!.split("\n")[0]);
    assert.equal(first.seq, all.at(-1).seq);
    assert.equal(t.service.mcp.traceFollowers("demo"), 1);
    await reader.cancel();
    await waitUntil(
      () => t.service.mcp.traceFollowers("demo") === 0,
      "the cancelled follower to go",
    );
  } finally {
    await t.close();
  }
});

Deno.test("the ring keeps the last 2,000 messages; seq goes on after a server is forgotten", () => {
  const traces = new ToolServerTraces();
  const sink = traces.channel("s", () => true);
  for (let i = 1; i <= TRACE_CAPACITY + 150; i++) {
    sink("out", { jsonrpc: "2.0", id: i, method: "ping" });
  }
  const kept = traces.read("s", { limit: 5000 });
  assert.equal(kept.length, TRACE_CAPACITY);
  assert.equal(kept[0].seq, 151);
  assert.equal(kept.at(-1)!.seq, TRACE_CAPACITY + 150);
  assert.equal(traces.read("s", { since: 3, limit: 2 })[0].seq, 151, "evicted ones are gone");
  sink("in", { jsonrpc: "2.0", id: TRACE_CAPACITY + 150, result: {} });
  assert.equal(typeof traces.read("s", { limit: 1 })[0].ms, "number");
  traces.forget("s");
  assert.deepEqual(traces.read("s", { limit: 10 }), []);
  sink("out", { jsonrpc: "2.0", method: "notifications/initialized" });
  assert.equal(traces.read("s", { limit: 10 })[0].seq, TRACE_CAPACITY + 152, "never reused");
});

Deno.test("a message over 64 KiB is clipped to a JSON value with its envelope; bytes stays the real size", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const text = "é".repeat(40_000);
    const call = await post(t, "/api/mcp/demo/call", { tool: "echo", args: { text } });
    assert.equal(call.status, 200);
    const lines = await traceOf(t, "demo");
    const request = lines.find((line) => line.message.method === "tools/call");
    const response = lines.find((line) =>
      line.message.id === request.message.id && line !== request
    );
    for (const line of [request, response]) {
      assert.equal(line.truncated, true);
      assert.ok(line.bytes > 80_000, "the real size");
      assert.equal(line.message.jsonrpc, "2.0");
      assert.equal(line.message.id, request.message.id);
      assert.equal(typeof line.message.clipped, "string");
      assert.ok(new TextEncoder().encode(line.message.clipped).length <= MAX_TRACE_MESSAGE_BYTES);
      assert.ok(line.message.clipped.length > 30_000);
    }
    assert.equal(request.message.method, "tools/call");
    assert.ok(request.message.clipped.startsWith("{"));
    assert.equal(typeof response.ms, "number");
    const small = lines.filter((line) => !line.truncated);
    assert.ok(small.length > 0 && small.every((line) => line.message.clipped === undefined));
  } finally {
    await t.close();
  }
});

Deno.test("trace: false records nothing; turning it on applies without a reconnect", async () => {
  const t = await startService({ config: configWithServers([{ ...DEMO_SERVER, trace: false }]) });
  try {
    const state = (await post(t, "/api/mcp/demo/connect")).body;
    assert.equal(state.status, "connected");
    await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 1, b: 1 } });
    const view = await post(t, "/api/mcp/demo/trace", {
      messages: [{ dir: "view-in", message: { jsonrpc: "2.0", id: 1, method: "ui/initialize" } }],
    });
    assert.deepEqual(view.body, { ok: true, recorded: 0 });
    assert.deepEqual(await traceOf(t, "demo"), []);

    const config = JSON.parse(await (await t.call("/api/config/export")).text());
    config.mcpServers[0].trace = true;
    const changed = waitForEvent(t, (event) => event.type === "config.changed", {
      what: "config.changed",
    });
    const put = await readJsonResponse(
      await t.call("/api/config", { method: "PUT", json: config }),
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await changed;
    assert.equal(t.service.mcp.state("demo").connectedAt, state.connectedAt, "no reconnect");
    await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 2, b: 2 } });
    const lines = await traceOf(t, "demo");
    assert.deepEqual(lines.map(kindOf).filter((kind) => kind !== "notifications/message"), [
      "tools/call",
      "result",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("an OAuth server's trace holds its messages but no token, client secret or header value", async () => {
  const secret = "m2m-secret-in-the-env";
  const headerValue = "header-value-lass-adds";
  const fixture = await startOAuthFixture({
    registration: false,
    clients: { "lass-m2m": { secret } },
    authMethods: ["client_secret_basic"],
    scopesSupported: ["mcp:read"],
  });
  const t = await startService({
    config: configWithServers([{
      id: "robot",
      name: "Robot",
      transport: "http",
      url: fixture.url,
      headers: { "x-lass-test": headerValue },
      oauth: { grantType: "client_credentials", clientId: "lass-m2m", clientSecret: "env:SECRET" },
    }]),
    env: { SECRET: secret },
  });
  try {
    const state = (await post(t, "/api/mcp/robot/connect")).body;
    assert.equal(state.status, "connected", state.error);
    const who = await post(t, "/api/mcp/robot/call", { tool: "whoami", args: {} });
    assert.equal(who.body.result.content[0].text, "client=lass-m2m scopes=mcp:read");
    const stored = JSON.parse(
      await Deno.readTextFile(`${t.dir}/data/oauth/robot.json`),
    );
    const token = stored.tokens.access_token;
    assert.match(token, /^at-/);

    const lines = await traceOf(t, "robot");
    assert.ok(lines.some((line) => line.message.method === "tools/call"), "the call is traced");
    const followed = await t.call("/api/mcp/robot/trace?follow=1");
    const reader = followed.body!.pipeThrough(new TextDecoderStream()).getReader();
    const first = (await reader.read()).value!;
    await reader.cancel();
    for (const text of [JSON.stringify(lines), first]) {
      for (const value of [token, secret, headerValue]) {
        assert.ok(!text.includes(value), `${value.slice(0, 6)}… is in the trace`);
      }
    }
  } finally {
    await t.close();
    await fixture.close();
  }
});

for (const mode of ["streamableHttp", "sse"] as const) {
  Deno.test(`over ${mode === "sse" ? "SSE" : "Streamable HTTP"} the trace shows initialize, tools/list and a tools/call answered with ms (a 2025 server)`, async () => {
    const everything = await startEverything(mode);
    const t = await startService({
      config: configWithServers([{
        id: "everything",
        name: "Everything",
        transport: mode === "sse" ? "sse" : "http",
        url: everything.url,
        protocolEra: mode === "sse" ? "legacy" : "auto",
        timeoutMs: 20_000,
      }]),
    });
    try {
      const state = (await post(t, "/api/mcp/everything/connect")).body;
      assert.equal(state.status, "connected", state.error);
      assert.equal(state.era, "legacy");
      const call = await post(t, "/api/mcp/everything/call", {
        tool: "get-sum",
        args: { a: 2, b: 3 },
      });
      assert.equal(call.status, 200);
      const lines = await traceOf(t, "everything");
      const outs = lines.filter((line) => line.dir === "out").map(kindOf);
      if (mode === "streamableHttp") {
        assert.equal(outs[0], "server/discover", "auto probes first over HTTP");
      }
      const order = ["initialize", "tools/list", "tools/call"].map((method) =>
        outs.indexOf(method)
      );
      assert.ok(
        order.every((index, i) => index >= 0 && (i === 0 || index > order[i - 1])),
        outs.join(", "),
      );
      const request = lines.find((line) => kindOf(line) === "tools/call");
      const answer = lines.find((line) =>
        line.dir === "in" && line.message.id === request.message.id && line.seq > request.seq
      );
      assert.match(answer.message.result.content[0].text, /5/);
      assert.equal(typeof answer.ms, "number");
    } finally {
      await t.close();
      await everything.stop();
    }
  });
}

Deno.test("a request Lass sends is marked by who asked: the inspector's routes or a chat turn", async () => {
  const { chatConfig, chat, user } = await import("../_chat.ts");
  const t = await startService({ config: chatConfig() });
  try {
    // Connected by Lass itself (as at start-up), not through a route.
    await t.service.mcp.connect("demo");
    const called = await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 1, b: 2 } });
    assert.equal(called.status, 200, JSON.stringify(called.body));
    // add has an output schema: its structured content was checked.
    assert.equal(called.body.outputSchema, "passed");
    const turn = await chat(t, { messages: [user("please add 2 and 3")] });
    assert.equal(turn.chunks.at(-1).type, "finish");
    const calls = (await traceOf(t, "demo")).filter((line) => line.message.method === "tools/call");
    assert.deepEqual(calls.map((line) => [line.message.params.arguments, line.by]), [
      [{ a: 1, b: 2 }, "inspector"],
      [{ a: 2, b: 3 }, "chat"],
    ]);
    // Lass's own requests (the handshake) and the responses have none.
    const lines = await traceOf(t, "demo");
    assert.equal(
      lines.find((line) =>
        line.message.method === "initialize" || line.message.method === "server/discover"
      )?.by,
      undefined,
    );
    assert.ok(lines.filter((line) => line.dir === "in").every((line) => line.by === undefined));
  } finally {
    await t.close();
  }
});
