/** Connections that heal: a forgotten Streamable HTTP session, servers that go away and come back, chat meanwhile. */
import assert from "node:assert/strict";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
import { z } from "zod";
import { startEverything } from "../_everything.ts";
import { chat, ofType, user } from "../_chat.ts";
import { configWithServers, post, startService, waitForEvent } from "../_helpers.ts";

/**
 * A sessionful 2025 Streamable HTTP server with an `echo` tool whose sessions can be dropped, as a
 * restarted server drops them: a request with an unknown `Mcp-Session-Id` gets 404.
 */
function forgetfulServer() {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const servers: McpServer[] = [];
  const http = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const id = req.headers.get("mcp-session-id");
    if (id) {
      const transport = sessions.get(id);
      if (transport) return await transport.handleRequest(req);
      return Response.json(
        { jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null },
        { status: 404 },
      );
    }
    if (req.method !== "POST") return new Response(null, { status: 405 });
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
      });
    const server = new McpServer({ name: "forgetful", version: "1.0.0" });
    server.registerTool(
      "echo",
      { inputSchema: z.object({ text: z.string() }) },
      ({ text }) => ({ content: [{ type: "text" as const, text }] }),
    );
    servers.push(server);
    await server.connect(transport);
    return await transport.handleRequest(req);
  });
  const closeAll = async () => {
    await Promise.all(servers.splice(0).map((server) => server.close().catch(() => {})));
    sessions.clear();
  };
  return {
    url: `http://127.0.0.1:${http.addr.port}/mcp`,
    sessions,
    /** Drops every session, as a restart does. */
    forget: closeAll,
    stop: async () => {
      await closeAll();
      await http.shutdown();
    },
  };
}

Deno.test("a Streamable HTTP server that forgot the session: the next call starts a new session and succeeds", async () => {
  const peer = forgetfulServer();
  const t = await startService({
    config: configWithServers([
      { id: "f", name: "Forgetful", transport: "http", url: peer.url, oauth: false },
    ]),
  });
  try {
    const connected = (await post(t, "/api/mcp/f/connect")).body;
    assert.equal(connected.status, "connected");
    assert.equal(connected.era, "legacy", "a 2025-only server is reached as legacy under auto");
    const first = await post(t, "/api/mcp/f/call", { tool: "echo", args: { text: "one" } });
    assert.equal(first.body.result.content[0].text, "one");
    const before = [...peer.sessions.keys()];
    await peer.forget();
    const renewed = waitForEvent(
      t,
      (e) => e.type === "mcp.log" && /forgot the session/.test(String(e.data.message)),
      { what: "the log line of a renewed session" },
    );
    const second = await post(t, "/api/mcp/f/call", { tool: "echo", args: { text: "two" } });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.equal(second.body.result.content[0].text, "two");
    await renewed;
    assert.equal(t.service.mcp.state("f").status, "connected");
    assert.equal(peer.sessions.size, 1, "one new session");
    assert.ok(!before.includes([...peer.sessions.keys()][0]), "the session is a new one");
  } finally {
    await t.close();
    await peer.stop();
  }
});

for (const mode of ["streamableHttp", "sse"] as const) {
  const transport = mode === "sse" ? "sse" : "http";
  Deno.test(`an ${transport} server that goes away is in error, then reconnects by itself when it returns`, async () => {
    let peer = await startEverything(mode);
    const config = configWithServers([
      { id: "remote", name: "Remote", transport, url: peer.url, oauth: false },
    ]);
    (config.workspaces as { mcpServerIds: string[] }[])[0].mcpServerIds = ["remote"];
    const t = await startService({ config });
    try {
      assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
      const lost = waitForEvent(
        t,
        (e) => e.type === "mcp.state" && e.data.id === "remote" && e.data.status === "error",
        { what: "mcp.state error after the server went away", ms: 20_000 },
      );
      await peer.stop();
      const error = await lost;
      assert.match(String(error.data.error), /cannot reach/);
      const back = waitForEvent(
        t,
        (e) => e.type === "mcp.state" && e.data.id === "remote" && e.data.status === "connected",
        { what: "mcp.state connected after the server came back", ms: 60_000 },
      );
      peer = await startEverything(mode, peer.port);
      await back;
      const call = await post(t, "/api/mcp/remote/call", { tool: "echo", args: { message: "hi" } });
      assert.equal(call.status, 200, JSON.stringify(call.body));
      assert.equal(call.body.result.content[0].text, "Echo: hi");
    } finally {
      await t.close();
      await peer.stop();
    }
  });
}

Deno.test("a chat turn during an outage goes on without the server's tools and says so; after healing they are back", async () => {
  let peer = await startEverything("streamableHttp");
  const config = configWithServers([
    { id: "remote", name: "Remote", transport: "http", url: peer.url, oauth: false },
  ]);
  (config.workspaces as { mcpServerIds: string[] }[])[0].mcpServerIds = ["remote"];
  const t = await startService({ config });
  try {
    assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
    const healthy = ofType((await chat(t, { messages: [user("hello")] })).chunks, "start")[0];
    assert.ok(healthy.tools > 0);
    assert.equal(healthy.unavailable, undefined);

    const lost = waitForEvent(
      t,
      (e) => e.type === "mcp.state" && e.data.id === "remote" && e.data.status === "error",
      { what: "mcp.state error after the server went away", ms: 20_000 },
    );
    await peer.stop();
    await lost;
    const { chunks } = await chat(t, { messages: [user("hello")] });
    const start = ofType(chunks, "start")[0];
    assert.ok(start.tools < healthy.tools, "the server's tools are left out");
    assert.equal(start.unavailable?.[0]?.serverId, "remote");
    assert.match(start.unavailable[0].error, /cannot reach/);
    assert.equal(ofType(chunks, "finish").length, 1, "the turn still finishes");

    const back = waitForEvent(
      t,
      (e) => e.type === "mcp.state" && e.data.id === "remote" && e.data.status === "connected",
      { what: "mcp.state connected after the server came back", ms: 60_000 },
    );
    peer = await startEverything("streamableHttp", peer.port);
    await back;
    const healed = ofType((await chat(t, { messages: [user("hello")] })).chunks, "start")[0];
    assert.equal(healed.tools, healthy.tools);
    assert.equal(healed.unavailable, undefined);
  } finally {
    await t.close();
    await peer.stop();
  }
});
