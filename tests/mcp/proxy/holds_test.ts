/**
 * Holds of the proxy: a held request waits as a `proxy-hold` interaction and is forwarded (with
 * edited params), replied to in the other side's place, dropped, or forwarded when nobody answers;
 * on a bridged server (the demo), a passed-through one, and for a server's request to the client.
 */
import assert from "node:assert/strict";
import { answerHold, nextHold, textOf } from "../../_proxy.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ClientCapabilities } from "@modelcontextprotocol/client";
import { type Json, TOKEN, waitForEvent, withServedService } from "../../_helpers.ts";
import { everythingStdio, startEverything } from "../../_everything.ts";

const DEMO = { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" };

async function outsideClient(
  base: string,
  serverId: string,
  capabilities: ClientCapabilities = {},
) {
  const client = new Client({ name: "held-client", version: "1.0.0" }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp/${serverId}`), {
    requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
  });
  await client.connect(transport);
  return client;
}

Deno.test("holds on a bridged server: forward edited, reply, drop, and forward on timeout", async () => {
  await withServedService([{ ...DEMO, holdTimeoutMs: 60_000 }], async (t, base) => {
    const set = await t.call("/api/mcp/demo/proxy/holds", {
      method: "PUT",
      json: { methods: ["tools/call"] },
    });
    assert.deepEqual((await set.json()).holds, ["tools/call"]);
    const client = await outsideClient(base, "demo");
    try {
      let held = nextHold(t, "tools/call");
      let call = client.callTool({ name: "echo", arguments: { text: "original" } });
      const first = await held;
      assert.equal(first.dir, "out");
      assert.equal(first.client.name, "held-client");
      assert.equal(first.message.params.arguments.text, "original");
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
      const resolved = waitForEvent(t, (event) => event.type === "interaction.resolved", {
        what: "the drop to be recorded",
      });
      await answerHold(t, (await held).id, { action: "drop" });
      await resolved;
      stop.abort();
      await assert.rejects(dropped);
      const trace = await (await t.call("/api/mcp/demo/trace?limit=2000")).json();
      const echoed = trace.messages.filter((m: Json) =>
        JSON.stringify(m.message).includes("dropped")
      );
      assert.deepEqual(
        echoed.map((m: Json) => m.dir),
        ["out"],
        "the dropped call never got an answer",
      );

      // Back to the record's holds (none): calls go straight through.
      await t.call("/api/mcp/demo/proxy/holds", { method: "PUT", json: { methods: null } });
      assert.equal(
        textOf(await client.callTool({ name: "echo", arguments: { text: "free" } })),
        "free",
      );
    } finally {
      await client.close();
    }
  });
  await withServedService(
    [{ ...DEMO, holds: ["tools/call"], holdTimeoutMs: 200 }],
    async (t, base) => {
      const client = await outsideClient(base, "demo");
      try {
        const expired = waitForEvent(
          t,
          (event) => event.type === "interaction.resolved" && event.data.outcome === "expired",
          {
            what: "the hold to expire",
          },
        );
        const result = await client.callTool({ name: "echo", arguments: { text: "waited" } });
        await expired;
        assert.equal(textOf(result), "waited", "unanswered, the request went on as it came");
      } finally {
        await client.close();
      }
    },
  );
});

Deno.test("holds on a passed-through server: a reply the server never sees", async () => {
  const { createDemoHandler } = await import("../../../core/mcp/demo/server.ts");
  const demo = createDemoHandler();
  const methods: string[] = [];
  const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = req.method === "POST" ? await req.clone().text() : "";
    if (body) methods.push(...[JSON.parse(body)].flat().map((m: Json) => m.method ?? "(response)"));
    return await demo.fetch(req);
  });
  try {
    const url = `http://127.0.0.1:${upstream.addr.port}/mcp`;
    await withServedService([{
      id: "remote",
      name: "Remote",
      transport: "http",
      url,
      holds: ["tools/call"],
    }], async (t, base) => {
      const client = await outsideClient(base, "remote");
      try {
        const held = nextHold(t, "tools/call");
        const call = client.callTool({ name: "echo", arguments: { text: "hidden" } });
        await answerHold(t, (await held).id, {
          action: "reply",
          result: { content: [{ type: "text", text: "Lass answered" }] },
        });
        assert.equal(textOf(await call), "Lass answered");
        assert.ok(!methods.includes("tools/call"), `the server saw only ${methods.join(", ")}`);
      } finally {
        await client.close();
      }
    });
  } finally {
    await upstream.shutdown();
    await demo.close();
  }
});

/** A server-everything to hold sampling on: over stdio (bridged) or Streamable HTTP (passed through). */
async function samplingServer(kind: "stdio" | "http") {
  if (kind === "stdio") {
    return { record: everythingStdio({ holds: ["sampling/createMessage"] }), stop: async () => {} };
  }
  const running = await startEverything("streamableHttp");
  return {
    record: {
      id: "everything",
      name: "Everything",
      transport: "http",
      url: running.url,
      holds: ["sampling/createMessage"],
    },
    stop: running.stop,
  };
}

for (const kind of ["stdio", "http"] as const) {
  Deno.test(`holds on a server's request (${kind}): sampling answered by the user in the client's place`, async () => {
    const server = await samplingServer(kind);
    try {
      await withServedService([server.record], async (t, base) => {
        let asked = 0;
        const client = await outsideClient(base, "everything", { sampling: {} });
        client.setRequestHandler("sampling/createMessage", () => {
          asked++;
          return {
            role: "assistant",
            model: "client",
            content: { type: "text", text: "client's" },
          };
        });
        try {
          const held = nextHold(t, "sampling/createMessage");
          const call = client.callTool({
            name: "trigger-sampling-request",
            arguments: { prompt: "hello", maxTokens: 10 },
          });
          const hold = await held;
          assert.equal(hold.dir, "in");
          await answerHold(t, hold.id, {
            action: "reply",
            result: {
              role: "assistant",
              model: "user",
              content: { type: "text", text: "the user's words" },
            },
          });
          assert.match(JSON.stringify(await call), /the user's words/);
          assert.equal(asked, 0, "the client was never asked");
        } finally {
          await client.close();
        }
      });
    } finally {
      await server.stop();
    }
  });
}
