/**
 * A proxy session's cassette: an outside MCP client (the SDK's) talks to server-everything
 * through `/mcp/:id`; `GET /api/mcp/:id/cassette?session=` holds that client's exchanges alone,
 * and the cassette replays them.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  configWithServers,
  type Json,
  post,
  serveOverHttp,
  startService,
  TOKEN,
} from "../../_helpers.ts";
import { everythingStdio } from "../../_everything.ts";

Deno.test("GET /api/mcp/:id/cassette?session= is one proxy client's cassette, and it replays", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  const served = serveOverHttp(t);
  let proxied: Json;
  try {
    // Lass's own session makes a call that the proxy session's cassette must not hold.
    await post(t, "/api/mcp/everything/call", { tool: "echo", args: { message: "lass itself" } });
    const client = new Client({ name: "outside-client", version: "2.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${served.url}/mcp/everything`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    try {
      proxied = await client.callTool({ name: "get-sum", arguments: { a: 4, b: 5 } });
    } finally {
      await client.close();
    }
    const clients = (await (await t.call("/api/mcp/everything/proxy")).json()).clients;
    const session = clients.find((c: Json) => c.client?.name === "outside-client")?.session ??
      (await t.call("/api/mcp/everything/trace?limit=2000").then((r) => r.json()))
        .messages.find((m: Json) => m.client?.name === "outside-client")?.session;
    assert.ok(session, "the proxy session is known");
    const response = await t.call(
      `/api/mcp/everything/cassette?session=${encodeURIComponent(session)}`,
    );
    assert.equal(response.status, 200);
    const cassette = await response.json();
    const calls = cassette.exchanges.filter((e: Json) => e.request.method === "tools/call");
    assert.deepEqual(calls.map((e: Json) => e.request.params.name), ["get-sum"]);
    assert.ok(cassette.server.handshake, "the client's own initialize is in its session");
    assert.equal(cassette.server.serverInfo.name, "mcp-servers/everything");
    await writeFile(join(t.dir, "proxied.cassette.json"), JSON.stringify(cassette));

    const own = await (await t.call("/api/mcp/everything/cassette")).json();
    const ownCalls = own.exchanges.filter((e: Json) => e.request.method === "tools/call");
    assert.deepEqual(ownCalls.map((e: Json) => e.request.params.name), ["echo"]);
  } finally {
    await served.close();
    await t.service.close();
  }
  const replay = await startService({
    dir: t.dir,
    config: configWithServers([{
      id: "everything",
      name: "Replayed proxy session",
      transport: "replay",
      cassette: "proxied.cassette.json",
      speed: 0,
    }]),
  });
  try {
    const sum = await post(replay, "/api/mcp/everything/call", {
      tool: "get-sum",
      args: { a: 4, b: 5 },
    });
    assert.deepEqual(sum.body.result, proxied);
  } finally {
    await replay.close();
    await Deno.remove(t.dir, { recursive: true });
  }
});
