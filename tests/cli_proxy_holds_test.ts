/**
 * Holds over stdio: `lass proxy --url` applies the holds in force in a running Lass. End to end, an
 * SDK client launches `lass proxy` and its held `tools/call` is forwarded edited, replied to and
 * dropped from the running Lass; in-process, the routes the proxy uses (the holds it watches, the
 * hold it waits on: timeout, withdrawal) and the relay's handling of each decision in both
 * directions.
 */
import assert from "node:assert/strict";
import type { Transport } from "@modelcontextprotocol/client";
import { cliHome, launchStdio } from "./_cli.ts";
import {
  configWithServers,
  type Json,
  post,
  startService,
  type TestService,
  TOKEN,
  waitForEvent,
  waitUntil,
  withServedService,
} from "./_helpers.ts";
import type { HoldOutcome } from "../core/mcp/proxy/holds.ts";
import type { RpcMessage } from "../core/mcp/proxy/messages.ts";
import { relayStdio } from "../core/mcp/proxy/stdio_relay.ts";

const DEMO = { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" };

/** The next held request of `method`, as its interaction. */
function nextHold(t: TestService, method: string): Promise<Json> {
  return waitForEvent(t, (event) => {
    const interaction = event.data.interaction as Json;
    return event.type === "interaction.created" && interaction?.kind === "proxy-hold" &&
      interaction.method === method;
  }, { what: `a proxy-hold of ${method}` }).then((event) => event.data.interaction);
}

async function answer(t: TestService, id: string, response: unknown): Promise<void> {
  const { status, body } = await post(t, `/api/interactions/${id}`, { response });
  assert.equal(status, 200, JSON.stringify(body));
}

const textOf = (result: Json) => result.content.map((block: Json) => block.text).join("");

Deno.test("lass proxy --url: a held tools/call is forwarded edited, replied to and dropped in the running Lass, and the switch reaches it", async () => {
  const home = await cliHome(configWithServers([DEMO]));
  try {
    await withServedService([{ ...DEMO, holds: ["tools/call"] }], async (t, base) => {
      const { client, stderr } = await launchStdio(
        [...home.args, "demo", "--url", base, "--token", TOKEN],
        "held-stdio-client",
      );
      try {
        let held = nextHold(t, "tools/call");
        let call = client.callTool({ name: "echo", arguments: { text: "original" } });
        const first = await held;
        assert.equal(first.dir, "out");
        assert.equal(first.serverId, "demo");
        assert.equal(first.client?.name, "held-stdio-client", "the session's client is named");
        assert.equal(first.message.params.arguments.text, "original");
        const { clients } = await (await t.call("/api/mcp/demo/proxy")).json();
        const session = clients.find((c: Json) => c.session === first.session);
        assert.equal(session?.transport, "stdio", "the hold belongs to the stdio session");
        await answer(t, first.id, {
          action: "forward",
          params: { name: "echo", arguments: { text: "edited" } },
        });
        assert.equal(textOf(await call), "edited");

        held = nextHold(t, "tools/call");
        call = client.callTool({ name: "echo", arguments: { text: "never sent" } });
        await answer(t, (await held).id, {
          action: "reply",
          result: { content: [{ type: "text", text: "from the user" }] },
        });
        assert.equal(textOf(await call), "from the user");

        held = nextHold(t, "tools/call");
        const stop = new AbortController();
        const dropped = client.callTool({ name: "echo", arguments: { text: "dropped" } }, {
          signal: stop.signal,
        });
        await answer(t, (await held).id, { action: "drop" });
        // The inspector's switch: no holds for this run; the proxy is told and says so.
        await t.call("/api/mcp/demo/proxy/holds", { method: "PUT", json: { methods: [] } });
        await waitUntil(() => /holds now: none/.test(stderr.join("")), "the proxy to say no holds");
        assert.equal(
          textOf(await client.callTool({ name: "echo", arguments: { text: "free" } })),
          "free",
        );
        stop.abort();
        await assert.rejects(dropped);
        await waitUntil(async () => {
          const trace = await (await t.call("/api/mcp/demo/trace?limit=2000")).json();
          return trace.messages.some((m: Json) => JSON.stringify(m.message).includes("free"));
        }, "the free call to be reported");
        const trace = await (await t.call("/api/mcp/demo/trace?limit=2000")).json();
        const mine = trace.messages.filter((m: Json) => m.session === first.session);
        const said = (text: string) =>
          mine.filter((m: Json) => JSON.stringify(m.message).includes(text))
            .map((m: Json) => m.dir);
        assert.deepEqual(said("edited"), ["out", "in"], "the edited call went out, came back");
        assert.deepEqual(said("original"), [], "the call as it came never crossed");
        assert.deepEqual(said("from the user"), ["in"]);
        assert.deepEqual(said("dropped"), ["out"], "the dropped call never got an answer");
        assert.match(stderr.join(""), /holds now: tools\/call/);
      } finally {
        await client.close();
      }
    });
  } finally {
    await home.close();
  }
});

Deno.test("lass proxy <id> without a running Lass says the record's holds need one, and relays", async () => {
  const home = await cliHome(configWithServers([{ ...DEMO, holds: ["tools/call"] }]));
  try {
    const { client, stderr } = await launchStdio([...home.args, "demo"], "unheld-client");
    try {
      const result = await client.callTool({ name: "echo", arguments: { text: "not held" } });
      assert.equal(textOf(result as Json), "not held");
      assert.match(stderr.join(""), /demo holds tools\/call, but holds need a running Lass/);
    } finally {
      await client.close();
    }
  } finally {
    await home.close();
  }
});

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

Deno.test("lass proxy's holds when Lass stays silent or goes away: the waiting request goes on as it came, and nothing is held after", async () => {
  // A Lass that says tools/call is held (for 50 ms), then leaves the first hold unanswered, drops
  // the second's connection, and ends the watch.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const encoder = new TextEncoder();
  const open: Deno.Conn[] = [];
  let watch: Deno.Conn | undefined;
  let holdsAsked = 0;
  const serving = (async () => {
    for await (const conn of listener) {
      const head = new Uint8Array(65_536);
      const read = await conn.read(head);
      const text = new TextDecoder().decode(head.subarray(0, read ?? 0));
      if (text.startsWith("POST /api/mcp/demo/proxy/hold ") && holdsAsked++ === 0) {
        open.push(conn);
        continue;
      }
      if (!text.startsWith("GET /api/mcp/demo/proxy/holds?watch=true")) {
        conn.close();
        continue;
      }
      watch = conn;
      await conn.write(encoder.encode(
        "HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\n\r\n" +
          `${JSON.stringify({ holds: ["tools/call"], timeoutMs: 50 })}\n`,
      ));
    }
  })();
  const warnings: string[] = [];
  const { LassHolds } = await import("../cli/proxy_holds.ts");
  const holds = new LassHolds({
    url: `http://127.0.0.1:${listener.addr.port}`,
    token: TOKEN,
    serverId: "demo",
    session: "stdio-session-2",
    reported: () => Promise.resolve(),
    warn: (message) => warnings.push(message),
    graceMs: 50,
  });
  try {
    await holds.start();
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo" } };
    assert.equal(holds.hold("out", { jsonrpc: "2.0", id: 2, method: "tools/list" }), undefined);
    const silent = holds.hold("out", call);
    assert.ok(silent, "tools/call is held");
    assert.deepEqual(await silent, { action: "forward", message: call }, "Lass stayed silent");
    const gone = holds.hold("out", call);
    assert.ok(gone, "tools/call is still held");
    assert.deepEqual(await gone, { action: "forward", message: call }, "Lass went away");
    assert.equal(
      warnings.filter((w) => w.includes("the held tools/call goes on as it came")).length,
      2,
      warnings.join("\n"),
    );
    watch!.close();
    await waitUntil(
      () => warnings.some((w) => w.includes("holds do not apply any more: no holds from Lass")),
      "the proxy to see the watch end",
    );
    assert.equal(holds.hold("out", call), undefined, "nothing is held without Lass");
  } finally {
    holds.close();
    for (const conn of open) conn.close();
    listener.close();
    await serving.catch(() => {});
  }
});
