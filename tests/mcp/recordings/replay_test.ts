/** Cassettes and replay: record server-everything, stop it, and replay it in process. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configWithServers, type Json, post, startService } from "../../_helpers.ts";
import { everythingStdio, startEverything } from "../../_everything.ts";
import { cassetteJsonSchema } from "../../../wire/cassette.ts";
import { parseCassette } from "../../../core/mcp/recordings/load.ts";

const LITERAL_SECRET = "s3cr3t-literal-value-4711";
const ENV_SECRET = "k3y-from-the-environment-9876";
const BEARER = "Bearer abcdefghijklmnop0123";

/** What a replayed server must answer as the live one did. */
const CALLS = [
  { tool: "get-sum", args: { a: 20, b: 22 } },
  { tool: "echo", args: { message: "hello cassette" } },
  { tool: "trigger-long-running-operation", args: { duration: 0.2, steps: 2 } },
];

Deno.test("a cassette of server-everything holds its lists and answers, and no secret of the config", async () => {
  const t = await startService({
    config: configWithServers([everythingStdio({
      env: { SECRET_TOKEN: LITERAL_SECRET, API_KEY: "env:LASS_REC_KEY" },
    })]),
    env: { LASS_REC_KEY: ENV_SECRET },
  });
  let text: string;
  try {
    const state = (await post(t, "/api/mcp/everything/connect")).body;
    assert.equal(state.status, "connected", state.error);
    for (const call of CALLS) {
      assert.equal((await post(t, "/api/mcp/everything/call", call)).status, 200);
    }
    // The server prints its environment (both secrets), and echoes a bearer credential.
    const env = (await post(t, "/api/mcp/everything/call", { tool: "get-env", args: {} })).body;
    assert.match(JSON.stringify(env), new RegExp(ENV_SECRET));
    await post(t, "/api/mcp/everything/call", { tool: "echo", args: { message: BEARER } });
    const response = await t.call("/api/mcp/everything/cassette?download=1");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-disposition") ?? "", /everything\.cassette\.json/);
    text = await response.text();
  } finally {
    await t.close();
  }
  for (const secret of [LITERAL_SECRET, ENV_SECRET, "abcdefghijklmnop0123"]) {
    assert.ok(!text.includes(secret), `the cassette holds ${secret}`);
  }
  const cassette = parseCassette(text, "the cassette");
  assert.equal(cassette.server.era, "legacy");
  assert.equal(cassette.server.serverInfo?.name, "mcp-servers/everything");
  assert.ok(cassette.server.handshake, "the raw initialize result");
  assert.ok(cassette.lists.tools.some((tool) => tool.name === "get-sum"));
  const sum = cassette.exchanges.find((e) => e.request.params?.name === "get-sum")!;
  assert.match(JSON.stringify(sum.result), /62|42/);
  assert.ok(typeof sum.ms === "number");
  const long = cassette.exchanges.find((e) =>
    e.request.params?.name === "trigger-long-running-operation"
  )!;
  const progress = (long.events ?? []).filter((e) => e.message.method === "notifications/progress");
  assert.equal(progress.length, 2, "each progress notification, in its exchange");
});

Deno.test("a cassette of a Streamable HTTP server holds no header value nor OAuth client secret of its record, even echoed", async () => {
  const everything = await startEverything("streamableHttp");
  const header = "hdr-s3cr3t-value-0815";
  const clientSecret = "oauth-s3cr3t-value-4242";
  const t = await startService({
    config: configWithServers([{
      id: "remote",
      name: "Remote",
      transport: "http",
      url: everything.url,
      headers: { "x-api-key": header },
      oauth: { clientId: "lass-test", clientSecret },
    }]),
  });
  try {
    const state = (await post(t, "/api/mcp/remote/connect")).body;
    assert.equal(state.status, "connected", state.error);
    const echoed = await post(t, "/api/mcp/remote/call", {
      tool: "echo",
      args: { message: `${header} and ${clientSecret}` },
    });
    assert.equal(echoed.status, 200);
    const text = await (await t.call("/api/mcp/remote/cassette")).text();
    assert.ok(text.includes("echo"), "the call is in the cassette");
    assert.ok(!text.includes(header), "the header value is removed");
    assert.ok(!text.includes(clientSecret), "the OAuth client secret is removed");
    assert.match(text, /<redacted> and <redacted>/);
  } finally {
    await t.close();
    await everything.stop();
  }
});

Deno.test("replay: a stopped server's cassette gives the same lists and results, and names the closest recording when nothing matches", async () => {
  const live = await startService({ config: configWithServers([everythingStdio()]) });
  const answers: Json[] = [];
  let liveState: Json;
  try {
    liveState = (await post(live, "/api/mcp/everything/connect")).body;
    for (const call of CALLS) {
      answers.push((await post(live, "/api/mcp/everything/call", call)).body.result);
    }
    answers.push(
      (await post(live, "/api/mcp/everything/resource", { uri: liveState.resources[0].uri })).body,
    );
    answers.push(
      (await post(live, "/api/mcp/everything/prompt", { name: "simple-prompt", args: {} })).body,
    );
    await writeFile(
      join(live.dir, "everything.cassette.json"),
      await (await live.call("/api/mcp/everything/cassette")).text(),
    );
  } finally {
    await live.service.close(); // The server is stopped; the folder stays for the replay.
  }
  const t = await startService({
    dir: live.dir,
    config: configWithServers([{
      id: "everything",
      name: "Everything, replayed",
      transport: "replay",
      cassette: "everything.cassette.json",
      speed: 0,
    }]),
  });
  try {
    const state = (await post(t, "/api/mcp/everything/connect")).body;
    assert.equal(state.status, "connected", state.error);
    assert.equal(state.transport, "replay");
    for (const field of ["serverInfo", "capabilities", "instructions", "era", "protocolVersion"]) {
      assert.deepEqual(state[field], liveState[field], field);
    }
    for (const list of ["tools", "prompts", "resources", "resourceTemplates"]) {
      assert.deepEqual(state[list], liveState[list], list);
    }
    const replayed: Json[] = [];
    for (const call of CALLS) {
      replayed.push((await post(t, "/api/mcp/everything/call", call)).body.result);
    }
    replayed.push(
      (await post(t, "/api/mcp/everything/resource", { uri: liveState.resources[0].uri })).body,
    );
    replayed.push(
      (await post(t, "/api/mcp/everything/prompt", { name: "simple-prompt", args: {} })).body,
    );
    assert.deepEqual(replayed, answers);

    const unmatched = await post(t, "/api/mcp/everything/call", {
      tool: "get-sum",
      args: { a: 1, b: 2 },
    });
    assert.equal(unmatched.status, 502);
    assert.match(unmatched.body.error.message, /no recorded tools\/call of "get-sum"/);
    assert.match(unmatched.body.error.message, /closest recorded request is tools\/call/);
    assert.match(unmatched.body.error.message, /"a":20,"b":22/);
  } finally {
    await t.close();
    await Deno.remove(live.dir, { recursive: true });
  }
});

Deno.test("replay with match: tool answers a call with other arguments from the same tool's closest recording", async () => {
  const live = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    await post(live, "/api/mcp/everything/call", { tool: "get-sum", args: { a: 1, b: 2 } });
    await post(live, "/api/mcp/everything/call", { tool: "get-sum", args: { a: 10, b: 20 } });
    await writeFile(
      join(live.dir, "sum.cassette.json"),
      await (await live.call("/api/mcp/everything/cassette")).text(),
    );
  } finally {
    await live.service.close();
  }
  const t = await startService({
    dir: live.dir,
    config: configWithServers([{
      id: "everything",
      name: "Replayed",
      transport: "replay",
      cassette: "sum.cassette.json",
      match: "tool",
      speed: 0,
    }]),
  });
  try {
    const close = await post(t, "/api/mcp/everything/call", {
      tool: "get-sum",
      args: { a: 10, b: 21 },
    });
    assert.match(JSON.stringify(close.body.result), /30/);
  } finally {
    await t.close();
    await Deno.remove(live.dir, { recursive: true });
  }
});

Deno.test("a replay record without a cassette, or with stdio fields, is refused with paths", async () => {
  const t = await startService();
  try {
    const config = configWithServers([{ id: "r", name: "R", transport: "replay", command: "x" }]);
    const response = await t.call("/api/config", { method: "PUT", json: config });
    const body = await response.json();
    assert.equal(response.status, 400);
    const paths = body.error.details.map((detail: Json) => `${detail.path}: ${detail.message}`);
    assert.ok(paths.includes("mcpServers.0.cassette: is required for replay"), paths.join("\n"));
    assert.ok(paths.includes("mcpServers.0.command: applies only to stdio"), paths.join("\n"));
  } finally {
    await t.close();
  }
});

Deno.test("schema/cassette.schema.json is the JSON Schema of the zod schema (run `deno task schema`)", async () => {
  const committed = await readFile(
    new URL("../../../schema/cassette.schema.json", import.meta.url),
    "utf8",
  );
  assert.deepEqual(JSON.parse(committed), cassetteJsonSchema());
});

Deno.test("replay in the 2026 era: the demo server recorded over server/discover replays to modern and auto clients", async () => {
  const live = await startService({
    config: configWithServers([{
      id: "demo",
      name: "Demo",
      transport: "stdio",
      command: "service:demo",
      protocolEra: "modern",
    }]),
  });
  let liveState: Json;
  let sum: Json;
  try {
    liveState = (await post(live, "/api/mcp/demo/connect")).body;
    assert.equal(liveState.era, "modern");
    sum = (await post(live, "/api/mcp/demo/call", { tool: "add", args: { a: 1, b: 2 } })).body;
    const cassette = await (await live.call("/api/mcp/demo/cassette")).json();
    assert.equal(cassette.server.era, "modern");
    assert.ok(cassette.server.handshake.supportedVersions.includes("2026-07-28"));
    const listen = cassette.exchanges.find((e: Json) =>
      e.request.method === "subscriptions/listen"
    );
    assert.equal(listen?.ms, undefined, "a listen stream has no answer");
    await writeFile(join(live.dir, "demo.cassette.json"), JSON.stringify(cassette));
  } finally {
    await live.service.close();
  }
  for (const protocolEra of ["modern", "auto"]) {
    const t = await startService({
      dir: live.dir,
      config: configWithServers([{
        id: "demo",
        name: "Demo, replayed",
        transport: "replay",
        cassette: "demo.cassette.json",
        speed: 0,
        protocolEra,
      }]),
    });
    try {
      const state = (await post(t, "/api/mcp/demo/connect")).body;
      assert.equal(state.status, "connected", state.error);
      assert.equal(state.era, "modern", protocolEra);
      assert.equal(state.protocolVersion, "2026-07-28");
      assert.deepEqual(state.tools, liveState.tools);
      const replayed = (await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 1, b: 2 } }))
        .body;
      assert.deepEqual(replayed.result, sum.result);
    } finally {
      await t.close();
    }
  }
  await Deno.remove(live.dir, { recursive: true });
});
