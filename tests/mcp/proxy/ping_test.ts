/**
 * Pings through the proxy (`/mcp/:id`): a server's `ping` reaches the outside client and the
 * client's answer reaches the server, and a client's `ping` is answered, on a bridged stdio server
 * and a passed-through Streamable HTTP one.
 */
import assert from "node:assert/strict";
import { type Json, withServedService } from "../../_helpers.ts";
import { proxyClient, textOf } from "../../_proxy.ts";
import { PING_ANSWERED, servePingHttp } from "../../fixtures/ping_server.ts";

const FIXTURE = new URL("../../fixtures/ping_server.ts", import.meta.url).pathname;

/** Pings both ways through the proxy to `serverId` and checks the trace saw them cross. */
async function pingsBothWays(
  t: { call(path: string): Promise<Response> },
  base: string,
  serverId: string,
): Promise<void> {
  const { client, transport } = await proxyClient(base, serverId, { name: "pinged-client" });
  try {
    let pinged = 0;
    client.setRequestHandler("ping", () => {
      pinged++;
      return {};
    });
    const result = await client.callTool({ name: "ping_client", arguments: {} });
    assert.equal(textOf(result), PING_ANSWERED, JSON.stringify(result));
    assert.equal(pinged, 1, "the server's ping reached the client");
    assert.deepEqual(await client.ping(), {}, "the client's ping is answered");

    const trace = await (await t.call(`/api/mcp/${serverId}/trace?limit=500`)).json();
    const proxied = trace.messages.filter((m: Json) =>
      m.via === "proxy" && m.client?.name === "pinged-client"
    );
    const fromServer = proxied.find((m: Json) => m.dir === "in" && m.message.method === "ping");
    assert.ok(fromServer, "the server's ping is in the trace");
    assert.ok(
      proxied.some((m: Json) =>
        m.dir === "out" && m.message.method === undefined && m.message.id === fromServer.message.id
      ),
      "the client's answer to it is in the trace",
    );
    const fromClient = proxied.find((m: Json) => m.dir === "out" && m.message.method === "ping");
    assert.ok(fromClient, "the client's ping is in the trace");
  } finally {
    await transport.terminateSession().catch(() => {});
    await client.close();
  }
}

Deno.test("proxy: pings both ways through a bridged stdio server", async () => {
  const record = {
    id: "pinging",
    name: "Pinging",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", FIXTURE],
  };
  await withServedService([record], (t, base) => pingsBothWays(t, base, "pinging"));
});

Deno.test("proxy: pings both ways through a passed-through Streamable HTTP server", async () => {
  const server = servePingHttp();
  try {
    const record = { id: "pinging", name: "Pinging", transport: "http", url: server.url };
    await withServedService([record], (t, base) => pingsBothWays(t, base, "pinging"));
  } finally {
    await server.close();
  }
});
