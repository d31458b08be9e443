/** MCP sampling with tools: the message conversion, and a real server whose sampling offers tools. */
import assert from "node:assert/strict";
import {
  toModelMessages,
  toModelToolChoice,
  toolResultOutput,
} from "../../core/mcp/requests/sampling_messages.ts";
import type { ConfigStore } from "../../core/config/store.ts";
import { createSampler } from "../../core/mcp/requests/sampling.ts";
import { configWithServers, type Json, post, startService, type TestService } from "../_helpers.ts";

const FIXTURE = new URL("../fixtures/sampling_tools_server.ts", import.meta.url).pathname;

/** A service with the demo model and the fixture server, whose sampling needs no approval. */
async function withFixture(run: (t: TestService) => Promise<void>): Promise<void> {
  const t = await startService({
    config: configWithServers([{
      id: "timer",
      name: "Timer",
      transport: "stdio",
      command: Deno.execPath(),
      args: ["run", "-A", FIXTURE],
      sampling: "auto",
    }]),
  });
  try {
    await run(t);
  } finally {
    await t.close();
  }
}

/** Calls the fixture's `ask_model` and returns the sampling results it got, in order. */
async function askModel(t: TestService, args: Record<string, unknown>): Promise<Json[]> {
  const { status, body } = await post(t, "/api/mcp/timer/call", { tool: "ask_model", args });
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.result.isError, undefined, JSON.stringify(body.result));
  return body.result.structuredContent.results;
}

Deno.test("sampling messages: tool_use becomes tool calls, tool_result a tool message", () => {
  const messages = toModelMessages([
    { role: "user", content: { type: "text", text: "what is the time?" } },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool_use", id: "c1", name: "get_time", input: { zone: "UTC" } },
        { type: "tool_use", id: "c2", name: "get_date", input: {} },
      ],
    },
    {
      role: "user",
      content: [
        {
          type: "tool_result",
          toolUseId: "c1",
          content: [{ type: "text", text: "12:00" }],
          structuredContent: { time: "12:00" },
        },
        {
          type: "tool_result",
          toolUseId: "c2",
          content: [{ type: "text", text: "no calendar" }],
          isError: true,
        },
      ],
    },
  ]);
  assert.deepEqual(messages, [
    { role: "user", content: [{ type: "text", text: "what is the time?" }] },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me look." },
        { type: "tool-call", toolCallId: "c1", toolName: "get_time", input: { zone: "UTC" } },
        { type: "tool-call", toolCallId: "c2", toolName: "get_date", input: {} },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "get_time",
          output: { type: "json", value: { time: "12:00" } },
        },
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "get_date",
          output: { type: "error-text", value: "no calendar" },
        },
      ],
    },
  ]);
});

Deno.test("sampling messages: plain text and images convert as before; other blocks are named", () => {
  const messages = toModelMessages([
    {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      ],
    },
    { role: "assistant", content: { type: "text", text: "a picture" } },
  ]);
  assert.deepEqual(messages, [
    {
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image", image: "AAAA", mediaType: "image/png" },
        { type: "text", text: "[audio content left out]" },
      ],
    },
    { role: "assistant", content: [{ type: "text", text: "a picture" }] },
  ]);
});

Deno.test("sampling messages: tool result outputs are text, json, error text or content", () => {
  const base = { type: "tool_result" as const, toolUseId: "x" };
  assert.deepEqual(
    toolResultOutput({
      ...base,
      content: [{ type: "text", text: "a" }, { type: "text", text: "b" }],
    }),
    { type: "text", value: "a\nb" },
  );
  assert.deepEqual(toolResultOutput({ ...base, content: [], isError: true }), {
    type: "error-text",
    value: "the tool reported an error",
  });
  assert.deepEqual(
    toolResultOutput({ ...base, content: [], structuredContent: { code: 7 }, isError: true }),
    { type: "error-text", value: '{"code":7}' },
  );
  assert.deepEqual(
    toolResultOutput({
      ...base,
      content: [
        { type: "text", text: "chart" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
    }),
    {
      type: "content",
      value: [
        { type: "text", text: "chart" },
        { type: "file", data: { type: "data", data: "AAAA" }, mediaType: "image/png" },
      ],
    },
  );
  assert.deepEqual(
    ["auto", "required", "none", undefined].map((mode) =>
      toModelToolChoice(mode ? { mode: mode as "auto" } : undefined)
    ),
    ["auto", "required", "none", "auto"],
  );
});

Deno.test("sampling with tools: the model calls the server's tool, then answers from its result", async () => {
  await withFixture(async (t) => {
    const [first, second, ...more] = await askModel(t, { prompt: 'what is the get time in "UTC"' });
    assert.deepEqual(more, [], "one tool round, then the final answer");
    assert.equal(first.stopReason, "toolUse");
    assert.equal(first.model, "demo");
    assert.ok(Array.isArray(first.content));
    const uses = first.content.filter((block: Json) => block.type === "tool_use");
    assert.equal(uses.length, 1);
    assert.equal(uses[0].name, "get_time");
    assert.match(uses[0].id, /^call_demo_/);
    assert.equal(typeof uses[0].input, "object");
    assert.deepEqual(uses[0].input, { zone: "UTC" });

    assert.equal(second.stopReason, "endTurn");
    assert.equal(second.content.type, "text");
    assert.equal(second.content.text, '`get_time` returned {"zone":"UTC","time":"12:00"}.');
  });
});

Deno.test("sampling without tools answers with one text block, as before", async () => {
  await withFixture(async (t) => {
    const results = await askModel(t, { prompt: "what is the get time in UTC", offerTools: false });
    assert.equal(results.length, 1);
    assert.deepEqual(Object.keys(results[0].content), ["type", "text"]);
    assert.equal(results[0].content.type, "text");
    assert.match(results[0].content.text, /You asked/);
    assert.equal(results[0].stopReason, "endTurn");
    assert.equal(results[0].model, "demo");
  });
});

Deno.test("sampling with toolChoice none answers with text and calls no tool", async () => {
  await withFixture(async (t) => {
    const results = await askModel(t, {
      prompt: "what is the get time in UTC",
      toolChoice: "none",
    });
    assert.equal(results.length, 1);
    assert.equal(results[0].stopReason, "endTurn");
    assert.equal(results[0].content.type, "text");
    assert.ok(results[0].content.text.length > 0);
  });
});

Deno.test("sampling with toolChoice required calls a tool even when the prompt names none", async () => {
  await withFixture(async (t) => {
    const [first, second] = await askModel(t, { prompt: "hello there", toolChoice: "required" });
    assert.equal(first.stopReason, "toolUse");
    assert.equal(first.content.find((b: Json) => b.type === "tool_use").name, "get_time");
    assert.equal(second.content.type, "text");
  });
});

Deno.test("a follow-up without tools is answered from the tool results, as one text block", async () => {
  const demo = {
    id: "demo",
    name: "Demo",
    provider: "compatible-api",
    model: "demo",
    baseURL: "service:demo",
  };
  const config = { config: { llms: [demo], workspaces: [] } } as unknown as ConfigStore;
  const sample = createSampler(config, () => undefined);
  const result = await sample({
    maxTokens: 100,
    messages: [
      { role: "user", content: { type: "text", text: "what is the get time?" } },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "c1", name: "get_time", input: {} }],
      },
      {
        role: "user",
        content: [{
          type: "tool_result",
          toolUseId: "c1",
          content: [{ type: "text", text: "noon" }],
        }],
      },
    ],
  }, { serverId: "s", signal: new AbortController().signal });
  assert.deepEqual(result, {
    role: "assistant",
    content: { type: "text", text: "`get_time` returned noon." },
    model: "demo",
    stopReason: "endTurn",
  });
});
