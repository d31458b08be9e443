/**
 * `lass proxy` over stdio, launched by the MCP SDK's stdio client the way Claude Desktop launches a
 * command: to a configured server, and around any stdio command, its traffic reported to a running
 * Lass.
 */
import assert from "node:assert/strict";
import { processesWith } from "../_process.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { cliHome, launchStdio as launch, runLass, serveLass } from "../_cli.ts";
import { EVERYTHING, everythingStdio } from "../_everything.ts";
import {
  configWithServers,
  eventSeen,
  type Json,
  serveOverHttp,
  startService,
  TOKEN,
  waitUntil,
} from "../_helpers.ts";

Deno.test("lass proxy <id> relays a configured server over stdio", async () => {
  const home = await cliHome(
    configWithServers([{ id: "demo", name: "Demo", transport: "stdio", command: "service:demo" }]),
  );
  try {
    const { client } = await launch([...home.args, "demo"], "desktop-like");
    try {
      const tools = await client.listTools();
      assert.ok(tools.tools.some((tool) => tool.name === "echo"), "the demo's tools come through");
      const result = await client.callTool({ name: "echo", arguments: { text: "over stdio" } });
      assert.match(JSON.stringify(result), /over stdio/);
    } finally {
      await client.close();
    }
  } finally {
    await home.close();
  }
});

Deno.test("lass proxy refuses a record that opts out, and an unknown id, with exit 1 and nothing on stdout", async () => {
  const home = await cliHome(configWithServers([
    { id: "closed", name: "Closed", transport: "stdio", command: "service:demo", proxy: false },
  ]));
  try {
    const refused = await runLass(["proxy", ...home.args, "closed"]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /proxy: false/);
    const unknown = await runLass(["proxy", ...home.args, "nope"]);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no tool server has id nope/);
  } finally {
    await home.close();
  }
});

Deno.test("lass proxy -- <command> wraps a stdio server and reports to a running Lass", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  const served = serveOverHttp(t);
  try {
    const { client } = await launch([
      "--url",
      served.url,
      "--token",
      TOKEN,
      "--id",
      "everything",
      "--",
      Deno.execPath(),
      "run",
      "-A",
      EVERYTHING,
      "stdio",
    ], "wrapped-client");
    let session: string | undefined;
    try {
      const result = await client.callTool({ name: "echo", arguments: { message: "wrapped" } });
      assert.match(JSON.stringify(result), /wrapped/);
      await waitUntil(async () => {
        const { clients } = await (await t.call("/api/mcp/everything/proxy")).json();
        session = clients.find((c: Json) => c.client?.name === "wrapped-client")?.session;
        return session !== undefined &&
          clients.find((c: Json) => c.session === session).messages >= 4;
      }, "the stdio session to be reported with its messages");
    } finally {
      await client.close();
    }
    const closed = await eventSeen(
      t,
      (event) =>
        event.type === "mcp.proxy" && event.data.state === "closed" &&
        event.data.session === session,
      "the stdio session's mcp.proxy closed event",
    );
    assert.equal(closed.data.transport, "stdio");
    const trace = await (await t.call("/api/mcp/everything/trace?limit=2000")).json();
    const mine = trace.messages.filter((m: Json) => m.session === session);
    assert.ok(mine.some((m: Json) => m.dir === "out" && m.message.method === "tools/call"));
    assert.ok(mine.every((m: Json) => m.via === "proxy"));
  } finally {
    await served.close();
    await t.close();
  }
});

Deno.test("lass proxy --record writes a cassette with no secret in it, and lass replay serves it", async () => {
  const home = await cliHome({});
  const cassette = `${home.dir}/wrapped.cassette.json`;
  const secret = "sk-secret-value-123456";
  try {
    const { client } = await launch(
      ["--record", cassette, "--", Deno.execPath(), "run", "-A", EVERYTHING, "stdio"],
      "recording-client",
      { env: { MY_API_TOKEN: secret } },
    );
    const tools = await client.listTools();
    const echoed = await client.callTool({ name: "echo", arguments: { message: "recorded" } });
    const env = await client.callTool({ name: "get-env", arguments: {} });
    assert.match(JSON.stringify(env), new RegExp(secret), "the server saw the secret");
    await client.close();
    // The proxy writes the cassette once its stdin has closed: wait for a whole JSON file.
    await waitUntil(
      async () => await Deno.readTextFile(cassette).then((text) => JSON.parse(text), () => null),
      "the cassette to be written",
    );
    const text = await Deno.readTextFile(cassette);
    assert.ok(!text.includes(secret), "the secret was removed");

    const replayed = await launch(["--speed", "0", cassette], "replay-client", {
      command: "replay",
    });
    try {
      assert.deepEqual(
        (await replayed.client.listTools()).tools.map((tool) => tool.name),
        tools.tools.map((tool) => tool.name),
      );
      const again = await replayed.client.callTool({
        name: "echo",
        arguments: { message: "recorded" },
      });
      assert.deepEqual(again.content, echoed.content);
    } finally {
      await replayed.client.close();
    }
  } finally {
    await home.close();
  }
});

Deno.test("lass serve proxies /mcp/:id to a stdio server for a client in another process, and stops its process", async () => {
  const marker = `served-proxy-${crypto.randomUUID()}`;
  const home = await cliHome(configWithServers([everythingStdio({
    args: ["run", "-A", `--location=http://${marker}.invalid/`, EVERYTHING, "stdio"],
  })]));
  const lass = await serveLass([...home.args, "--sandbox-port", "0"]);
  try {
    const client = new Client({ name: "other-process", version: "1.0.0" }, { capabilities: {} });
    const transport = new StreamableHTTPClientTransport(new URL(`${lass.origin}/mcp/everything`), {
      requestInit: { headers: { authorization: `Bearer ${lass.token}` } },
    });
    await client.connect(transport);
    const result = await client.callTool({ name: "echo", arguments: { message: "served" } });
    assert.match(JSON.stringify(result), /served/);
    assert.equal(await processesWith(marker), 1, "the client session's own server process");
    await transport.terminateSession();
    await client.close();
    await waitUntil(async () => await processesWith(marker) === 0, "the server process to stop");
  } finally {
    await lass.stop();
    await home.close();
  }
});
