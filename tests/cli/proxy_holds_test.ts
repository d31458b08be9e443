/**
 * Holds over stdio, the command's side: `lass proxy --url` applies the holds in force in a running
 * Lass. End to end, an SDK client launches `lass proxy` and its held `tools/call` is forwarded
 * edited, replied to and dropped from the running Lass; without a Lass the record's holds are
 * named on stderr; a silent or departed Lass never keeps a request waiting. The routes and the
 * relay are in `tests/mcp/proxy/holds_api_test.ts`.
 */
import assert from "node:assert/strict";
import { answerHold, nextHold, textOf } from "../_proxy.ts";
import { cliHome, launchStdio } from "../_cli.ts";
import { configWithServers, type Json, TOKEN, waitUntil, withServedService } from "../_helpers.ts";

const DEMO = { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" };

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
        await answerHold(t, first.id, {
          action: "forward",
          params: { name: "echo", arguments: { text: "edited" } },
        });
        assert.equal(textOf(await call), "edited");

        held = nextHold(t, "tools/call");
        call = client.callTool({ name: "echo", arguments: { text: "never sent" } });
        await answerHold(t, (await held).id, {
          action: "reply",
          result: { content: [{ type: "text", text: "from the user" }] },
        });
        assert.equal(textOf(await call), "from the user");

        held = nextHold(t, "tools/call");
        const stop = new AbortController();
        const dropped = client.callTool({ name: "echo", arguments: { text: "dropped" } }, {
          signal: stop.signal,
        });
        await answerHold(t, (await held).id, { action: "drop" });
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
  const { LassHolds } = await import("../../cli/proxy/holds.ts");
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
