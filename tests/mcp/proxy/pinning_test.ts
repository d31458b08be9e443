/**
 * Pinning's `block` for the proxy's clients: a tool changed since pinned is left out of the
 * `tools/list` answers that reach a client of `/mcp/:id` and a call of it is refused by Lass, on a
 * bridged stdio server and a passed-through Streamable HTTP one (event-stream and JSON answers);
 * accepting the change brings it back with a `notifications/tools/list_changed`; `warn` changes
 * nothing.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import {
  configWithServers,
  eventSeen,
  type Json,
  post,
  serveOverHttp,
  startService,
  type TestService,
  waitUntil,
} from "../../_helpers.ts";
import { proxyClient, textOf } from "../../_proxy.ts";
import { PULLED_DESCRIPTION, serveDriftingHttp } from "../../fixtures/drifting_server.ts";

const FIXTURE = new URL("../../fixtures/drifting_server.ts", import.meta.url).pathname;

/** A served service on a fresh dir with one server record; `run` gets it and its base URL. */
async function withDir(
  record: (dir: string) => Record<string, unknown>,
  run: (t: TestService, base: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "lass-proxy-pins-" });
  const t = await startService({ dir, config: configWithServers([record(dir)]) });
  const served = serveOverHttp(t);
  try {
    await run(t, served.url);
  } finally {
    await served.close();
    await t.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Connects (or reconnects) Lass's own connection to `drift` and answers its state. */
async function connect(t: TestService, force = false): Promise<Json> {
  const { status, body } = await post(t, "/api/mcp/drift/connect", force ? { force } : {});
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.status, "connected", body.error);
  return body;
}

/** Counts the `notifications/tools/list_changed` a client gets. */
function listChanges(client: Client): { readonly count: number } {
  const seen = { count: 0 };
  client.setNotificationHandler("notifications/tools/list_changed", () => void seen.count++);
  return seen;
}

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

/** A call of `echo` refused by Lass: the error names the tool, the reason and the inspector. */
async function assertRefused(client: Client, base: string): Promise<void> {
  await assert.rejects(
    client.callTool({ name: "echo", arguments: { text: "hi" } }),
    (error: Json) => {
      assert.equal(error.code, -32602, String(error));
      assert.match(
        error.message,
        new RegExp(
          `the tool echo of drift changed since pinned; accept it in Lass \\(${base}/inspector/drift\\)`,
        ),
      );
      return true;
    },
  );
}

Deno.test("proxy pinning block, bridged stdio: a tool changed on restart is hidden and refused until accepted", async () => {
  await withDir((dir) => ({
    id: "drift",
    name: "Drifting",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", FIXTURE, "--starts", join(dir, "starts.txt")],
    protocolEra: "legacy",
    pinning: "block",
  }), async (t, base) => {
    await connect(t);
    const state = await connect(t, true);
    assert.equal(state.drift?.pinning, "block", "the restart is a drift");
    // The proxy's own process (the third start) offers the changed echo too.
    const { client, transport } = await proxyClient(base, "drift", { name: "pinned-client" });
    try {
      const changes = listChanges(client);
      assert.deepEqual(await toolNames(client), ["rug_pull"]);
      await assertRefused(client, base);
      const trace = await (await t.call("/api/mcp/drift/trace?limit=500")).json();
      const refusal = trace.messages.find((m: Json) =>
        m.via === "proxy" && m.dir === "in" && m.message.error?.code === -32602
      );
      assert.ok(refusal, "Lass's refusal is in the wire trace");
      assert.equal(refusal.client.name, "pinned-client");

      assert.equal((await post(t, "/api/mcp/drift/pins/accept")).status, 200);
      await waitUntil(() => changes.count > 0, "Lass's tools/list_changed after the accept");
      assert.deepEqual(await toolNames(client), ["echo", "rug_pull"]);
      const echoed = await client.callTool({ name: "echo", arguments: { text: "hi again" } });
      assert.equal(textOf(echoed), "hi again");
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  });
});

for (const json of [false, true]) {
  const answers = json ? "JSON" : "event-stream";
  Deno.test(`proxy pinning block, passed through (${answers} answers): a tool changed mid-session is hidden and refused until accepted`, async () => {
    const server = serveDriftingHttp({ json });
    try {
      await withDir(() => ({
        id: "drift",
        name: "Drifting",
        transport: "http",
        url: server.url,
        pinning: "block",
      }), async (t, base) => {
        await connect(t);
        const { client, transport } = await proxyClient(base, "drift", { name: "http-client" });
        try {
          assert.deepEqual(await toolNames(client), ["echo", "rug_pull"]);
          const pulled = await post(t, "/api/mcp/drift/call", { tool: "rug_pull", args: {} });
          assert.equal(pulled.status, 200, JSON.stringify(pulled.body));
          await eventSeen(
            t,
            (e) => e.type === "mcp.drift" && (e.data as Json).changes?.length > 0,
            "mcp.drift after rug_pull",
          );
          assert.deepEqual(await toolNames(client), ["rug_pull"]);
          await assertRefused(client, base);
          assert.equal(server.echoes, 0, "the refused call never reached the server");

          const changes = listChanges(client);
          assert.equal((await post(t, "/api/mcp/drift/pins/accept")).status, 200);
          await waitUntil(() => changes.count > 0, "Lass's tools/list_changed after the accept");
          const tools = (await client.listTools()).tools;
          assert.equal(tools.find((tool) => tool.name === "echo")?.description, PULLED_DESCRIPTION);
          const echoed = await client.callTool({ name: "echo", arguments: { text: "accepted" } });
          assert.equal(textOf(echoed), "accepted");
          assert.equal(server.echoes, 1);
        } finally {
          await transport.terminateSession().catch(() => {});
          await client.close();
        }
      });
    } finally {
      await server.close();
    }
  });
}

Deno.test("proxy pinning warn: a changed tool is listed and called as the server offers it", async () => {
  const server = serveDriftingHttp();
  try {
    await withDir(() => ({
      id: "drift",
      name: "Drifting",
      transport: "http",
      url: server.url,
      pinning: "warn",
    }), async (t, base) => {
      await connect(t);
      const { client, transport } = await proxyClient(base, "drift", { name: "warned-client" });
      try {
        await post(t, "/api/mcp/drift/call", { tool: "rug_pull", args: {} });
        await eventSeen(
          t,
          (e) => e.type === "mcp.drift" && (e.data as Json).pinning === "warn",
          "mcp.drift (warn) after rug_pull",
        );
        assert.deepEqual(await toolNames(client), ["echo", "rug_pull"]);
        const echoed = await client.callTool({ name: "echo", arguments: { text: "warned" } });
        assert.equal(textOf(echoed), "warned");
        assert.equal(server.echoes, 1);
      } finally {
        await transport.terminateSession().catch(() => {});
        await client.close();
      }
    });
  } finally {
    await server.close();
  }
});

/** The client's side of a stdio relay: lines written to it, answers read by id. */
function stdioClient() {
  const input = new TransformStream<Uint8Array, Uint8Array>();
  const writer = input.writable.getWriter();
  const received: Json[] = [];
  const next = async (match: (message: Json) => boolean, what: string): Promise<Json> => {
    await waitUntil(() => received.some(match), `the relay to send ${what}`);
    return received.find(match)!;
  };
  let nextId = 1;
  return {
    input: input.readable,
    write: (line: string) => {
      received.push(JSON.parse(line));
      return Promise.resolve();
    },
    received,
    next,
    send: (message: Json) =>
      writer.write(new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`)),
    request: async (method: string, params: Json = {}) => {
      const id = nextId++;
      await writer.write(
        new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`),
      );
      return await next((m) => m.id === id && m.method === undefined, `the answer to ${method}`);
    },
    end: () => writer.close(),
  };
}

Deno.test("proxy pinning block, lass proxy's stdio relay: a changed tool is hidden and refused until accepted", async () => {
  const { stdioPinGate } = await import("../../../core/mcp/proxy/stdio_pins.ts");
  const { relayStdio } = await import("../../../core/mcp/proxy/stdio_relay.ts");
  const { createTransport } = await import("../../../core/mcp/session/transports.ts");
  await withDir((dir) => ({
    id: "drift",
    name: "Drifting",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", FIXTURE, "--starts", join(dir, "starts.txt")],
    protocolEra: "legacy",
    pinning: "block",
  }), async (t) => {
    await connect(t);
    await connect(t, true);
    const page = "http://lass.test/inspector/drift";
    const gate = await stdioPinGate(t.service, "drift", page);
    assert.ok(gate, "block gives the relay a gate");
    const opened = await createTransport((await t.service.mcp.proxyTarget("drift")).spec, {
      stderr: () => {},
    });
    const client = stdioClient();
    const relay = relayStdio(opened.transport, {
      input: client.input,
      write: client.write,
      observe: () => {},
      warn: () => {},
      gate,
    });
    try {
      await client.request("initialize", {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "stdio-client", version: "1" },
      });
      await client.send({ method: "notifications/initialized" });
      const listed = await client.request("tools/list");
      assert.deepEqual(listed.result.tools.map((tool: Json) => tool.name), ["rug_pull"]);
      const refused = await client.request("tools/call", {
        name: "echo",
        arguments: { text: "hi" },
      });
      assert.equal(refused.error.code, -32602);
      assert.equal(
        refused.error.message,
        `the tool echo of drift changed since pinned; accept it in Lass (${page})`,
      );

      assert.equal((await post(t, "/api/mcp/drift/pins/accept")).status, 200);
      await client.next(
        (m) => m.method === "notifications/tools/list_changed",
        "tools/list_changed after the accept",
      );
      const again = await client.request("tools/list");
      assert.deepEqual(again.result.tools.map((tool: Json) => tool.name), ["echo", "rug_pull"]);
      const echoed = await client.request("tools/call", {
        name: "echo",
        arguments: { text: "accepted" },
      });
      assert.equal(textOf(echoed.result), "accepted");
    } finally {
      await client.end();
      assert.equal(await relay, "client");
      if (opened.stop) await opened.stop(() => opened.transport.close());
      else await opened.transport.close();
    }
  });
});
