/** The tool-server manager and /api/mcp against real peers: server-everything and failing fixtures. */
import assert from "node:assert/strict";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  startService,
  waitForEvent,
} from "../_helpers.ts";
import { EVERYTHING } from "../_everything.ts";

const FAILING = new URL("../fixtures/mcp_failing_server.ts", import.meta.url).pathname;
const DENO = Deno.execPath();

function stdioServer(id: string, args: string[], extra: Record<string, unknown> = {}) {
  return { id, name: id, transport: "stdio", command: DENO, args, ...extra };
}

Deno.test("server-everything over stdio: connect, list, call, read, prompt, over HTTP", async () => {
  const t = await startService({
    config: configWithServers([
      stdioServer("everything", ["run", "-A", EVERYTHING, "stdio"], { disabledTools: ["echo"] }),
    ]),
  });
  try {
    const states: string[] = [];
    t.service.events.subscribe((e) => e.type === "mcp.state" && states.push(String(e.data.status)));
    const connected = await post(t, "/api/mcp/everything/connect");
    assert.equal(connected.status, 200);
    assert.equal(connected.body.status, "connected", connected.body.error);
    assert.deepEqual(states, ["connecting", "connected"]);
    assert.equal(connected.body.serverInfo.name, "mcp-servers/everything");
    assert.ok(connected.body.tools.length >= 10);
    const echo = connected.body.tools.find((tool: Json) => tool.name === "echo");
    assert.deepEqual([echo.disabled, echo.modelVisible, echo.modelName], [
      true,
      false,
      "everything__echo",
    ]);
    assert.ok(connected.body.prompts.length > 0 && connected.body.resources.length > 0);

    const listed = await readJsonResponse(await t.call("/api/mcp"));
    assert.equal(listed.body.servers[0].status, "connected");

    const sum = await post(t, "/api/mcp/everything/call", {
      tool: "get-sum",
      args: { a: 2, b: 3 },
    });
    assert.equal(sum.status, 200);
    assert.match(JSON.stringify(sum.body.result.content), /5/);
    assert.ok(sum.body.durationMs >= 0);

    const badArgs = await post(t, "/api/mcp/everything/call", {
      tool: "get-sum",
      args: { a: "x" },
    });
    assert.equal(badArgs.status, 200, "the server's own validation error is a tool result");
    assert.equal(badArgs.body.result.isError, true);

    const disabled = await post(t, "/api/mcp/everything/call", {
      tool: "echo",
      args: { message: "hi" },
    });
    assert.deepEqual([disabled.status, disabled.body.error.code], [400, "invalid-request"]);
    assert.match(disabled.body.error.message, /disabled/);
    const unknown = await post(t, "/api/mcp/everything/call", { tool: "nope", args: {} });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, "not-found"]);

    const uri = connected.body.resources[0].uri;
    const resource = await post(t, "/api/mcp/everything/resource", { uri });
    assert.equal(resource.status, 200);
    assert.equal(resource.body.contents[0].uri, uri);
    const promptName = connected.body.prompts.find((p: Json) => !p.arguments?.length)?.name ??
      connected.body.prompts[0].name;
    const prompt = await post(t, "/api/mcp/everything/prompt", { name: promptName, args: {} });
    assert.equal(prompt.status, 200, JSON.stringify(prompt.body));
    assert.ok(prompt.body.messages.length > 0);

    const disconnected = await post(t, "/api/mcp/everything/disconnect");
    assert.equal(disconnected.body.status, "disconnected");
  } finally {
    await t.close();
  }
});

Deno.test("unknown servers are 404 on every /api/mcp/:id route", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    for (
      const [path, body] of [
        ["/api/mcp/ghost/connect", {}],
        ["/api/mcp/ghost/disconnect", undefined],
        ["/api/mcp/ghost/call", { tool: "x", args: {} }],
        ["/api/mcp/ghost/resource", { uri: "x://y" }],
        ["/api/mcp/ghost/prompt", { name: "p", args: {} }],
      ] as const
    ) {
      const { status, body: error } = await post(t, path, body);
      assert.deepEqual([status, error.error.code], [404, "not-found"], path);
    }
  } finally {
    await t.close();
  }
});

Deno.test("a stdio server that exits before it is ready starts once: its stderr is in the error once", async () => {
  const t = await startService({
    config: configWithServers([{
      id: "boom",
      name: "Boom",
      transport: "stdio",
      command: "sh",
      args: ["-c", "echo boom >&2; exit 3"],
    }]),
  });
  try {
    const state = (await post(t, "/api/mcp/boom/connect")).body;
    assert.equal(state.status, "error");
    assert.equal(state.error, "the server exited before it was ready\nstderr:\nboom");
  } finally {
    await t.close();
  }
});

Deno.test("a server that exits mid-call: 502, error state with its stderr, restart on next connect", async () => {
  const t = await startService({
    config: configWithServers([stdioServer("fragile", ["run", "-A", FAILING, "exit"])]),
  });
  try {
    assert.equal((await post(t, "/api/mcp/fragile/connect")).body.status, "connected");
    const crashed = await post(t, "/api/mcp/fragile/call", { tool: "crash", args: {} });
    assert.deepEqual([crashed.status, crashed.body.error.code], [502, "upstream-error"]);
    const state = t.service.mcp.state("fragile");
    assert.equal(state.status, "error");
    assert.match(state.error!, /exited/);
    assert.match(state.error!, /crashed on purpose/, "the tail of stderr is in the message");
    const again = await post(t, "/api/mcp/fragile/call", { tool: "ping", args: {} });
    assert.equal(again.status, 200, "the next use starts it again");
    assert.equal(again.body.result.content[0].text, "pong");
  } finally {
    await t.close();
  }
});

Deno.test("a call that hangs times out with 504 and the connection stays usable", async () => {
  const t = await startService({
    config: configWithServers([stdioServer("slow", ["run", "-A", FAILING, "hang"])]),
    mcp: { callTimeoutMs: 400 },
  });
  try {
    const hung = await post(t, "/api/mcp/slow/call", { tool: "hang", args: {} });
    assert.deepEqual([hung.status, hung.body.error.code], [504, "timeout"]);
    const next = await post(t, "/api/mcp/slow/call", { tool: "ping", args: {} });
    assert.equal(next.body.result.content[0].text, "pong");
    assert.equal(t.service.mcp.state("slow").status, "connected");
  } finally {
    await t.close();
  }
});

Deno.test("non-JSON on stdout is skipped and the server still works", async () => {
  const t = await startService({
    config: configWithServers([stdioServer("noisy", ["run", "-A", FAILING, "garbage"])]),
  });
  try {
    // SDK v2 skips stdout lines that are not JSON (a server's stray prints), as the spec allows.
    assert.equal((await post(t, "/api/mcp/noisy/connect")).body.status, "connected");
    const pong = await post(t, "/api/mcp/noisy/call", { tool: "ping", args: {} });
    assert.equal(pong.body.result.content[0].text, "pong");
  } finally {
    await t.close();
  }
});

Deno.test("a server that never answers initialize times out into the error state", async () => {
  const t = await startService({
    config: configWithServers([
      stdioServer("mute", ["run", "-A", FAILING, "silent"], { timeoutMs: 500 }),
    ]),
  });
  try {
    const state = (await post(t, "/api/mcp/mute/connect")).body;
    assert.equal(state.status, "error");
    assert.match(state.error, /no answer to initialize within 0.5 s/);
  } finally {
    await t.close();
  }
});

Deno.test("a command that does not exist is an error that says so", async () => {
  const t = await startService({
    config: configWithServers([{
      id: "nope",
      name: "Nope",
      transport: "stdio",
      command: "lass-no-such-command-42",
    }]),
  });
  try {
    const state = (await post(t, "/api/mcp/nope/connect")).body;
    assert.equal(state.status, "error");
    assert.match(state.error, /command not found: lass-no-such-command-42/);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/mcp/test connects a draft without saving it; failures are in the body", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    const draft = stdioServer("draft", ["run", "-A", FAILING, "hang"]);
    const ok = await post(t, "/api/mcp/test", { server: draft });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.ok, true, ok.body.error);
    assert.deepEqual(ok.body.tools.map((tool: Json) => tool.name).sort(), [
      "crash",
      "grow",
      "hang",
      "ping",
    ]);
    assert.ok(ok.body.latencyMs > 0);
    assert.deepEqual(t.service.config.config.mcpServers, [], "nothing is saved");
    const broken = await post(t, "/api/mcp/test", {
      server: { id: "x", name: "X", transport: "stdio", command: "lass-no-such-command-42" },
    });
    assert.equal(broken.status, 200);
    assert.equal(broken.body.ok, false);
    assert.match(broken.body.error, /command not found/);
    const invalid = await post(t, "/api/mcp/test", {
      server: { id: "x", name: "X", transport: "http" },
    });
    assert.deepEqual([invalid.status, invalid.body.error.details[0].path], [400, "server.url"]);
  } finally {
    await t.close();
  }
});

Deno.test("a config change reconnects changed servers and drops removed ones", async () => {
  const config = configWithServers([
    stdioServer("a", ["run", "-A", FAILING, "hang"]),
    stdioServer("b", ["run", "-A", FAILING, "hang"]),
  ]);
  const t = await startService({ config });
  try {
    await post(t, "/api/mcp/a/connect");
    await post(t, "/api/mcp/b/connect");
    const changed = structuredClone(config) as Json;
    changed.mcpServers = [{ ...changed.mcpServers[0], timeoutMs: 20_000 }];
    const reconnected = waitForEvent(
      t,
      (e) => e.type === "mcp.state" && e.data.id === "a" && e.data.status === "connected",
    );
    const removed = waitForEvent(
      t,
      (e) => e.type === "mcp.state" && e.data.id === "b" && e.data.removed === true,
    );
    const put = await t.call("/api/config", { method: "PUT", json: changed });
    assert.equal((await readJsonResponse(put)).status, 200);
    await Promise.all([reconnected, removed]);
    assert.deepEqual(t.service.mcp.states().map((s) => s.id), ["a"]);

    // Settings read at use apply to the open connection, without a reconnect.
    const transitions: string[] = [];
    t.service.events.subscribe((e) =>
      e.type === "mcp.state" && transitions.push(String(e.data.status))
    );
    changed.mcpServers = [{ ...changed.mcpServers[0], disabledTools: ["hang"], name: "Renamed" }];
    await readJsonResponse(await t.call("/api/config", { method: "PUT", json: changed }));
    const state = t.service.mcp.state("a");
    assert.equal(state.name, "Renamed");
    assert.deepEqual(
      state.tools.filter((tool) => tool.disabled).map((tool) => tool.name),
      ["hang"],
    );
    assert.deepEqual(transitions, []);
    assert.equal(state.status, "connected");
  } finally {
    await t.close();
  }
});

Deno.test("a list-changed notification refreshes the tool list", async () => {
  const t = await startService({
    config: configWithServers([stdioServer("grower", ["run", "-A", FAILING, "hang"])]),
  });
  try {
    await post(t, "/api/mcp/grower/connect");
    const changed = waitForEvent(
      t,
      (e) => e.type === "mcp.notification" && e.data.serverId === "grower",
    );
    await post(t, "/api/mcp/grower/call", { tool: "grow", args: {} });
    await changed;
    for (
      let i = 0;
      i < 50 && !t.service.mcp.state("grower").tools.some((x) => x.name === "grown_1");
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(t.service.mcp.state("grower").tools.some((tool) => tool.name === "grown_1"));
    assert.equal(t.service.mcp.state("grower").status, "connected");
  } finally {
    await t.close();
  }
});

Deno.test("the built-in demo server runs in-process: tools, calls, log events, resources", async () => {
  const t = await startService();
  try {
    const before = (await readJsonResponse(await t.call("/api/bootstrap"))).body;
    assert.equal(before.mcp[0].status, "disconnected");
    const state = (await post(t, "/api/mcp/demo/connect")).body;
    assert.equal(state.status, "connected", state.error);
    assert.equal(state.serverInfo.name, "lass-demo");
    const after = (await readJsonResponse(await t.call("/api/bootstrap"))).body;
    assert.equal(after.mcp[0].status, "connected", "bootstrap follows the tool-server states");
    const names = state.tools.map((tool: Json) => tool.name);
    for (
      const name of [
        "add",
        "fail",
        "slow_count",
        "ask_user",
        "summarize_with_model",
        "show_dashboard",
      ]
    ) {
      assert.ok(names.includes(name), name);
    }
    const refresh = state.tools.find((tool: Json) => tool.name === "dashboard_refresh");
    assert.deepEqual([refresh.modelVisible, refresh.ui.visibility], [false, ["app"]]);
    const logged = waitForEvent(t, (e) => e.type === "mcp.log" && e.data.serverId === "demo");
    const sum = await post(t, "/api/mcp/demo/call", { tool: "add", args: { a: 2, b: 3 } });
    assert.deepEqual(sum.body.result.structuredContent, { sum: 5 });
    await logged;
    const failed = await post(t, "/api/mcp/demo/call", { tool: "fail", args: {} });
    assert.deepEqual([failed.status, failed.body.result.isError], [200, true]);
    const dashboard = state.tools.find((tool: Json) => tool.name === "show_dashboard");
    const html = await post(t, "/api/mcp/demo/resource", { uri: dashboard.ui.resourceUri });
    assert.equal(html.body.contents[0].mimeType, "text/html;profile=mcp-app");
    const prompt = await post(t, "/api/mcp/demo/prompt", {
      name: "plan_trip",
      args: { destination: "Lisbon", days: "3" },
    });
    assert.match(JSON.stringify(prompt.body.messages), /Lisbon/);
  } finally {
    await t.close();
  }
});

Deno.test("stderr lines of a stdio server become bounded mcp.log events", async () => {
  const t = await startService({
    config: configWithServers([stdioServer("fragile", ["run", "-A", FAILING, "exit"])]),
  });
  try {
    await post(t, "/api/mcp/fragile/connect");
    const line = waitForEvent(t, (e) => e.type === "mcp.log" && e.data.level === "stderr");
    await post(t, "/api/mcp/fragile/call", { tool: "crash", args: {} });
    assert.match(String((await line).data.message), /crashed on purpose/);
  } finally {
    await t.close();
  }
});

Deno.test("POST /api/mcp/import parses a client config without saving anything", async () => {
  const t = await startService();
  try {
    const before = await Deno.readTextFile(t.configPath);
    const claude = {
      mcpServers: {
        demo: { command: "npx", args: ["-y", "some-server"] },
        "My Remote": {
          type: "http",
          url: "https://mcp.example.com/mcp",
          headers: { authorization: "Bearer ${TOKEN}" },
        },
      },
    };
    const imported = await post(t, "/api/mcp/import", { json: JSON.stringify(claude) });
    assert.equal(imported.status, 200);
    assert.deepEqual(
      imported.body.servers.map((s: Json) => s.id),
      ["demo-2", "my-remote"],
      "ids avoid existing ones",
    );
    assert.equal(
      imported.body.servers[1].headers.authorization,
      "Bearer ${TOKEN}",
      "placeholders are kept",
    );
    const garbage = await post(t, "/api/mcp/import", { json: "this is :: not [ a config" });
    assert.deepEqual([garbage.status, garbage.body.error.code], [400, "invalid-request"]);
    const badFormat = await post(t, "/api/mcp/import", { json: "{}", format: "emacs" });
    assert.deepEqual([badFormat.status, badFormat.body.error.details[0].path], [400, "format"]);
    assert.equal(await Deno.readTextFile(t.configPath), before, "nothing is saved");
  } finally {
    await t.close();
  }
});

Deno.test("a server that exits while its tools are listed ends in error, and the next call restarts it", async () => {
  const t = await startService({
    config: configWithServers([
      stdioServer("dying", ["run", "-A", FAILING, "die-listing"], { timeoutMs: 5000 }),
    ]),
  });
  try {
    const state = (await post(t, "/api/mcp/dying/connect")).body;
    assert.equal(state.status, "error");
    assert.notEqual(t.service.mcp.state("dying").status, "connected");
  } finally {
    await t.close();
  }
});

Deno.test("timeoutMs bounds the listing of tools as part of the connect", async () => {
  const t = await startService({
    config: configWithServers([
      stdioServer("lister", ["run", "-A", FAILING, "slow-list"], { timeoutMs: 600 }),
    ]),
  });
  try {
    const started = performance.now();
    const state = (await post(t, "/api/mcp/lister/connect")).body;
    assert.equal(state.status, "error");
    assert.ok(performance.now() - started < 5000, "no 60 s wait");
  } finally {
    await t.close();
  }
});

Deno.test("a missing working directory is named as such", async () => {
  const t = await startService({
    config: configWithServers([
      stdioServer("lost", ["run", "-A", FAILING, "hang"], { cwd: "no/such/dir" }),
    ]),
  });
  try {
    const state = (await post(t, "/api/mcp/lost/connect")).body;
    assert.match(state.error, /^working directory not found: .*no\/such\/dir/);
  } finally {
    await t.close();
  }
});

Deno.test("values of env references never appear in log events or errors", async () => {
  const t = await startService({
    config: configWithServers([
      stdioServer("leaky", ["run", "-A", FAILING, "leak"], { env: { TOKEN: "${LEAKY}" } }),
    ]),
    env: { LEAKY: "sk-very-secret-value" },
  });
  try {
    const line = waitForEvent(t, (e) => e.type === "mcp.log" && e.data.level === "stderr");
    await post(t, "/api/mcp/leaky/connect");
    const message = String((await line).data.message);
    assert.equal(message, "starting with token <redacted>");
    assert.ok(!JSON.stringify(t.service.events.history()).includes("sk-very-secret-value"));
  } finally {
    await t.close();
  }
});

Deno.test("a server added by PUT /api/config and used by a workspace connects by itself", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    const next = configWithServers([stdioServer("fresh", ["run", "-A", FAILING, "hang"])]) as Json;
    next.workspaces[0].mcpServerIds = ["fresh"];
    const connected = waitForEvent(
      t,
      (e) => e.type === "mcp.state" && e.data.id === "fresh" && e.data.status === "connected",
    );
    await readJsonResponse(await t.call("/api/config", { method: "PUT", json: next }));
    await connected;
  } finally {
    await t.close();
  }
});
