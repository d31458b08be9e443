/** The AG-UI adapter against a loopback AG-UI agent: chunks, history, shared tools, failures, abort, probe. */
import assert from "node:assert/strict";
import { dynamicTool, jsonSchema, type ModelMessage, modelMessageSchema } from "ai";
import { runAguiTurn, testAguiAgent } from "../../core/agents/agui.ts";
import type { AgentConfig, AgentTurnInput, AgentTurnResult } from "../../core/agents/types.ts";
import type { TurnChunk } from "../../core/chat/types.ts";
import type { RunTools, ToolRun } from "../../core/chat/tools.ts";
import {
  type FakeAguiAgent,
  rawToolCallEvents,
  reasoningEvents,
  startAguiAgent,
  textEvents,
  toolCallEvents,
} from "../fixtures/agui_agent.ts";

const ENV: Record<string, string> = { AGUI_TOKEN: "secret-123" };

function agentFor(fake: FakeAguiAgent, extra: Partial<AgentConfig> = {}): AgentConfig {
  return {
    id: "helper",
    name: "Helper",
    protocol: "ag-ui",
    url: fake.url,
    headers: { authorization: "Bearer ${AGUI_TOKEN}", "x-token": "env:AGUI_TOKEN" },
    ...extra,
  };
}

function turnInput(agent: AgentConfig, extra: Partial<AgentTurnInput> = {}): AgentTurnInput {
  return {
    agent,
    messages: [{ role: "user", content: "Hi there" }],
    runId: "run-1",
    signal: new AbortController().signal,
    env: (name) => ENV[name],
    maxSteps: 5,
    ...extra,
  };
}

/** Runs a turn to its end: every chunk, and the result. */
async function collect(input: AgentTurnInput) {
  const chunks: TurnChunk[] = [];
  const turn = runAguiTurn(input);
  for (;;) {
    const next = await turn.next();
    if (next.done) return { chunks, result: next.value as AgentTurnResult };
    chunks.push(next.value);
  }
}

/** Runs `fn` against a fresh fake agent and closes it afterwards. */
async function withAgent(fn: (fake: FakeAguiAgent) => Promise<void>) {
  const fake = startAguiAgent();
  try {
    await fn(fake);
  } finally {
    await fake.close();
  }
}

function assertModelMessages(messages: ModelMessage[]) {
  for (const message of messages) {
    const parsed = modelMessageSchema.safeParse(message);
    assert.ok(parsed.success, JSON.stringify(message));
  }
}

/** A hand-built `RunTools` with one tool-server tool `demo__echo` that records its calls. */
function echoTools(calls: unknown[]): RunTools {
  const run = (input: unknown): ToolRun => ({
    model: { type: "text", value: `echo: ${(input as { text: string }).text}` },
    isError: false,
    durationMs: 7,
    raw: { content: [{ type: "text", text: "echo" }] },
  });
  return {
    tools: {
      demo__echo: dynamicTool({
        description: "Echoes the text",
        inputSchema: jsonSchema({
          type: "object",
          properties: { text: { type: "string" } },
          required: ["text"],
        }),
        execute: (input) => {
          calls.push(input);
          return Promise.resolve(run(input));
        },
      }),
    },
    origins: new Map([["demo__echo", { source: "demo", tool: "echo" }]]),
    unavailable: [],
  };
}

Deno.test("an AG-UI turn streams text, ends with a step and returns the assistant message", async () => {
  await withAgent(async (fake) => {
    fake.script([{
      events: textEvents("m1", ["Hello", " there"]),
      finish: { usage: [{ inputTokens: 12, outputTokens: 3, totalTokens: 15 }] },
    }]);
    const { chunks, result } = await collect(turnInput(agentFor(fake)));
    assert.deepEqual(chunks, [
      { type: "text", text: "Hello" },
      { type: "text", text: " there" },
      {
        type: "step",
        usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 },
        finishReason: "stop",
      },
    ]);
    const [run] = fake.runs;
    assert.equal(run.headers["authorization"], "Bearer secret-123");
    assert.equal(run.headers["x-token"], "secret-123");
    assert.equal(run.input.runId, "run-1");
    assert.equal(run.input.protocolVersion, "1.0");
    assert.deepEqual(run.input.tools, []);
    assert.deepEqual(run.input.messages, [{ id: "lass-0", role: "user", content: "Hi there" }]);
    assert.deepEqual(result.usage, { inputTokens: 12, outputTokens: 3, totalTokens: 15 });
    assert.deepEqual(result.messages, [{
      role: "assistant",
      content: [{ type: "text", text: "Hello there" }],
      providerOptions: { agui: { threadId: run.input.threadId } },
    }]);
    assertModelMessages(result.messages);
  });
});

Deno.test("an AG-UI turn reads TEXT_MESSAGE_CHUNK events as text", async () => {
  await withAgent(async (fake) => {
    fake.script([{
      events: [
        { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", role: "assistant", delta: "Chunked" },
        { type: "TEXT_MESSAGE_CHUNK", messageId: "m1", delta: " reply" },
      ],
    }]);
    const { chunks, result } = await collect(turnInput(agentFor(fake)));
    const text = chunks.flatMap((chunk) => chunk.type === "text" ? [chunk.text] : []).join("");
    assert.equal(text, "Chunked reply");
    assert.equal(result.usage, undefined);
  });
});

Deno.test("an AG-UI turn streams reasoning and passes over state and custom events", async () => {
  await withAgent(async (fake) => {
    fake.script([{
      events: [
        { type: "STATE_SNAPSHOT", snapshot: { step: 0 } },
        ...reasoningEvents("r1", ["Thinking", " hard"]),
        { type: "STATE_DELTA", delta: [{ op: "replace", path: "/step", value: 1 }] },
        { type: "STEP_STARTED", stepName: "answer" },
        ...textEvents("m1", ["Done"]),
        { type: "STEP_FINISHED", stepName: "answer" },
        { type: "CUSTOM", name: "note", value: { any: "thing" } },
      ],
    }]);
    const { chunks, result } = await collect(turnInput(agentFor(fake)));
    assert.deepEqual(chunks, [
      { type: "reasoning", text: "Thinking" },
      { type: "reasoning", text: " hard" },
      { type: "text", text: "Done" },
      { type: "step", usage: {}, finishReason: "stop" },
    ]);
    assert.deepEqual(result.messages[0].content, [
      { type: "reasoning", text: "Thinking hard" },
      { type: "text", text: "Done" },
    ]);
    assertModelMessages(result.messages);
  });
});

Deno.test("an AG-UI turn shows the agent's own tool calls and results", async () => {
  await withAgent(async (fake) => {
    fake.script([{
      events: [
        ...toolCallEvents("tc1", "search", { query: "deno" }),
        { type: "TOOL_CALL_RESULT", messageId: "t1", toolCallId: "tc1", content: "3 hits" },
        ...textEvents("m2", ["Found 3"]),
      ],
    }]);
    const { chunks, result } = await collect(turnInput(agentFor(fake)));
    assert.deepEqual(chunks.slice(0, 1), [{
      type: "tool-call",
      id: "tc1",
      name: "search",
      tool: "search",
      source: "agent",
      input: { query: "deno" },
    }]);
    const toolResult = chunks[1] as Extract<TurnChunk, { type: "tool-result" }>;
    assert.equal(toolResult.type, "tool-result");
    assert.equal(toolResult.id, "tc1");
    assert.equal(toolResult.output, "3 hits");
    assert.equal(toolResult.isError, false);
    assert.equal(typeof toolResult.durationMs, "number");
    assert.deepEqual(chunks.slice(2).map((chunk) => chunk.type), ["text", "step"]);
    assert.deepEqual(result.messages.map((message) => message.role), [
      "assistant",
      "tool",
      "assistant",
    ]);
    assert.deepEqual(result.messages[1].content, [{
      type: "tool-result",
      toolCallId: "tc1",
      toolName: "search",
      output: { type: "text", value: "3 hits" },
    }]);
    assertModelMessages(result.messages);
  });
});

Deno.test("a shared tool called by the agent runs in Lass and its result starts a second run", async () => {
  await withAgent(async (fake) => {
    fake.script((input, index) =>
      index === 0 ? { events: toolCallEvents("call-1", "demo__echo", { text: "ping" }) } : {
        events: textEvents("m2", [
          `The tool said ${(input.messages.at(-1) as { content: string }).content}`,
        ]),
      }
    );
    const calls: unknown[] = [];
    const agent = agentFor(fake, { shareTools: true });
    const { chunks, result } = await collect(turnInput(agent, { tools: echoTools(calls) }));

    assert.deepEqual(calls, [{ text: "ping" }]);
    assert.deepEqual(chunks, [
      {
        type: "tool-call",
        id: "call-1",
        name: "demo__echo",
        tool: "echo",
        source: "demo",
        input: { text: "ping" },
      },
      // As in a model turn: the call, its result, then the step.
      {
        type: "tool-result",
        id: "call-1",
        output: "echo: ping",
        isError: false,
        durationMs: 7,
        raw: { content: [{ type: "text", text: "echo" }] },
      },
      { type: "step", usage: {}, finishReason: "tool-calls" },
      { type: "text", text: "The tool said echo: ping" },
      { type: "step", usage: {}, finishReason: "stop" },
    ]);

    assert.equal(fake.runs.length, 2);
    const [first, second] = fake.runs.map((run) => run.input);
    assert.deepEqual(first.tools, [{
      name: "demo__echo",
      description: "Echoes the text",
      parameters: {
        type: "object",
        properties: { text: { type: "string" } },
        required: ["text"],
      },
    }]);
    assert.equal(second.threadId, first.threadId);
    assert.equal(second.runId, "run-1-2");
    assert.deepEqual(second.messages, [
      { id: "lass-0", role: "user", content: "Hi there" },
      {
        id: "lass-1",
        role: "assistant",
        toolCalls: [{
          id: "call-1",
          type: "function",
          function: { name: "demo__echo", arguments: '{"text":"ping"}' },
        }],
      },
      { id: "lass-2-0", role: "tool", toolCallId: "call-1", content: "echo: ping" },
    ]);

    assert.deepEqual(result.messages.map((message) => message.role), [
      "assistant",
      "tool",
      "assistant",
    ]);
    assert.deepEqual(result.messages[1].content, [{
      type: "tool-result",
      toolCallId: "call-1",
      toolName: "demo__echo",
      output: { type: "text", value: "echo: ping" },
    }]);
    assertModelMessages(result.messages);

    // The next turn sends the whole history back and stays on the same thread.
    fake.script([{ events: textEvents("m3", ["Again"]) }]);
    const history: ModelMessage[] = [
      { role: "user", content: "Hi there" },
      ...result.messages,
      { role: "user", content: "Once more" },
    ];
    await collect(turnInput(agent, { messages: history, runId: "run-2", tools: echoTools([]) }));
    const third = fake.runs[2].input;
    assert.equal(third.threadId, first.threadId);
    assert.deepEqual(third.messages.map((message) => message.role), [
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    assert.equal(third.messages[3].content, "The tool said echo: ping");
  });
});

Deno.test("an AG-UI turn stops after maxSteps runs, with the last tool results recorded", async () => {
  await withAgent(async (fake) => {
    fake.script([{ events: toolCallEvents("call-1", "demo__echo", { text: "once" }) }]);
    const calls: unknown[] = [];
    const agent = agentFor(fake, { shareTools: true });
    const { chunks, result } = await collect(
      turnInput(agent, { tools: echoTools(calls), maxSteps: 1 }),
    );
    assert.equal(fake.runs.length, 1);
    assert.deepEqual(calls, [{ text: "once" }]);
    assert.deepEqual(chunks.map((chunk) => chunk.type), ["tool-call", "tool-result", "step"]);
    assert.deepEqual(result.messages.map((message) => message.role), ["assistant", "tool"]);
  });
});

Deno.test("a shared tool that fails gives an error result and the agent still gets it", async () => {
  await withAgent(async (fake) => {
    fake.script([
      { events: toolCallEvents("call-1", "demo__broken", {}) },
      { events: textEvents("m2", ["Sorry"]) },
    ]);
    const tools: RunTools = {
      tools: {
        demo__broken: dynamicTool({
          description: "Always fails",
          inputSchema: jsonSchema({ type: "object" }),
          execute: () => Promise.reject(new Error("the server is gone")),
        }),
      },
      origins: new Map([["demo__broken", { source: "demo", tool: "broken" }]]),
      unavailable: [],
    };
    const agent = agentFor(fake, { shareTools: true });
    const { chunks } = await collect(turnInput(agent, { tools }));
    const result = chunks.find((chunk) => chunk.type === "tool-result");
    assert.deepEqual({ ...result, durationMs: 0 }, {
      type: "tool-result",
      id: "call-1",
      output: "the server is gone",
      isError: true,
      durationMs: 0,
    });
    assert.deepEqual(fake.runs[1].input.messages.at(-1), {
      id: "lass-2-0",
      role: "tool",
      toolCallId: "call-1",
      content: "the server is gone",
      error: "the server is gone",
    });
  });
});

Deno.test("a shared tool called with arguments that are not a JSON object gets a clear error and is not run", async () => {
  await withAgent(async (fake) => {
    fake.script([
      { events: rawToolCallEvents("call-1", "demo__echo", '{text: "ping"') },
      { events: rawToolCallEvents("call-2", "demo__echo", '["ping"]') },
      { events: textEvents("m3", ["Sorry"]) },
    ]);
    const calls: unknown[] = [];
    const agent = agentFor(fake, { shareTools: true });
    const { chunks } = await collect(turnInput(agent, { tools: echoTools(calls) }));
    assert.deepEqual(calls, [], "the tool server never sees the call");
    const [first, second] = chunks.filter((chunk) => chunk.type === "tool-result");
    assert.deepEqual(first, {
      type: "tool-result",
      id: "call-1",
      output: 'the arguments of demo__echo are not JSON ({text: "ping"); ' +
        "call it again with a JSON object",
      isError: true,
      durationMs: 0,
    });
    assert.match(
      String(second.type === "tool-result" && second.output),
      /must be a JSON object, not an array/,
    );
    assert.deepEqual(fake.runs[1].input.messages.at(-1), {
      id: "lass-2-0",
      role: "tool",
      toolCallId: "call-1",
      content: first.type === "tool-result" ? first.output : "",
      error: first.type === "tool-result" ? first.output : "",
    });
    assert.deepEqual(chunks.map((chunk) => chunk.type), [
      "tool-call",
      "tool-result",
      "step",
      "tool-call",
      "tool-result",
      "step",
      "text",
      "step",
    ]);
  });
});

Deno.test("the agent's state (snapshot, then JSON Patch deltas) goes back as state on the next run and turn", async () => {
  await withAgent(async (fake) => {
    fake.script([
      {
        events: [
          { type: "STATE_SNAPSHOT", snapshot: { count: 1, items: ["a"] } },
          { type: "STATE_DELTA", delta: [{ op: "replace", path: "/count", value: 2 }] },
          ...toolCallEvents("call-1", "demo__echo", { text: "ping" }),
        ],
      },
      {
        events: [
          { type: "STATE_DELTA", delta: [{ op: "add", path: "/items/-", value: "b" }] },
          // A patch that does not apply is ignored, as the AG-UI client does.
          { type: "STATE_DELTA", delta: [{ op: "replace", path: "/missing/x", value: 0 }] },
          ...textEvents("m2", ["Done"]),
        ],
      },
      { events: textEvents("m3", ["Again"]) },
      { events: textEvents("m4", ["Still"]) },
    ]);
    const agent = agentFor(fake, { shareTools: true });
    const first = await collect(turnInput(agent, { tools: echoTools([]) }));
    const states = () => fake.runs.map((run) => run.input.state);
    assert.deepEqual(states(), [{}, { count: 2, items: ["a"] }]);
    const last = first.result.messages.at(-1)!;
    assert.deepEqual(last.providerOptions?.agui, {
      threadId: fake.runs[0].input.threadId,
      state: { count: 2, items: ["a", "b"] },
    });
    assertModelMessages(first.result.messages);

    // The next turn (history kept by the client or a session) sends it back; a turn that does
    // not change it records nothing new, and the one after still finds it.
    const history: ModelMessage[] = [
      { role: "user", content: "Hi there" },
      ...first.result.messages,
      { role: "user", content: "Once more" },
    ];
    const second = await collect(turnInput(agent, { messages: history, runId: "run-2" }));
    assert.deepEqual(states()[2], { count: 2, items: ["a", "b"] });
    assert.equal("state" in (second.result.messages[0].providerOptions?.agui ?? {}), false);
    await collect(turnInput(agent, {
      messages: [...history, ...second.result.messages, { role: "user", content: "And?" }],
      runId: "run-3",
    }));
    assert.deepEqual(states()[3], { count: 2, items: ["a", "b"] });
  });
});

Deno.test("an env reference in an AG-UI agent's URL is resolved at use", async () => {
  await withAgent(async (fake) => {
    fake.script([{ events: textEvents("m1", ["hi"]) }]);
    const env = (name: string) => ({ ...ENV, AGUI_URL: fake.url })[name];
    const agent = agentFor(fake, { url: "env:AGUI_URL" });
    const { chunks } = await collect(turnInput(agent, { env }));
    assert.deepEqual(chunks[0], { type: "text", text: "hi" });
    const probe = await testAguiAgent(agent, env, { timeoutMs: 10_000 });
    assert.equal(probe.ok, true, probe.error);
    const unset = await testAguiAgent(agentFor(fake, { url: "env:AGUI_NOPE" }), env, {
      timeoutMs: 10_000,
    });
    assert.equal(
      unset.error,
      "the URL of the agent helper refers to the environment variable AGUI_NOPE, which is not set",
    );
    await assert.rejects(
      collect(turnInput(agentFor(fake, { url: "env:AGUI_NOPE" }), { env })),
      /AGUI_NOPE, which is not set/,
    );
  });
});

Deno.test("without shareTools the workspace's tools are not offered or run", async () => {
  await withAgent(async (fake) => {
    fake.script([{ events: toolCallEvents("call-1", "demo__echo", { text: "no" }) }]);
    const calls: unknown[] = [];
    const { chunks } = await collect(turnInput(agentFor(fake), { tools: echoTools(calls) }));
    assert.deepEqual(fake.runs[0].input.tools, []);
    assert.equal(fake.runs.length, 1);
    assert.deepEqual(calls, []);
    assert.deepEqual(chunks[0], {
      type: "tool-call",
      id: "call-1",
      name: "demo__echo",
      tool: "demo__echo",
      source: "agent",
      input: { text: "no" },
    });
    assert.deepEqual(chunks[1], { type: "step", usage: {}, finishReason: "stop" });
  });
});

Deno.test("the history goes out as AG-UI messages: system, multimodal user, tool calls, results", async () => {
  await withAgent(async (fake) => {
    fake.script([{ events: textEvents("m1", ["ok"]) }]);
    const messages: ModelMessage[] = [
      { role: "system", content: "Be brief." },
      {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", image: "aGVsbG8=", mediaType: "image/png" },
          {
            type: "file",
            data: new URL("https://example.com/a.pdf"),
            mediaType: "application/pdf",
          },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "hidden" },
          { type: "text", text: "Let me look." },
          { type: "tool-call", toolCallId: "c1", toolName: "lookup", input: { id: 1 } },
        ],
      },
      {
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: "c1",
          toolName: "lookup",
          output: { type: "error-text", value: "not found" },
        }],
      },
      { role: "user", content: "And now?" },
    ];
    await collect(turnInput(agentFor(fake), { messages }));
    assert.deepEqual(fake.runs[0].input.messages, [
      { id: "lass-0", role: "system", content: "Be brief." },
      {
        id: "lass-1",
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", source: { type: "data", value: "aGVsbG8=", mimeType: "image/png" } },
          {
            type: "document",
            source: {
              type: "url",
              value: "https://example.com/a.pdf",
              mimeType: "application/pdf",
            },
          },
        ],
      },
      {
        id: "lass-2",
        role: "assistant",
        content: "Let me look.",
        toolCalls: [{
          id: "c1",
          type: "function",
          function: { name: "lookup", arguments: '{"id":1}' },
        }],
      },
      { id: "lass-3-0", role: "tool", toolCallId: "c1", content: "not found", error: "not found" },
      { id: "lass-4", role: "user", content: "And now?" },
    ]);
  });
});

Deno.test("RUN_ERROR ends the turn with the agent's message", async () => {
  await withAgent(async (fake) => {
    fake.script([{
      events: [...textEvents("m1", ["Part"]), {
        type: "RUN_ERROR",
        message: "model quota exceeded",
        code: "quota",
      }],
      finish: null,
    }]);
    const chunks: TurnChunk[] = [];
    await assert.rejects(
      async () => {
        for await (const chunk of runAguiTurn(turnInput(agentFor(fake)))) chunks.push(chunk);
      },
      { message: "the AG-UI agent helper reported an error: model quota exceeded (quota)" },
    );
    assert.deepEqual(chunks, [{ type: "text", text: "Part" }]);
  });
});

Deno.test("an HTTP 500 from the agent is one clear error, without console noise", async () => {
  await withAgent(async (fake) => {
    fake.script([{ status: 500, body: "boom" }]);
    const logged: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      await assert.rejects(
        async () => {
          for await (const _ of runAguiTurn(turnInput(agentFor(fake)))) { /* no chunks */ }
        },
        { message: "the AG-UI agent helper answered HTTP 500: boom" },
      );
    } finally {
      console.error = original;
    }
    assert.deepEqual(logged, []);
  });
});

Deno.test("an unreachable agent is one clear error", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  listener.close();
  const agent: AgentConfig = {
    id: "gone",
    name: "Gone",
    protocol: "ag-ui",
    url: `http://127.0.0.1:${port}/agent`,
  };
  await assert.rejects(
    async () => {
      for await (const _ of runAguiTurn(turnInput(agent))) { /* no chunks */ }
    },
    (error: Error) => error.message.startsWith(`the AG-UI agent gone could not be reached at`),
  );
});

Deno.test("a stream that stops before RUN_FINISHED is an error", async () => {
  await withAgent(async (fake) => {
    fake.script([{ events: textEvents("m1", ["Half"]), finish: null }]);
    await assert.rejects(
      async () => {
        for await (const _ of runAguiTurn(turnInput(agentFor(fake)))) { /* ignore */ }
      },
      { message: "the AG-UI agent helper ended its stream before finishing the run" },
    );
  });
});

Deno.test("aborting a turn closes the agent's stream and returns quietly", async () => {
  await withAgent(async (fake) => {
    fake.script([{ events: textEvents("m1", ["one", "two", "three"]), delayMs: 30, hang: true }]);
    const controller = new AbortController();
    const chunks: TurnChunk[] = [];
    const closed = fake.clientClosed();
    const turn = runAguiTurn(turnInput(agentFor(fake), { signal: controller.signal }));
    for (;;) {
      const next = await turn.next();
      if (next.done) {
        assert.deepEqual(next.value.messages.map((message) => message.role), ["assistant"]);
        break;
      }
      chunks.push(next.value);
      if (chunks.length === 1) controller.abort();
    }
    assert.deepEqual(chunks, [{ type: "text", text: "one" }]);
    await closed;
    assert.equal(fake.openStreams(), 0);
  });
});

Deno.test("testAguiAgent reports the events seen and the reply text", async () => {
  await withAgent(async (fake) => {
    fake.script([{ events: textEvents("m1", ["Hi", " Lass"]) }]);
    const probe = await testAguiAgent(agentFor(fake), (name) => ENV[name], { timeoutMs: 5000 });
    assert.equal(probe.ok, true);
    assert.equal(probe.text, "Hi Lass");
    assert.deepEqual(probe.events, [
      "RUN_STARTED",
      "TEXT_MESSAGE_START",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_CONTENT",
      "TEXT_MESSAGE_END",
      "RUN_FINISHED",
    ]);
    assert.equal(typeof probe.latencyMs, "number");
    const [run] = fake.runs;
    assert.deepEqual(run.input.messages.map((message) => message.content), [
      "Hello! This is a connection test from Lass.",
    ]);
    assert.equal(run.headers["authorization"], "Bearer secret-123");
  });
});

Deno.test("testAguiAgent turns failures into ok:false without throwing", async () => {
  await withAgent(async (fake) => {
    const env = (name: string) => ENV[name];
    fake.script([{ status: 500, body: "down" }]);
    const http = await testAguiAgent(agentFor(fake), env, { timeoutMs: 5000 });
    assert.equal(http.ok, false);
    assert.equal(http.error, "the AG-UI agent helper answered HTTP 500: down");

    fake.script([{ events: [{ type: "RUN_ERROR", message: "no model" }], finish: null }]);
    const runError = await testAguiAgent(agentFor(fake), env, { timeoutMs: 5000 });
    assert.equal(runError.ok, false);
    assert.equal(runError.error, "the AG-UI agent helper reported an error: no model");
    assert.deepEqual(runError.events, ["RUN_STARTED", "RUN_ERROR"]);

    fake.script([{ events: textEvents("m1", ["slow"]), hang: true }]);
    const closed = fake.clientClosed();
    const slow = await testAguiAgent(agentFor(fake), env, { timeoutMs: 200 });
    assert.equal(slow.ok, false);
    assert.equal(slow.error, "the AG-UI agent helper did not finish a run within 200 ms");
    assert.deepEqual(slow.events?.slice(0, 2), ["RUN_STARTED", "TEXT_MESSAGE_START"]);
    await closed;

    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = listener.addr.port;
    listener.close();
    const gone = { ...agentFor(fake), url: `http://127.0.0.1:${port}/agent` };
    const unreachable = await testAguiAgent(gone, env, { timeoutMs: 5000 });
    assert.equal(unreachable.ok, false);
    assert.match(unreachable.error ?? "", /^the AG-UI agent helper could not be reached at /);
    assert.equal(unreachable.events, undefined);
  });
});
