/**
 * Lass's MCP proxy over HTTP (`/mcp/:id`): the MCP SDK's client, as an outside client would be,
 * reaches server-everything (stdio, Streamable HTTP) and the demo server through Lass, in both
 * eras; what crosses lands in the wire trace, the client list and the events.
 */
import assert from "node:assert/strict";
import { processesWith } from "../../_process.ts";
import {
  configWithServers,
  eventSeen,
  type Json,
  TOKEN,
  waitUntil,
  withServedService,
} from "../../_helpers.ts";
import { EVERYTHING, everythingStdio, startEverything } from "../../_everything.ts";
import { proxyClient, textOf } from "../../_proxy.ts";

/**
 * The server's `roots/list` went to the client through the proxy and the client's roots came back
 * (the proxied messages of the trace, of the client named `client`).
 */
function assertRootsCrossed(messages: Json[], client: string, uri: string): void {
  const ofClient = messages.filter((m) => m.via === "proxy" && m.client?.name === client);
  const asked = ofClient.find((m) => m.dir === "in" && m.message.method === "roots/list");
  assert.ok(asked, "the server's roots/list request reached the client");
  const answer = ofClient.find((m) =>
    m.dir === "out" && m.message.method === undefined && m.message.id === asked.message.id
  );
  assert.equal(answer?.message.result?.roots?.[0]?.uri, uri, "the client's roots went back");
}

Deno.test("proxy: a stdio server through /mcp/:id, each client session with its own process, sampling, elicitation and roots to the client", async () => {
  const marker = `proxy-marker-${crypto.randomUUID()}`;
  const record = everythingStdio({
    args: ["run", "-A", `--location=http://${marker}.invalid/`, EVERYTHING, "stdio"],
  });
  await withServedService([record], async (t, base) => {
    const sampled: Json[] = [];
    const elicited: Json[] = [];
    const first = await proxyClient(base, "everything", {
      name: "first-client",
      capabilities: { sampling: {}, elicitation: { form: {} } },
      roots: [{ uri: "file:///work/first-project", name: "First project" }],
      onElicitation: (params) => {
        elicited.push(params);
        return {
          action: "accept",
          content: { name: "Ada", check: true, email: "ada@example.com" },
        };
      },
      onSampling: (params) => {
        sampled.push(params);
        return {
          role: "assistant",
          model: "outside",
          content: { type: "text", text: "from the client" },
        };
      },
    });
    const second = await proxyClient(base, "everything", { name: "second-client" });
    try {
      const tools = await first.client.listTools();
      assert.ok(tools.tools.some((tool) => tool.name === "echo"), "server-everything lists echo");
      const echoed = await second.client.callTool({ name: "echo", arguments: { message: "hi" } });
      assert.match(textOf(echoed), /hi/);
      const sampling = await first.client.callTool({
        name: "trigger-sampling-request",
        arguments: { prompt: "say something", maxTokens: 20 },
      });
      assert.equal(sampled.length, 1, "the sampling request reached the outside client");
      assert.match(JSON.stringify(sampling), /from the client/);
      const elicitation = await first.client.callTool({
        name: "trigger-elicitation-request",
        arguments: {},
      });
      assert.equal(elicited.length, 1, "the elicitation reached the outside client");
      assert.match(JSON.stringify(elicitation), /Ada/);
      const roots = textOf(await first.client.callTool({ name: "get-roots-list", arguments: {} }));
      assert.match(roots, /First project\s+URI: file:\/\/\/work\/first-project/);
      assert.equal(await processesWith(marker), 2, "one server process per client session");

      const { body } = await (await t.call("/api/mcp/everything/proxy")).json().then((body) => ({
        body,
      }));
      const names = body.clients.map((c: Json) => c.client?.name).sort();
      assert.deepEqual(names, ["first-client", "second-client"]);
      assert.ok(body.clients.every((c: Json) => c.messages > 0 && c.transport === "http"));

      const trace = await (await t.call("/api/mcp/everything/trace?limit=2000")).json();
      const proxied = trace.messages.filter((m: Json) => m.via === "proxy");
      assert.ok(
        proxied.some((m: Json) => m.message.method === "sampling/createMessage" && m.dir === "in"),
        "the server's sampling request is in the trace",
      );
      assertRootsCrossed(proxied, "first-client", "file:///work/first-project");
      assert.ok(proxied.every((m: Json) => typeof m.session === "string"));
      assert.ok(
        proxied.some((m: Json) =>
          m.client?.name === "second-client" && m.message.method === "tools/call"
        ),
      );
    } finally {
      await first.transport.terminateSession();
      await first.client.close();
      await second.transport.terminateSession();
      await second.client.close();
    }
    const closed = await eventSeen(
      t,
      (event) => event.type === "mcp.proxy" && event.data.state === "closed",
      "an mcp.proxy closed event",
    );
    assert.equal(closed.data.reason, "client");
    await waitUntil(async () => {
      const { clients } = await (await t.call("/api/mcp/everything/proxy")).json();
      return clients.length === 0;
    }, "both proxy sessions to close");
    await waitUntil(async () => await processesWith(marker) === 0, "both server processes to stop");
  });
});

Deno.test("proxy: a Streamable HTTP server is passed through, its session id kept, roots asked of the client", async () => {
  const everything = await startEverything("streamableHttp");
  try {
    await withServedService(
      [{ id: "remote", name: "Remote", transport: "http", url: everything.url }],
      async (t, base) => {
        const { client, transport } = await proxyClient(base, "remote", {
          name: "http-client",
          roots: [{ uri: "file:///work/http-project", name: "HTTP project" }],
        });
        try {
          assert.ok(transport.sessionId, "the server's Mcp-Session-Id reaches the client");
          const result = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
          assert.match(textOf(result), /5/);
          const roots = textOf(await client.callTool({ name: "get-roots-list", arguments: {} }));
          assert.match(roots, /HTTP project\s+URI: file:\/\/\/work\/http-project/);
          const trace = await (await t.call("/api/mcp/remote/trace?limit=2000")).json();
          const calls = trace.messages.filter((m: Json) =>
            m.via === "proxy" && m.client?.name === "http-client"
          );
          assert.ok(calls.some((m: Json) => m.dir === "out" && m.message.method === "tools/call"));
          assert.ok(calls.some((m: Json) => m.dir === "in" && m.message.result));
          assertRootsCrossed(trace.messages, "http-client", "file:///work/http-project");
        } finally {
          await transport.terminateSession();
          await client.close();
        }
      },
    );
  } finally {
    await everything.stop();
  }
});

Deno.test("proxy: the demo server in both eras", async () => {
  await withServedService(
    [{ id: "demo", name: "Demo", transport: "stdio", command: "service:demo" }],
    async (_t, base) => {
      for (const era of ["auto", "legacy"] as const) {
        const { client, transport } = await proxyClient(base, "demo", { era, name: `demo-${era}` });
        try {
          const result = await client.callTool({
            name: "echo",
            arguments: { text: `hello ${era}` },
          });
          assert.match(textOf(result), new RegExp(`hello ${era}`));
        } finally {
          if (era === "legacy") await transport.terminateSession();
          await client.close();
        }
      }
    },
  );
});

Deno.test("proxy: a 2026-07-28 Streamable HTTP server is passed through with its headers", async () => {
  const { createDemoHandler } = await import("../../../core/mcp/demo/server.ts");
  const demo = createDemoHandler();
  const seen: Headers[] = [];
  const upstream = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(req.headers);
    return demo.fetch(req);
  });
  try {
    const url = `http://127.0.0.1:${upstream.addr.port}/mcp`;
    const record = {
      id: "modern",
      name: "Modern",
      transport: "http",
      url,
      headers: { "x-tenant": "t1" },
    };
    await withServedService([record], async (t, base) => {
      const { client } = await proxyClient(base, "modern", { era: "auto", name: "modern-client" });
      try {
        const result = await client.callTool({ name: "echo", arguments: { text: "modern hi" } });
        assert.match(textOf(result), /modern hi/);
        const call = seen.findLast((headers) => headers.get("mcp-method") === "tools/call")!;
        assert.ok(call, "the 2026 request carried Mcp-Method to the server");
        assert.equal(call.get("mcp-name"), "echo");
        assert.match(call.get("mcp-protocol-version") ?? "", /^2026-/);
        assert.equal(call.get("x-tenant"), "t1", "the record's headers are added");
        assert.equal(call.get("authorization"), null, "Lass's token is not passed on");
        const { clients } = await (await t.call("/api/mcp/modern/proxy")).json();
        assert.equal(clients[0].client.name, "modern-client");
      } finally {
        await client.close();
      }
    });
  } finally {
    await upstream.shutdown();
    await demo.close();
  }
});

Deno.test("proxy: the token is required, and a record may opt out", async () => {
  await withServedService([
    { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" },
    { id: "closed", name: "Closed", transport: "stdio", command: "service:demo", proxy: false },
  ], async (_t, base) => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    };
    const none = await fetch(`${base}/mcp/demo`, { method: "POST", body, headers });
    assert.equal(none.status, 401);
    await none.body?.cancel();
    const wrong = await fetch(`${base}/mcp/demo`, {
      method: "POST",
      body,
      headers: { ...headers, authorization: "Bearer nope" },
    });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    const optedOut = await fetch(`${base}/mcp/closed?token=${TOKEN}`, {
      method: "POST",
      body,
      headers,
    });
    assert.equal(optedOut.status, 404);
    assert.match((await optedOut.json()).error.message, /proxy: false/);
    const foreign = await fetch(`${base}/mcp/demo?token=${TOKEN}`, {
      method: "POST",
      body,
      headers: { ...headers, origin: "https://evil.example" },
    });
    assert.equal(foreign.status, 403);
    await foreign.body?.cancel();
  });
});

Deno.test("proxy: a client holding no token reaches an OAuth-protected server once Lass is signed in", async () => {
  const { startOAuthFixture } = await import("../../fixtures/oauth_mcp_server.ts");
  const fixture = await startOAuthFixture({});
  try {
    await withServedService(
      [{ id: "secure", name: "Secure", transport: "http", url: fixture.url }],
      async (_t, base) => {
        const initialize = JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: "2025-06-18",
            capabilities: {},
            clientInfo: { name: "c", version: "1" },
          },
        });
        const first = await fetch(`${base}/mcp/secure`, {
          method: "POST",
          body: initialize,
          headers: {
            authorization: `Bearer ${TOKEN}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
          },
        });
        const answer = await first.json();
        assert.equal(answer.id, 1);
        assert.match(
          answer.error.message,
          /needs sign-in: sign it in in Lass \(http:\/\/127\.0\.0\.1:\d+\/inspector\/secure\)/,
        );
        const authUrl = new URL(answer.error.data.authUrl);
        assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${fixture.issuer}/authorize`);

        // The user signs in (the browser's part played here): the code comes back to Lass.
        const redirect = await fetch(authUrl, { redirect: "manual" });
        await redirect.body?.cancel();
        const back = new URL(redirect.headers.get("location")!);
        assert.equal(back.pathname, "/oauth/callback");
        const page = await fetch(`${base}${back.pathname}${back.search}`);
        assert.equal(page.status, 200, await page.text());

        const { client, transport } = await proxyClient(base, "secure", { name: "tokenless" });
        try {
          const who = await client.callTool({ name: "whoami", arguments: {} });
          assert.equal(who.isError, undefined, JSON.stringify(who));
          assert.match(textOf(who), /^client=\S+ scopes=/, "the server saw Lass's token");
        } finally {
          await transport.terminateSession().catch(() => {});
          await client.close();
        }
      },
    );
  } finally {
    await fixture.close();
  }
});

Deno.test("proxy: a stdio server that exits mid-call answers the client with an error, and its session ends", async () => {
  const failing = new URL("../../fixtures/mcp_failing_server.ts", import.meta.url).pathname;
  const record = {
    id: "failing",
    name: "Failing",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", failing, "exit"],
  };
  await withServedService([record], async (t, base) => {
    const { client } = await proxyClient(base, "failing", { name: "crash-client" });
    try {
      assert.match(textOf(await client.callTool({ name: "ping", arguments: {} })), /pong/);
      await assert.rejects(
        client.callTool({ name: "crash", arguments: {} }),
        /connection ended before it answered|connection has ended/,
      );
      const closed = await eventSeen(
        t,
        (event) => event.type === "mcp.proxy" && event.data.state === "closed",
        "the crashed server's proxy session to close",
      );
      assert.equal(closed.data.reason, "server");
      await assert.rejects(client.callTool({ name: "ping", arguments: {} }));
    } finally {
      await client.close().catch(() => {});
    }
  });
});

Deno.test("proxy: a record that is changed, then made proxy: false, ends its client sessions", async () => {
  const marker = `changed-marker-${crypto.randomUUID()}`;
  const record = everythingStdio({
    args: ["run", "-A", `--location=http://${marker}.invalid/`, EVERYTHING, "stdio"],
  });
  await withServedService([record], async (t, base) => {
    const put = async (changes: Record<string, unknown>) => {
      const config = configWithServers([{ ...record, ...changes }]);
      const response = await t.call("/api/config", { method: "PUT", json: config });
      assert.equal(response.status, 200, await response.text());
    };
    let { client } = await proxyClient(base, "everything", { name: "first" });
    await client.callTool({ name: "echo", arguments: { message: "before" } });
    await put({ name: "Renamed" });
    const changed = await eventSeen(
      t,
      (event) => event.type === "mcp.proxy" && event.data.reason === "changed",
      "the session of the changed record to close",
    );
    assert.equal((changed.data.client as Json).name, "first");
    await waitUntil(async () => await processesWith(marker) === 0, "its process to stop");
    await client.close().catch(() => {});

    ({ client } = await proxyClient(base, "everything", { name: "second" }));
    await put({ name: "Renamed", proxy: false });
    await eventSeen(
      t,
      (event) => event.type === "mcp.proxy" && event.data.reason === "not proxied",
      "the session of the record that opted out to close",
    );
    await assert.rejects(client.callTool({ name: "echo", arguments: { message: "after" } }));
    await client.close().catch(() => {});
  });
});
