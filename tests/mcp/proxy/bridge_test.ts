/**
 * The proxy's bridge on an in-memory channel: request ids are the channel's own, and what a
 * client sends about its requests (a cancellation) names them as the server knows them.
 */
import assert from "node:assert/strict";
import { InMemoryTransport } from "@modelcontextprotocol/client";
import { MessageBridge } from "../../../core/mcp/proxy/bridge.ts";
import { ProxyRegistry } from "../../../core/mcp/proxy/registry.ts";
import { EventBus } from "../../../core/events.ts";
import type { Json } from "../../_helpers.ts";

Deno.test("the bridge maps request ids both ways and a client's cancellation to the server's id", async () => {
  const [lassSide, serverSide] = InMemoryTransport.createLinkedPair();
  const received: Json[] = [];
  serverSide.onmessage = (message) => void received.push(message);
  await serverSide.start();
  const registry = new ProxyRegistry(new EventBus(), () => () => {});
  const session = registry.open("s", "http");
  const bridge = new MessageBridge(lassSide, session);
  await bridge.start();
  const response = await bridge.post([
    { jsonrpc: "2.0", id: "client-7", method: "tools/call", params: { name: "slow" } },
  ], session);
  assert.equal(received.length, 1);
  const serverId = received[0].id;
  assert.notEqual(serverId, "client-7", "the server sees the channel's own id");

  await bridge.post([{
    jsonrpc: "2.0",
    method: "notifications/cancelled",
    params: { requestId: "client-7", reason: "the user stopped it" },
  }], session);
  assert.deepEqual(received[1].params, { requestId: serverId, reason: "the user stopped it" });

  await serverSide.send({ jsonrpc: "2.0", id: serverId, result: { content: [] } });
  const text = await response.text();
  assert.match(text, /"id":"client-7"/, "the answer carries the client's id");
  await bridge.close();
  await session.close("client");
});
