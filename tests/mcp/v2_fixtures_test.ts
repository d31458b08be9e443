/**
 * The MCP SDK v2 test fixtures do what they promise, checked with the v2 client directly:
 * `tests/fixtures/v2_server.ts` in each era over HTTP and stdio, and
 * `tests/fixtures/broken_gateway.ts` in each of its bad modes.
 */
import assert from "node:assert/strict";
import {
  Client,
  type ClientOptions,
  LOG_LEVEL_META_KEY,
  type LoggingMessageNotification,
  SdkError,
  SdkHttpError,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

import { GATEWAY, startHttp, V2_SERVER } from "../_v2_fixtures.ts";

type Mode = "legacy" | "auto" | { pin: "2026-07-28" };
const MODERN: Mode = { pin: "2026-07-28" };

/** What a test client saw from the server. */
interface Seen {
  logs: LoggingMessageNotification["params"][];
  listChanges: number;
  elicitations: string[];
}

/** A client that answers sampling, both elicitation modes and roots. */
function newClient(
  mode: Mode,
  options: Partial<ClientOptions> = {},
): { client: Client; seen: Seen } {
  const client = new Client({ name: "fixture-test", version: "1.0.0" }, {
    capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} },
    versionNegotiation: { mode, probe: { timeoutMs: 5_000 } },
    ...options,
  });
  const seen: Seen = { logs: [], listChanges: 0, elicitations: [] };
  client.setRequestHandler("elicitation/create", (request) => {
    seen.elicitations.push(request.params.message);
    return request.params.mode === "url"
      ? { action: "accept" }
      : { action: "accept", content: { answer: "forty-two" } };
  });
  client.setRequestHandler("sampling/createMessage", () => ({
    role: "assistant",
    model: "test-model",
    content: { type: "text", text: "sampled" },
  }));
  client.setRequestHandler(
    "roots/list",
    () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
  );
  client.setNotificationHandler("notifications/message", (n) => void seen.logs.push(n.params));
  client.setNotificationHandler("notifications/tools/list_changed", () => void seen.listChanges++);
  return { client, seen };
}

/** The text of a tool result. */
async function text(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = await client.callTool({ name, arguments: args });
  return result.content.flatMap((c) => c.type === "text" ? [c.text] : []).join("\n");
}

/** Polls until `check` holds (at most 10 s); the failure names what was awaited. */
async function waitFor(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `${what}: not seen within 10 s`);
}

/** Every feature of the fixture through one connected client, in either era. */
async function exerciseFeatures(client: Client, seen: Seen): Promise<void> {
  assert.equal(client.getServerVersion()?.name, "v2-fixture");
  const names = (await client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(names, [
    "ask",
    "ask_url",
    "drop_listens",
    "echo",
    "log",
    "long_report",
    "needs_consent",
    "roots",
    "sample",
    "show_app",
    "slow",
    "toggle_tool",
    "touch",
    "where",
    "wrong_sum",
  ]);
  assert.equal(await text(client, "echo", { text: "hello" }), "hello");
  assert.equal(await text(client, "ask", { question: "Meaning?" }), "answer: forty-two");
  assert.equal(await text(client, "ask_url", { url: "https://example.com/x" }), "url: accept");
  assert.deepEqual(seen.elicitations, ["Meaning?", "Please open https://example.com/x"]);
  assert.equal(await text(client, "sample", { prompt: "Hi" }), "test-model: sampled");
  assert.equal(await text(client, "roots"), "file:///work");

  const progress: number[] = [];
  await client.callTool({ name: "slow", arguments: { steps: 3, delayMs: 0 } }, {
    onprogress: (p) => void progress.push(p.progress),
  });
  assert.deepEqual(progress, [1, 2, 3]);

  const logged = await client.callTool({
    name: "log",
    arguments: { level: "warning", message: "careful" },
    _meta: { [LOG_LEVEL_META_KEY]: "info" },
  });
  assert.ok(!logged.isError);
  await waitFor("the warning log", () => seen.logs.some((l) => l.data === "careful"));
  assert.equal(seen.logs.find((l) => l.data === "careful")?.logger, "v2-fixture");

  const app = (await client.listTools()).tools.find((t) => t.name === "show_app");
  assert.deepEqual(app?._meta, { ui: { resourceUri: "ui://v2-fixture/app" } });
  const [page] = (await client.readResource({ uri: "ui://v2-fixture/app" })).contents;
  assert.equal(page.mimeType, "text/html;profile=mcp-app");

  const greeting = await client.getPrompt({ name: "greet", arguments: { name: "Ada" } });
  assert.deepEqual(greeting.messages[0].content, { type: "text", text: "Greet Ada." });
  const names2 = await client.complete({
    ref: { type: "ref/prompt", name: "greet" },
    argument: { name: "name", value: "A" },
  });
  assert.deepEqual(names2.completion.values, ["Ada", "Alan"]);
  const [item] = (await client.readResource({ uri: "fixture://items/beta" })).contents;
  assert.ok("text" in item && item.text === "The second item.");
  const ids = await client.complete({
    ref: { type: "ref/resource", uri: "fixture://items/{id}" },
    argument: { name: "id", value: "al" },
  });
  assert.deepEqual(ids.completion.values, ["alpha"]);
  assert.ok((await client.listResources()).resources.some((r) => r.uri === "fixture://readme"));

  const report = await client.callTool({
    name: "long_report",
    arguments: { steps: 1, delayMs: 0 },
  });
  assert.deepEqual(report.structuredContent, { title: "Demo report", steps: 1 });
}

/** Toggles `extra` on and off again and checks that a list change arrives each time. */
async function exerciseListChanges(client: Client, seen: Seen): Promise<void> {
  const subscription = client.getProtocolEra() === "modern"
    ? await client.listen({ toolsListChanged: true })
    : undefined;
  assert.deepEqual(subscription?.honoredFilter ?? { toolsListChanged: true }, {
    toolsListChanged: true,
  });
  assert.equal(await text(client, "toggle_tool"), "extra added");
  await waitFor("a tools list change", () => seen.listChanges === 1);
  const tools = (await client.listTools({}, { cacheMode: "refresh" })).tools;
  assert.ok(tools.some((t) => t.name === "extra"), "extra is listed");
  assert.equal(await text(client, "toggle_tool"), "extra removed");
  await waitFor("a second tools list change", () => seen.listChanges === 2);
  await subscription?.close();
}

Deno.test("v2 fixture, dual over HTTP: a 2026 client and a sessionful 2025 client get every feature", async () => {
  await using server = await startHttp(V2_SERVER, ["--era", "dual", "--transport", "http"]);
  const modern = newClient("auto");
  await modern.client.connect(new StreamableHTTPClientTransport(server.url));
  try {
    assert.equal(modern.client.getProtocolEra(), "modern");
    assert.deepEqual(modern.client.getServerCapabilities()?.extensions, {
      "io.modelcontextprotocol/tasks": {},
    });
    await exerciseFeatures(modern.client, modern.seen);
    await exerciseListChanges(modern.client, modern.seen);
  } finally {
    await modern.client.close();
  }

  const legacy = newClient("legacy");
  const transport = new StreamableHTTPClientTransport(server.url);
  await legacy.client.connect(transport);
  try {
    assert.equal(legacy.client.getProtocolEra(), "legacy");
    assert.match(transport.sessionId ?? "", /^[0-9a-f-]{36}$/, "a 2025 session");
    await exerciseFeatures(legacy.client, legacy.seen);
    await exerciseListChanges(legacy.client, legacy.seen);
  } finally {
    await legacy.client.close();
  }
});

Deno.test("v2 fixture, modern over HTTP: refuses a 2025 client with -32022, serves a 2026 one", async () => {
  await using server = await startHttp(V2_SERVER, ["--era", "modern", "--transport", "http"]);
  const legacy = newClient("legacy");
  await assert.rejects(
    legacy.client.connect(new StreamableHTTPClientTransport(server.url)),
    (error: Error) => /-32022|Unsupported protocol version/.test(error.message),
  );
  const modern = newClient("auto");
  await modern.client.connect(new StreamableHTTPClientTransport(server.url));
  try {
    assert.equal(modern.client.getProtocolEra(), "modern");
    assert.equal(await text(modern.client, "echo", { text: "hi" }), "hi");
  } finally {
    await modern.client.close();
  }
});

Deno.test("v2 fixture, legacy over HTTP: a pinned 2026 client fails, auto falls back; a restart forgets the session (404)", async () => {
  const first = await startHttp(V2_SERVER, ["--era", "legacy", "--transport", "http"]);
  try {
    const pinned = newClient(MODERN);
    await assert.rejects(
      pinned.client.connect(new StreamableHTTPClientTransport(first.url)),
      (error: Error) => SdkError.isInstance(error) || SdkHttpError.isInstance(error),
    );
    const { client } = newClient("auto");
    const transport = new StreamableHTTPClientTransport(first.url);
    await client.connect(transport);
    try {
      assert.equal(client.getProtocolEra(), "legacy");
      assert.ok(transport.sessionId, "a session id");
      assert.equal(await text(client, "echo", { text: "before" }), "before");
      await first.stop();
      await using second = await startHttp(V2_SERVER, [
        "--era",
        "legacy",
        "--transport",
        "http",
        "--port",
        String(first.port),
      ]);
      assert.equal(second.port, first.port);
      await assert.rejects(
        client.callTool({ name: "echo", arguments: { text: "after" } }),
        (error: Error) => SdkHttpError.isInstance(error) && error.status === 404,
      );
    } finally {
      await client.close().catch(() => {});
    }
  } finally {
    await first.stop();
  }
});

/** A client connected to the v2 fixture over stdio. */
async function connectStdio(era: string, mode: Mode) {
  const { client, seen } = newClient(mode);
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", V2_SERVER, "--era", era, "--transport", "stdio"],
      stderr: "ignore",
    }),
  );
  return { client, seen, [Symbol.asyncDispose]: () => client.close() };
}

Deno.test("v2 fixture over stdio: modern refuses 2025, legacy refuses 2026, dual serves both", async () => {
  await assert.rejects(connectStdio("modern", "legacy"), /-32022|Unsupported protocol version/);
  await assert.rejects(
    connectStdio("legacy", MODERN),
    (error: Error) => SdkError.isInstance(error),
  );
  for (const [era, mode] of [["modern", MODERN], ["legacy", "legacy"], ["dual", MODERN]] as const) {
    await using stdio = await connectStdio(era, mode);
    assert.equal(stdio.client.getProtocolEra(), mode === "legacy" ? "legacy" : "modern", era);
    assert.equal(await text(stdio.client, "ask", { question: "Q?" }), "answer: forty-two");
    await exerciseListChanges(stdio.client, stdio.seen);
  }
  await using dualLegacy = await connectStdio("dual", "legacy");
  assert.equal(dualLegacy.client.getProtocolEra(), "legacy");
  assert.equal(await text(dualLegacy.client, "roots"), "file:///work");
});

for (const mode of ["5xx", "empty200", "idnull", "hang"] as const) {
  Deno.test(`broken gateway (${mode}): a 2025 client works, the 2026 probe is answered badly`, async () => {
    await using gateway = await startHttp(GATEWAY, ["--mode", mode]);
    const legacy = new Client({ name: "gateway-test", version: "1" });
    await legacy.connect(new StreamableHTTPClientTransport(gateway.url));
    try {
      assert.equal(legacy.getProtocolEra(), "legacy");
      const sum = await legacy.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      assert.deepEqual(sum.content, [{ type: "text", text: "5" }]);
    } finally {
      await legacy.close();
    }
    const probing = new Client({ name: "gateway-test", version: "1" }, {
      versionNegotiation: { mode: "auto", probe: { timeoutMs: 500 } },
    });
    const failure = await probing.connect(new StreamableHTTPClientTransport(gateway.url)).then(
      () => assert.fail("the probe should have failed"),
      (error: SdkError) => error,
    );
    const expected = {
      "5xx": [/HTTP 502/, "ERA_NEGOTIATION_FAILED"],
      "empty200": [/unusable reply/, "ERA_NEGOTIATION_FAILED"],
      "idnull": [/probe failed/, "ERA_NEGOTIATION_FAILED"],
      "hang": [/timed out/, "REQUEST_TIMEOUT"],
    }[mode] as [RegExp, string];
    assert.match(failure.message, expected[0]);
    assert.equal(failure.code, expected[1]);
    await probing.close();
  });
}
