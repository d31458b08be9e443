/** `POST /api/chat` end to end with the demo model and the demo tool server: chunks, steps, sessions, events. */
import assert from "node:assert/strict";
import { type Json, post, startService, waitForEvent } from "../_helpers.ts";
import { chat, chatConfig, DEMO_LLM, failingServer, ofType, user } from "../_chat.ts";

/** The chunk types in order, with runs of the same type folded into one. */
function shape(chunks: Json[]): string[] {
  return chunks.map((c) => c.type).filter((type, i, all) => type !== all[i - 1]);
}

Deno.test("a tool turn streams start, reasoning, text, tool-call, tool-result, step, then finish", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { status, type, chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    assert.equal(status, 200);
    assert.equal(type, "application/x-ndjson; charset=utf-8");
    assert.deepEqual(shape(chunks), [
      "start",
      "reasoning",
      "text",
      "tool-call",
      "tool-result",
      "step",
      "reasoning",
      "text",
      "step",
      "finish",
    ]);
    const [start] = chunks;
    assert.match(start.runId, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...start, runId: "x" }, {
      type: "start",
      runId: "x",
      model: "demo",
      profileId: "demo",
      // The server's model-visible tools and the render tool (generativeUi is on by default).
      tools: t.service.mcp.state("demo").tools.filter((tool) => tool.modelVisible).length + 1,
    });
    const [call] = ofType(chunks, "tool-call");
    assert.deepEqual(call, {
      type: "tool-call",
      id: call.id,
      name: "demo__add",
      tool: "add",
      source: "demo",
      input: { a: 2, b: 3 },
    });
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.id, call.id);
    assert.equal(result.output, "5");
    assert.equal(result.isError, false);
    assert.equal(typeof result.durationMs, "number");
    assert.deepEqual(result.raw.structuredContent, { sum: 5 });
    assert.equal(result.ui, undefined);
    const steps = ofType(chunks, "step");
    assert.deepEqual(steps.map((s) => s.finishReason), ["tool-calls", "stop"]);
    assert.ok(steps[0].usage.inputTokens > 0 && steps[0].usage.outputTokens > 0);
    const text = ofType(chunks, "text").map((c) => c.text).join("");
    assert.match(text, /`demo__add` returned 5\./);
    const finish = chunks.at(-1);
    assert.equal(finish.usage.totalTokens, steps[0].usage.totalTokens + steps[1].usage.totalTokens);
    assert.ok(finish.durationMs >= 0);
    assert.deepEqual(finish.messages.map((m: Json) => m.role), ["assistant", "tool", "assistant"]);
    assert.deepEqual(finish.messages[1].content[0].output, { type: "text", value: "5" });
  } finally {
    await t.close();
  }
});

Deno.test("finish.messages appended to the history make a valid second turn", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const first = [user("please add 2 and 3")];
    const turn1 = await chat(t, { messages: first });
    const history = [...first, ...turn1.chunks.at(-1).messages, user("now echo 'hi there'")];
    const turn2 = await chat(t, { messages: history });
    assert.equal(turn2.chunks.at(-1).type, "finish", JSON.stringify(turn2.chunks.at(-1)));
    const [call] = ofType(turn2.chunks, "tool-call");
    assert.equal(call.name, "demo__echo");
    assert.equal(call.input.text, "hi there");
    const [result] = ofType(turn2.chunks, "tool-result");
    assert.match(String(result.output), /hi there/);
  } finally {
    await t.close();
  }
});

Deno.test("a plain answer with no tools is one step; the system prompt is the workspace's", async () => {
  const t = await startService({
    config: chatConfig({
      servers: [],
      workspace: { systemPrompt: "Be brief.", generativeUi: false },
    }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("what is the meaning of life")] });
    assert.deepEqual(shape(chunks), ["start", "reasoning", "text", "step", "finish"]);
    assert.equal(chunks[0].tools, 0);
    assert.match(ofType(chunks, "text").map((c) => c.text).join(""), /instructions/);
    assert.deepEqual(chunks.at(-1).messages.map((m: Json) => m.role), ["assistant"]);
  } finally {
    await t.close();
  }
});

Deno.test("the turn stops after maxSteps steps", async () => {
  const t = await startService({ config: chatConfig({ workspace: { maxSteps: 1 } }) });
  try {
    const finished = waitForEvent(t, (e) => e.type === "chat.finish");
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    assert.deepEqual(shape(chunks), [
      "start",
      "reasoning",
      "text",
      "tool-call",
      "tool-result",
      "step",
      "finish",
    ]);
    assert.equal(ofType(chunks, "step")[0].finishReason, "tool-calls");
    assert.deepEqual(chunks.at(-1).messages.map((m: Json) => m.role), ["assistant", "tool"]);
    const event = await finished;
    assert.equal(event.data.steps, 1);
    assert.equal(event.data.maxStepsReached, true);
  } finally {
    await t.close();
  }
});

Deno.test("the ui field: mcp-app, mcp-ui and a2ui results from the demo server", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const uiOf = async (message: string) => {
      const { chunks } = await chat(t, { messages: [user(message)] });
      const [result] = ofType(chunks, "tool-result");
      assert.equal(result.isError, false, JSON.stringify(result));
      return result.ui;
    };
    assert.deepEqual(await uiOf("show dashboard please"), {
      kind: "mcp-app",
      serverId: "demo",
      resourceUri: "ui://lass-demo/dashboard.html",
    });
    const legacy = await uiOf("legacy ui card");
    assert.equal(legacy.kind, "mcp-ui");
    assert.equal(legacy.resource.uri, "ui://lass-demo/card");
    assert.equal(legacy.resource.mimeType, "text/html");
    assert.match(legacy.resource.text, /<html|<div/i);
    const a2ui = await uiOf("a2ui form");
    assert.equal(a2ui.kind, "a2ui");
    assert.equal(a2ui.messages[0].version, "v0.9");
    assert.ok(a2ui.messages[0].createSurface.surfaceId.startsWith("demo-form-"));
  } finally {
    await t.close();
  }
});

Deno.test("user-only content stays out of what the model sees", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, { messages: [user("a2ui form")] });
    const [result] = ofType(chunks, "tool-result");
    assert.equal(typeof result.output, "string");
    assert.doesNotMatch(result.output, /createSurface/);
    assert.equal(result.raw.content.length, 2);
  } finally {
    await t.close();
  }
});

Deno.test("a tool error result is isError and the loop goes on", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, { messages: [user("fail because 'testing'")] });
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, true);
    assert.match(result.output, /always fails/);
    assert.equal(chunks.at(-1).type, "finish");
    assert.match(ofType(chunks, "text").map((c) => c.text).join(""), /failed with an error/);
  } finally {
    await t.close();
  }
});

Deno.test("bad bodies are 400 and unknown ids 404, before any chunk", async () => {
  const t = await startService({
    config: {
      ...chatConfig(),
      agents: [{ id: "helper", name: "Helper", protocol: "a2a", url: "http://127.0.0.1:9" }],
    },
  });
  try {
    const cases: [Json, number, string][] = [
      [{}, 400, "invalid-request"],
      [{ messages: [] }, 400, "invalid-request"],
      [{ messages: [user("hi")], extra: 1 }, 400, "invalid-request"],
      [{ messages: [{ role: "user", content: 42 }] }, 400, "invalid-request"],
      [{ messages: [user("hi")], sessionId: "../x" }, 400, "invalid-request"],
      [{ messages: [user("hi")], workspaceId: "nope" }, 404, "not-found"],
      [{ messages: [user("hi")], llmId: "nope" }, 404, "not-found"],
      [{ messages: [user("hi")], agentId: "nope" }, 404, "not-found"],
    ];
    for (const [body, status, code] of cases) {
      const result = await chat(t, body);
      assert.equal(result.status, status, JSON.stringify(body));
      assert.equal(result.body.error.code, code);
    }
    const invalid = await chat(t, { messages: [user("hi"), { role: "user", content: 42 }] });
    assert.equal(invalid.body.error.details[0].path.startsWith("messages.1"), true);
    const raw = await t.call("/api/chat", { method: "POST", body: "{not json" });
    assert.equal(raw.status, 400);
    assert.equal((await raw.json()).error.code, "invalid-json");
  } finally {
    await t.close();
  }
});

Deno.test("a profile that cannot be used is an error chunk; llmId overrides the workspace", async () => {
  const t = await startService({
    config: chatConfig({
      servers: [],
      llms: [DEMO_LLM, {
        id: "gpt",
        name: "GPT",
        provider: "hosted-a",
        model: "gpt-5-mini",
        apiKey: "env:OPENAI_API_KEY",
      }],
      workspace: { llmId: "gpt" },
    }),
  });
  try {
    const failed = await chat(t, { messages: [user("hi")] });
    assert.equal(failed.status, 200);
    assert.equal(failed.chunks.length, 1);
    assert.equal(failed.chunks[0].type, "error");
    assert.match(failed.chunks[0].message, /OPENAI_API_KEY/);
    const ok = await chat(t, { messages: [user("hi")], llmId: "demo" });
    assert.equal(ok.chunks[0].profileId, "demo");
    assert.equal(ok.chunks.at(-1).type, "finish");
  } finally {
    await t.close();
  }
});

Deno.test("sessionId: the turn is appended to a stored session, created with a title", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const first = [user("please add 2 and 3")];
    const turn1 = await chat(t, { messages: first, sessionId: "s1" });
    const stored1 = await t.call("/api/sessions/s1").then((r) => r.json());
    assert.equal(stored1.title, "please add 2 and 3");
    assert.equal(stored1.workspaceId, "w");
    assert.equal(stored1.llmId, "demo");
    assert.deepEqual(stored1.messages.map((m: Json) => m.role), [
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    // What the messages cannot hold about the tool call is kept beside them.
    const call = ofType(turn1.chunks, "tool-call")[0];
    const result = ofType(turn1.chunks, "tool-result")[0];
    assert.deepEqual(stored1.meta.toolCalls, {
      [call.id]: { source: "demo", tool: "add", durationMs: result.durationMs, raw: result.raw },
    });
    const history = [...first, ...turn1.chunks.at(-1).messages, user("hello")];
    await chat(t, { messages: history, sessionId: "s1" });
    const stored2 = await t.call("/api/sessions/s1").then((r) => r.json());
    assert.equal(stored2.messages.length, 6);
    assert.deepEqual(stored2.messages.slice(0, 4), stored1.messages);
    assert.equal(stored2.messages[4].content, "hello");
    assert.equal(stored2.createdAt, stored1.createdAt);
    assert.deepEqual(
      stored2.meta.toolCalls,
      stored1.meta.toolCalls,
      "a turn without tool calls keeps the details",
    );
    // Each turn's usage and cost, by the index of its user message.
    assert.deepEqual(Object.keys(stored2.meta.usage), ["0", "4"]);
    assert.deepEqual(stored2.meta.usage["0"].usage, turn1.chunks.at(-1).usage);
    // The duration the finish chunk showed, so a reopened chat reads the same.
    assert.equal(stored2.meta.usage["0"].durationMs, turn1.chunks.at(-1).durationMs);
    assert.equal(stored2.meta.usage["0"].runId, turn1.chunks[0].runId, "for its events");
    assert.deepEqual(stored2.meta.usage["4"].cost, { usd: 0, source: "demo" });
    const list = (await t.call("/api/sessions").then((r) => r.json())).sessions;
    assert.deepEqual(list.map((s: Json) => [s.id, s.messageCount]), [["s1", 6]]);
  } finally {
    await t.close();
  }
});

Deno.test("events: chat.start, tool.call, tool.result and chat.finish carry the run id", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")], sessionId: "ev" });
    const runId = chunks[0].runId;
    const events = t.service.events.history().filter((e) => e.data.runId === runId);
    assert.deepEqual(events.map((e) => e.type), [
      "chat.start",
      "tool.call",
      "tool.result",
      "chat.finish",
    ]);
    const [start, call, result, finish] = events;
    assert.deepEqual(start.data, {
      runId,
      workspaceId: "w",
      profileId: "demo",
      model: "demo",
      tools: chunks[0].tools,
      sessionId: "ev",
    });
    assert.equal(call.data.serverId, "demo");
    assert.equal(call.data.tool, "add");
    assert.equal(call.data.toolCallId, ofType(chunks, "tool-call")[0].id);
    assert.deepEqual(call.data.input, { a: 2, b: 3 });
    assert.equal(result.data.isError, false);
    assert.equal(finish.data.steps, 2);
    assert.equal(finish.data.finishReason, "stop");
    assert.match(String(finish.data.text), /returned 5/);
  } finally {
    await t.close();
  }
});

Deno.test("a server that cannot connect is left out and named in an event", async () => {
  const t = await startService({
    config: chatConfig({
      servers: [
        { id: "demo", name: "Demo", transport: "stdio", command: "service:demo" },
        failingServer("mute", "silent", { timeoutMs: 300 }),
      ],
    }),
  });
  try {
    const gap = waitForEvent(t, (e) => e.type === "chat.tools-unavailable");
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    assert.equal(chunks.at(-1).type, "finish");
    const event = await gap;
    assert.equal(event.data.runId, chunks[0].runId);
    assert.equal(event.data.serverId, "mute");
    assert.equal(event.data.status, "error");
    assert.match(String(event.data.error), /0\.3 s/);
  } finally {
    await t.close();
  }
});

Deno.test("50 concurrent chats share the tool server and all finish", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    await post(t, "/api/mcp/demo/connect");
    const turns = await Promise.all(
      Array.from({ length: 50 }, (_, i) => chat(t, { messages: [user(`add ${i} and 1`)] })),
    );
    turns.forEach((turn, i) => {
      assert.equal(turn.chunks.at(-1).type, "finish", JSON.stringify(turn.chunks.at(-1)));
      const [result] = ofType(turn.chunks, "tool-result");
      assert.equal(result.output, String(i + 1));
    });
    const runIds = new Set(turns.map((turn) => turn.chunks[0].runId));
    assert.equal(runIds.size, 50);
  } finally {
    await t.close();
  }
});

Deno.test("a tool's progress notifications become tool.progress events of the run", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, { messages: [user("slow count 3 steps of 10 ms")] });
    const [call] = ofType(chunks, "tool-call");
    assert.deepEqual(call.input, { steps: 3, delayMs: 10 });
    const progress = t.service.events.history().filter((e) => e.type === "tool.progress");
    assert.deepEqual(progress.map((e) => [e.data.progress, e.data.total]), [[1, 3], [2, 3], [
      3,
      3,
    ]]);
    assert.ok(
      progress.every((e) => e.data.runId === chunks[0].runId && e.data.toolCallId === call.id),
    );
  } finally {
    await t.close();
  }
});
