/**
 * The built-in demo tool server, driven by a real MCP SDK v2 client: in-process over its
 * Streamable HTTP `fetch` on protocol 2026-07-28, and over stdio on the 2025 era.
 */
import assert from "node:assert/strict";
import {
  type CallToolResult,
  Client,
  type ClientCapabilities,
  type ElicitRequest,
  type ElicitResult,
  LOG_LEVEL_META_KEY,
  type LoggingLevel,
  type LoggingMessageNotification,
  type Progress,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createDemoHandler } from "../../core/mcp/demo/server.ts";
import { initializeOverStdio } from "../_process.ts";

/** A tool result whose structured content is an object, as every demo tool's is. */
type ToolResult = CallToolResult & {
  structuredContent?: Record<string, unknown>;
};

/** A client connected to a fresh demo handler, with what its handlers saw. */
interface Demo extends AsyncDisposable {
  client: Client;
  /** Calls a tool, asking for logs at `logLevel` (2026-07-28 has no logs without it). */
  call(
    name: string,
    args?: Record<string, unknown>,
    options?: CallOptions & { logLevel?: LoggingLevel },
  ): Promise<ToolResult>;
  logs: LoggingMessageNotification["params"][];
  elicitations: ElicitRequest["params"][];
  samplingPrompts: string[];
}

/** Request options of `Client.callTool`: signal, onprogress, timeout. */
type CallOptions = Parameters<Client["callTool"]>[1];

/** The client's answers to the server's questions, unless a test says otherwise. */
const ROOTS = [{ uri: "file:///home/ada/project", name: "project" }];

/** Registers the handlers a client with `capabilities` needs; `demo` records what they saw. */
function answerServerRequests(
  client: Client,
  demo: Pick<Demo, "logs" | "elicitations" | "samplingPrompts">,
  capabilities: ClientCapabilities,
  elicitAnswer?: ElicitResult,
): void {
  client.setNotificationHandler("notifications/message", (n) => {
    demo.logs.push(n.params);
  });
  if (capabilities.sampling) {
    client.setRequestHandler("sampling/createMessage", (request) => {
      const content = request.params.messages[0].content;
      demo.samplingPrompts.push(
        !Array.isArray(content) && content.type === "text" ? content.text : "",
      );
      return {
        role: "assistant",
        model: "fake-model",
        stopReason: "endTurn",
        content: { type: "text", text: "A short summary." },
      };
    });
  }
  if (capabilities.elicitation) {
    client.setRequestHandler("elicitation/create", (request) => {
      demo.elicitations.push(request.params);
      if (request.params.mode === "url") return elicitAnswer ?? { action: "accept" };
      return elicitAnswer ?? { action: "accept", content: { name: "Grace", color: "red" } };
    });
  }
  if (capabilities.roots) client.setRequestHandler("roots/list", () => ({ roots: ROOTS }));
}

/**
 * Connects a client (sampling, form and url elicitation, roots unless `capabilities` says
 * otherwise) to a new demo handler through its `fetch`, negotiating 2026-07-28 as Lass does.
 */
async function connectDemo(
  options: { capabilities?: ClientCapabilities; elicitAnswer?: ElicitResult } = {},
): Promise<Demo> {
  const capabilities = options.capabilities ??
    { sampling: {}, elicitation: { form: {}, url: {} }, roots: {} };
  const handler = createDemoHandler();
  const client = new Client({ name: "demo-test", version: "1.0.0" }, {
    capabilities,
    versionNegotiation: { mode: "auto" },
  });
  const demo: Demo = {
    client,
    call: async (name, args = {}, { logLevel = "info", ...callOptions } = {}) =>
      await client.callTool(
        { name, arguments: args, _meta: { [LOG_LEVEL_META_KEY]: logLevel } },
        callOptions,
      ) as ToolResult,
    logs: [],
    elicitations: [],
    samplingPrompts: [],
    [Symbol.asyncDispose]: async () => {
      await client.close();
      await handler.close();
    },
  };
  answerServerRequests(client, demo, capabilities, options.elicitAnswer);
  const transport = new StreamableHTTPClientTransport(new URL("http://lass-demo.invalid/mcp"), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  return demo;
}

/** The text blocks of a tool result, joined. */
function textOf(result: ToolResult): string {
  return result.content.flatMap((c) => c.type === "text" ? [c.text] : []).join("\n");
}

/** Polls until `check` holds (at most 30 s, for a loaded machine); the failure names `what`. */
async function waitFor(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `${what}: not seen within 30 s`);
}

const TOOL_NAMES = [
  "a2ui_form",
  "add",
  "ask_user",
  "current_time",
  "dashboard_refresh",
  "echo",
  "fail",
  "get_weather",
  "legacy_ui_card",
  "list_roots",
  "long_report",
  "open_url",
  "random_number",
  "show_dashboard",
  "slow_count",
  "summarize_with_model",
];
const DASHBOARD_URI = "ui://lass-demo/dashboard.html";

Deno.test("the demo server introduces itself with a name, instructions and capabilities", async () => {
  await using demo = await connectDemo();
  assert.equal(demo.client.getProtocolEra(), "modern");
  assert.equal(demo.client.getNegotiatedProtocolVersion(), "2026-07-28");
  assert.equal(demo.client.getServerVersion()?.name, "lass-demo");
  assert.match(demo.client.getInstructions() ?? "", /offline|made up/);
  const capabilities = demo.client.getServerCapabilities() ?? {};
  for (const key of ["logging", "tools", "prompts", "resources", "completions"] as const) {
    assert.ok(capabilities[key], `capability ${key}`);
  }
  assert.deepEqual(capabilities.extensions, { "io.modelcontextprotocol/tasks": {} });
});

Deno.test("tools/list shows every tool with title, schemas, annotations and UI metadata", async () => {
  await using demo = await connectDemo();
  const { tools } = await demo.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
  for (const tool of tools) {
    assert.ok(tool.title && tool.description, `${tool.name} has a title and a description`);
    assert.equal(tool.inputSchema.type, "object", tool.name);
    assert.equal(typeof tool.annotations?.readOnlyHint, "boolean", tool.name);
  }
  const byName = new Map(tools.map((t) => [t.name, t]));
  const add = byName.get("add")!;
  assert.deepEqual(add.inputSchema.required, ["a", "b"]);
  assert.deepEqual(add.inputSchema.properties?.a, { type: "number", description: "First addend" });
  assert.deepEqual(add.outputSchema?.properties, { sum: { type: "number" } });
  assert.equal(add.annotations?.readOnlyHint, true);
  assert.match(byName.get("get_weather")!.description!, /MADE-UP/);
  assert.equal(byName.get("current_time")!.annotations?.openWorldHint, false);
  assert.deepEqual(byName.get("echo")!.inputSchema.required, ["text"]);
  assert.equal(byName.get("fail")!.outputSchema, undefined);
  assert.deepEqual(byName.get("show_dashboard")!._meta, {
    ui: { resourceUri: DASHBOARD_URI, visibility: ["model", "app"] },
    "ui/resourceUri": DASHBOARD_URI,
  });
  assert.deepEqual(byName.get("dashboard_refresh")!._meta, { ui: { visibility: ["app"] } });
});

Deno.test("add returns the sum as text and as structuredContent", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("add", { a: 2, b: 3.5 });
  assert.equal(result.isError, undefined);
  assert.equal(textOf(result), "5.5");
  assert.deepEqual(result.structuredContent, { sum: 5.5 });
  const bad = await demo.call("add", { a: "2", b: 3 });
  assert.equal(bad.isError, true);
  assert.match(textOf(bad), /Input validation error/);
});

Deno.test("echo, get_weather, current_time and random_number answer offline", async () => {
  await using demo = await connectDemo();
  const call = demo.call;

  assert.deepEqual((await call("echo", { text: "hi", times: 3 })).structuredContent, {
    text: "hi\nhi\nhi",
  });

  const oslo = await call("get_weather", { city: "Oslo" });
  assert.deepEqual((await call("get_weather", { city: " oslo " })).structuredContent, {
    ...oslo.structuredContent,
    city: "oslo",
  });
  assert.equal(oslo.structuredContent?.madeUp, true);
  assert.match(textOf(oslo), /^Oslo: .+ °C.+made-up data/);

  const tokyo = await call("current_time", { timeZone: "Asia/Tokyo" });
  assert.match(String(tokyo.structuredContent?.local), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00$/);
  assert.match(String(tokyo.structuredContent?.utc), /Z$/);
  assert.match(String((await call("current_time", {})).structuredContent?.local), /Z$/);
  const nowhere = await call("current_time", { timeZone: "Mars/Olympus" });
  assert.equal(nowhere.isError, true);
  assert.match(textOf(nowhere), /Unknown time zone "Mars\/Olympus"/);

  for (let i = 0; i < 10; i++) {
    const value = (await call("random_number", { min: 3, max: 5 })).structuredContent?.value;
    assert.ok(value === 3 || value === 4 || value === 5, `random ${value}`);
  }
  const backwards = await call("random_number", { min: 9, max: 1 });
  assert.equal(backwards.isError, true);
  assert.match(textOf(backwards), /min \(9\) must not be greater than max \(1\)/);
});

Deno.test("fail returns isError with a clear message instead of throwing", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("fail", { reason: "on purpose" });
  assert.equal(result.isError, true);
  assert.equal(textOf(result), "The fail tool always fails: on purpose");
});

Deno.test("slow_count reports progress for each step", async () => {
  await using demo = await connectDemo();
  const progress: Progress[] = [];
  const result = await demo.call("slow_count", { steps: 3, delayMs: 5 }, {
    onprogress: (p) => progress.push(p),
  });
  assert.deepEqual(result.structuredContent, { steps: 3 });
  assert.deepEqual(
    progress,
    [1, 2, 3].map((n) => ({
      progress: n,
      total: 3,
      message: `Step ${n} of 3`,
    })),
  );
});

Deno.test("slow_count's call ends when the client cancels it (2026-07-28 closes the stream)", async () => {
  // The server's own note about the cancel cannot reach this client: the stream it would ride is
  // closed. The stdio test below sees that note on the 2025 era.
  await using demo = await connectDemo();
  const controller = new AbortController();
  const progress: Progress[] = [];
  const call = demo.call("slow_count", { steps: 50, delayMs: 20 }, {
    signal: controller.signal,
    onprogress: (p) => {
      progress.push(p);
      controller.abort("enough");
    },
  });
  await assert.rejects(call, /enough/);
  assert.deepEqual(progress.map((p) => p.progress), [1]);
});

Deno.test("ask_user sends a form elicitation with defaults and returns the answer", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("ask_user", { message: "Hi?" });
  assert.equal(demo.elicitations.length, 1);
  const request = demo.elicitations[0];
  assert.equal(request.message, "Hi?");
  assert.ok("requestedSchema" in request);
  assert.deepEqual(request.requestedSchema.required, ["name"]);
  for (const [key, field] of Object.entries(request.requestedSchema.properties)) {
    assert.ok("default" in field, `${key} has a default`);
  }
  assert.deepEqual(result.structuredContent, {
    action: "accept",
    content: { name: "Grace", color: "red" },
  });
  assert.match(textOf(result), /Grace/);
});

Deno.test("ask_user reports a declined elicitation", async () => {
  await using demo = await connectDemo({ elicitAnswer: { action: "decline" } });
  const result = await demo.call("ask_user", {});
  assert.deepEqual(result.structuredContent, { action: "decline" });
  assert.equal(textOf(result), "The user chose to decline.");
});

Deno.test("summarize_with_model asks the client's model through sampling", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("summarize_with_model", {
    text: "A long story about a cat.",
    maxWords: 10,
  });
  assert.deepEqual(result.structuredContent, { summary: "A short summary.", model: "fake-model" });
  assert.equal(demo.samplingPrompts.length, 1);
  assert.match(demo.samplingPrompts[0], /at most 10 words:\n\nA long story about a cat\./);
});

Deno.test("open_url sends a url elicitation and reports what the user did", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("open_url", { url: "https://example.com/pay" });
  assert.equal(demo.elicitations.length, 1);
  const [request] = demo.elicitations;
  assert.equal(request.mode, "url");
  assert.ok("url" in request);
  assert.equal(request.url, "https://example.com/pay");
  assert.deepEqual(result.structuredContent, { action: "accept" });
  assert.equal(textOf(result), "The user opened https://example.com/pay.");
  await using declining = await connectDemo({ elicitAnswer: { action: "cancel" } });
  const cancelled = await declining.call("open_url", {});
  assert.deepEqual(cancelled.structuredContent, { action: "cancel" });
  assert.match(textOf(cancelled), /chose to cancel instead of opening https:\/\/example\.com\//);
});

Deno.test("list_roots asks the client for its roots and lists them", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("list_roots");
  assert.deepEqual(result.structuredContent, { roots: ROOTS });
  assert.equal(textOf(result), "project: file:///home/ada/project");
});

Deno.test("long_report without tasks waits, reports progress and asks for the title", async () => {
  await using demo = await connectDemo({
    elicitAnswer: { action: "accept", content: { title: "Q3" } },
  });
  const progress: string[] = [];
  const result = await demo.call("long_report", { steps: 4, delayMs: 0, ask: true }, {
    onprogress: (p) => p.total === 4 && progress.push(p.message ?? ""),
  });
  assert.deepEqual(result.structuredContent, { title: "Q3", steps: 4 });
  assert.equal(textOf(result), "Q3: all 4 steps done (made-up report).");
  assert.deepEqual(progress, ["Step 1 of 4", "Step 2 of 4", "Step 3 of 4", "Step 4 of 4"]);
  assert.deepEqual(demo.elicitations.map((e) => e.message), ["What should the report be called?"]);
  const failed = await demo.call("long_report", { steps: 3, delayMs: 0, fail: true });
  assert.equal(failed.isError, true);
  assert.equal(textOf(failed), "The report failed on purpose at step 2 of 3.");
});

Deno.test("the tools that need the client explain a client without the capability", async () => {
  await using demo = await connectDemo({ capabilities: {} });
  const ask = await demo.call("ask_user", {});
  assert.equal(ask.isError, true);
  assert.match(textOf(ask), /does not support form elicitation/);
  const summary = await demo.call("summarize_with_model", { text: "x" });
  assert.equal(summary.isError, true);
  assert.match(textOf(summary), /does not support sampling/);
  assert.match(textOf(await demo.call("open_url")), /does not support url elicitation/);
  assert.match(textOf(await demo.call("list_roots")), /does not share roots/);
  assert.match(textOf(await demo.call("long_report", { ask: true })), /cannot ask/);
  assert.deepEqual(demo.elicitations, []);
});

Deno.test("show_dashboard returns data and its ui:// resource is an MCP App page", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("show_dashboard", {});
  assert.match(textOf(result), /^Demo dashboard \(made-up numbers\): Requests per minute: \d+/);
  assert.equal(result.structuredContent?.title, "Demo dashboard");
  assert.equal(result.structuredContent?.refreshes, 0);

  const { contents } = await demo.client.readResource({ uri: DASHBOARD_URI });
  assert.equal(contents.length, 1);
  const [page] = contents;
  assert.equal(page.mimeType, "text/html;profile=mcp-app");
  assert.deepEqual(page._meta, { ui: { prefersBorder: true } });
  assert.ok("text" in page);
  assert.match(page.text, /^<!DOCTYPE html>/);
  assert.doesNotMatch(page.text, /(src|href)=|https?:\/\//, "no external URLs");
  const listed = (await demo.client.listResources()).resources.find((r) => r.uri === DASHBOARD_URI);
  assert.equal(listed?.mimeType, "text/html;profile=mcp-app");
});

Deno.test("the dashboard page speaks MCP Apps: initialize, tool-result, tools/call back", async () => {
  await using demo = await connectDemo();
  const { contents: [page] } = await demo.client.readResource({ uri: DASHBOARD_URI });
  assert.ok("text" in page);
  const view = loadView(page.text);
  const settle = () => new Promise((r) => setTimeout(r, 0));

  const [init] = view.sent;
  assert.equal(init.method, "ui/initialize");
  assert.equal(init.params?.protocolVersion, "2026-01-26");
  assert.deepEqual(init.params?.appInfo, { name: "lass-demo-dashboard", version: "1.0.0" });
  view.deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: {} }, {});
  assert.equal(view.sent.length, 1, "messages from other windows are ignored");
  view.deliver({
    jsonrpc: "2.0",
    id: init.id,
    result: {
      protocolVersion: "2026-01-26",
      hostInfo: { name: "test-host", version: "1" },
      hostCapabilities: {},
      hostContext: { theme: "dark", styles: { variables: { "--color-text-primary": "#eee" } } },
    },
  });
  await settle();
  assert.deepEqual(view.sent[1], {
    jsonrpc: "2.0",
    method: "ui/notifications/initialized",
    params: {},
  });
  assert.equal(view.root.style.colorScheme, "dark");
  assert.equal(view.root.style.variables.get("--color-text-primary"), "#eee");
  assert.equal(view.element("refresh").disabled, false);

  const shown = await demo.call("show_dashboard", { title: "Ops" });
  view.deliver({ jsonrpc: "2.0", method: "ui/notifications/tool-result", params: shown });
  assert.equal(view.element("title").textContent, "Ops");
  assert.deepEqual(
    view.element("metrics").children.map((c) => c.textContent),
    (shown.structuredContent?.metrics as { label: string; value: number }[])
      .flatMap((m) => [m.label, String(m.value)]),
  );
  assert.equal(view.sent.at(-1)?.method, "ui/notifications/size-changed");

  view.element("refresh").click();
  const call = view.sent.at(-1)!;
  assert.equal(call.method, "tools/call");
  assert.deepEqual(call.params, { name: "dashboard_refresh", arguments: {} });
  const refreshed = await demo.call("dashboard_refresh", {});
  view.deliver({ jsonrpc: "2.0", id: call.id, result: refreshed });
  await settle();
  assert.match(view.element("status").textContent, /^Refresh #1 at /);

  view.deliver({ jsonrpc: "2.0", id: 77, method: "ui/resource-teardown", params: {} });
  assert.deepEqual(view.sent.at(-1), { jsonrpc: "2.0", id: 77, result: {} });
});

Deno.test("legacy_ui_card returns a legacy MCP-UI ui:// text/html embedded resource", async () => {
  await using demo = await connectDemo();
  const result = await demo.call("legacy_ui_card", { title: "<Hi>", message: "Cards & more" });
  assert.equal(result.content.length, 2);
  assert.equal(textOf(result), "<Hi>: Cards & more");
  const block = result.content[1];
  assert.ok(block.type === "resource" && "text" in block.resource);
  assert.equal(block.resource.uri, "ui://lass-demo/card");
  assert.equal(block.resource.mimeType, "text/html");
  assert.match(block.resource.text, /^<!DOCTYPE html>/);
  assert.match(block.resource.text, /<h2>&#60;Hi&#62;<\/h2>/);
  assert.match(block.resource.text, /type: "tool",\s+payload: \{ toolName: "echo"/);
});

Deno.test("a2ui_form returns A2UI v0.9 messages as an application/a2ui+json resource", async () => {
  await using demo = await connectDemo();
  const first = await demo.call("a2ui_form", { title: "Join" });
  const block = first.content[1];
  assert.ok(block.type === "resource" && "text" in block.resource);
  assert.equal(block.resource.mimeType, "application/a2ui+json");
  assert.equal(block.resource.uri, "a2ui://lass-demo/form");
  assert.deepEqual(block.annotations, { audience: ["user"] });
  const messages = JSON.parse(block.resource.text);
  assert.deepEqual(messages.map((m: object) => Object.keys(m)), [
    ["version", "createSurface"],
    ["version", "updateComponents"],
    ["version", "updateDataModel"],
  ]);
  assert.ok(messages.every((m: { version: string }) => m.version === "v0.9"));
  const [{ createSurface }, { updateComponents }, { updateDataModel }] = messages;
  assert.equal(
    createSurface.catalogId,
    "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json",
  );
  assert.equal(updateComponents.surfaceId, createSurface.surfaceId);
  assert.deepEqual(updateDataModel, {
    surfaceId: createSurface.surfaceId,
    path: "/form",
    value: { name: "Ada", subscribe: false },
  });
  const components: { id: string; component: string; children?: string[]; child?: string }[] =
    updateComponents.components;
  const ids = new Set(components.map((c) => c.id));
  assert.equal(ids.size, components.length, "unique ids");
  assert.equal(components.filter((c) => c.id === "root").length, 1);
  for (const c of components) {
    for (const ref of [...(c.children ?? []), ...(c.child ? [c.child] : [])]) {
      assert.ok(ids.has(ref), `${c.id} refers to ${ref}`);
    }
  }
  assert.equal(components.find((c) => c.id === "title")?.component, "Text");

  const second = await demo.call("a2ui_form", {});
  const again = second.content[1];
  assert.ok(again.type === "resource" && "text" in again.resource);
  assert.notEqual(
    JSON.parse(again.resource.text)[0].createSurface.surfaceId,
    createSurface.surfaceId,
  );
});

Deno.test("prompts/get fills code_review and plan_trip from their arguments", async () => {
  await using demo = await connectDemo();
  const { prompts } = await demo.client.listPrompts();
  const review = prompts.find((p) => p.name === "code_review");
  assert.deepEqual(review?.arguments?.map((a) => [a.name, a.required]), [
    ["code", true],
    ["language", false],
  ]);
  assert.ok(prompts.some((p) => p.name === "plan_trip" && p.title === "Plan a trip"));

  const reviewed = await demo.client.getPrompt({
    name: "code_review",
    arguments: { code: "let x = 1", language: "TypeScript" },
  });
  const [message] = reviewed.messages;
  assert.equal(message.role, "user");
  assert.ok(message.content.type === "text");
  assert.match(message.content.text, /review this TypeScript.+```typescript\nlet x = 1\n```$/s);

  const trip = await demo.client.getPrompt({
    name: "plan_trip",
    arguments: { destination: "Lisbon", days: "3" },
  });
  assert.equal(trip.description, "A 3-day trip to Lisbon");
  assert.deepEqual(trip.messages.map((m) => m.role), ["user", "assistant"]);
  await assert.rejects(
    demo.client.getPrompt({ name: "plan_trip", arguments: { destination: "Lisbon", days: "0" } }),
    /days/,
  );
});

Deno.test("resources: static documents, the notes template, its list and completion", async () => {
  await using demo = await connectDemo();
  const readme = (await demo.client.readResource({ uri: "demo://readme" })).contents[0];
  assert.equal(readme.mimeType, "text/markdown");
  assert.ok("text" in readme && readme.text.startsWith("# lass-demo"));
  const config = (await demo.client.readResource({ uri: "demo://config.json" })).contents[0];
  assert.equal(config.mimeType, "application/json");
  assert.ok("text" in config);
  assert.equal(JSON.parse(config.text).name, "lass-demo");

  const { resourceTemplates } = await demo.client.listResourceTemplates();
  assert.deepEqual(resourceTemplates.map((t) => [t.name, t.uriTemplate]), [
    ["note", "demo://notes/{id}"],
  ]);
  const { resources } = await demo.client.listResources();
  const noteUris = resources.map((r) => r.uri).filter((u) => u.startsWith("demo://notes/"));
  assert.deepEqual(noteUris, [
    "demo://notes/welcome",
    "demo://notes/groceries",
    "demo://notes/ideas",
  ]);
  assert.ok(resources.some((r) => r.uri === "demo://readme"));

  const note = (await demo.client.readResource({ uri: "demo://notes/groceries" })).contents[0];
  assert.ok("text" in note);
  assert.match(note.text, /Milk/);
  await assert.rejects(
    demo.client.readResource({ uri: "demo://notes/constructor" }),
    /No note "constructor"; the notes are welcome, groceries, ideas/,
  );
  const completion = await demo.client.complete({
    ref: { type: "ref/resource", uri: "demo://notes/{id}" },
    argument: { name: "id", value: "gr" },
  });
  assert.deepEqual(completion.completion.values, ["groceries"]);
});

Deno.test("each tool call logs an info message at the level the request asks for", async () => {
  await using demo = await connectDemo();
  await demo.call("add", { a: 1, b: 2 });
  assert.deepEqual(demo.logs, [{ level: "info", logger: "lass-demo", data: "add: 1 + 2" }]);
  await demo.call("echo", { text: "quiet" }, { logLevel: "warning" });
  assert.equal(demo.logs.length, 1);
  await demo.client.callTool({ name: "echo", arguments: { text: "no level, no logs" } });
  assert.equal(demo.logs.length, 1);
  await demo.call("echo", { text: "loud" }, { logLevel: "debug" });
  assert.equal(demo.logs.at(-1)?.data, "echo: 1×");
});

const STDIO_SCRIPT = new URL("../fixtures/demo_server_stdio.ts", import.meta.url);

Deno.test("stdio serves a 2025 client in another process: requests to the client, logs, cancel", async () => {
  const capabilities = { sampling: {}, elicitation: { form: {} }, roots: {} };
  const client = new Client({ name: "stdio-test", version: "1.0.0" }, { capabilities });
  const seen = { logs: [], elicitations: [], samplingPrompts: [] } as Pick<
    Demo,
    "logs" | "elicitations" | "samplingPrompts"
  >;
  answerServerRequests(client, seen, capabilities);
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", STDIO_SCRIPT.href],
      env: Deno.env.toObject(),
    }),
  );
  try {
    assert.equal(client.getProtocolEra(), "legacy");
    assert.equal(client.getServerVersion()?.name, "lass-demo");
    assert.equal(client.getServerCapabilities()?.extensions, undefined, "no 2026 tasks on 2025");
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), TOOL_NAMES);
    const result = await client.callTool({ name: "add", arguments: { a: 20, b: 22 } });
    assert.deepEqual(result.structuredContent, { sum: 42 });
    await waitFor("the log of add", () => seen.logs.some((l) => l.data === "add: 20 + 22"));

    // The tools ask with input_required; the SDK sends the 2025 client real requests instead.
    const asked = await client.callTool({ name: "ask_user", arguments: { message: "Hi?" } });
    assert.deepEqual(asked.structuredContent, {
      action: "accept",
      content: { name: "Grace", color: "red" },
    });
    assert.equal(seen.elicitations[0].message, "Hi?");
    const summary = await client.callTool({
      name: "summarize_with_model",
      arguments: { text: "A cat." },
    });
    assert.deepEqual(summary.structuredContent, {
      summary: "A short summary.",
      model: "fake-model",
    });
    const roots = await client.callTool({ name: "list_roots", arguments: {} });
    assert.deepEqual(roots.structuredContent, { roots: ROOTS });

    const controller = new AbortController();
    const counting = client.callTool(
      { name: "slow_count", arguments: { steps: 50, delayMs: 20 } },
      {
        signal: controller.signal,
        onprogress: () => controller.abort("enough"),
      },
    );
    await assert.rejects(counting, /enough/);
    // The cancel lands after the first progress; on a loaded machine a step or more may pass
    // first (a CI run logged a later count), so any count short of the end shows it stopped.
    const cancelledAfter = (data: unknown) =>
      Number(/^slow_count: cancelled after (\d+) of 50$/.exec(String(data))?.[1] ?? NaN);
    const slowLogs = () => seen.logs.filter((l) => String(l.data).startsWith("slow_count"));
    await waitFor(
      "the log `slow_count: cancelled after N of 50`",
      () => seen.logs.some((l) => cancelledAfter(l.data) < 50),
    ).catch((error) => {
      throw new Error(`${error.message}; its logs: ${JSON.stringify(slowLogs())}`);
    });
  } finally {
    await client.close();
  }
});

Deno.test("the stdio demo server exits once its stdin ends", async () => {
  const answer = await initializeOverStdio(Deno.execPath(), ["run", "-A", STDIO_SCRIPT.href]);
  assert.deepEqual(
    answer,
    { serverName: "lass-demo", code: 0 },
    "it answers initialize, then exits by itself when stdin closes",
  );
});

/** A JSON-RPC message as the View posts it. */
interface RpcMessage {
  jsonrpc: string;
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
}

/** Just enough of a DOM element for the dashboard script. */
class FakeElement {
  textContent = "";
  disabled = false;
  children: FakeElement[] = [];
  scrollHeight = 120;
  style = {
    colorScheme: "",
    variables: new Map<string, string>(),
    setProperty(name: string, value: string) {
      this.variables.set(name, value);
    },
  };
  #listeners = new Map<string, () => void>();
  addEventListener(type: string, listener: () => void) {
    this.#listeners.set(type, listener);
  }
  replaceChildren(...children: FakeElement[]) {
    this.children = children;
  }
  click() {
    if (!this.disabled) this.#listeners.get("click")?.();
  }
}

/** Runs the View's inline script against a fake window whose parent records every post. */
function loadView(html: string) {
  const script = html.match(/<script>([\s\S]*)<\/script>/)?.[1];
  assert.ok(script, "the page has an inline script");
  const sent: RpcMessage[] = [];
  const parent = { postMessage: (message: RpcMessage) => sent.push(message) };
  let onMessage = (_event: { source: unknown; data: unknown }) => {};
  const window = {
    parent,
    addEventListener: (_type: string, listener: typeof onMessage) => {
      onMessage = listener;
    },
  };
  const elements = new Map<string, FakeElement>();
  const root = new FakeElement();
  const document = {
    documentElement: root,
    createElement: () => new FakeElement(),
    getElementById: (id: string) => elements.get(id) ?? elements.set(id, new FakeElement()).get(id),
  };
  new Function("window", "document", script)(window, document);
  return {
    sent,
    root,
    element: (id: string) => elements.get(id)!,
    /** Posts `data` to the View as if from `source` (the host by default). */
    deliver: (data: unknown, source: unknown = parent) => onMessage({ source, data }),
  };
}
