/** The A2A adapter against loopback agents built with the SDK's own server pieces. */
import assert from "node:assert/strict";
import type { ModelMessage } from "ai";
import { runA2aTurn, TEST_MESSAGE, testA2aAgent } from "../../core/agents/a2a.ts";
import { cardUrlOf } from "../../core/agents/_a2a_client.ts";
import { A2aReply } from "../../core/agents/_a2a_reply.ts";
import type { AgentConfig, AgentTurnResult } from "../../core/agents/types.ts";
import type { TurnChunk } from "../../core/chat/types.ts";
import type { EnvLookup } from "../../core/config/env_refs.ts";
import { type A2aAgentOptions, startA2aAgent } from "../fixtures/a2a_agents.ts";

function agentAt(url: string, headers?: Record<string, string>): AgentConfig {
  return { id: "fixture", name: "Fixture", protocol: "a2a", url, headers };
}

interface TurnOutput {
  chunks: TurnChunk[];
  result: AgentTurnResult;
  text: string;
}

async function turn(
  agent: AgentConfig,
  messages: ModelMessage[],
  options: { env?: EnvLookup; signal?: AbortSignal } = {},
): Promise<TurnOutput> {
  const generator = runA2aTurn({
    agent,
    messages,
    runId: "run-1",
    signal: options.signal ?? new AbortController().signal,
    env: options.env ?? (() => undefined),
    maxSteps: 5,
  });
  const chunks: TurnChunk[] = [];
  while (true) {
    const next = await generator.next();
    if (next.done) {
      const text = chunks.map((chunk) => chunk.type === "text" ? chunk.text : "").join("");
      return { chunks, result: next.value, text };
    }
    chunks.push(next.value);
  }
}

/** Runs `body` with a fixture agent, closing it afterwards. */
async function withAgent(
  options: A2aAgentOptions,
  body: (agent: ReturnType<typeof startA2aAgent>) => Promise<void>,
): Promise<void> {
  const fixture = startA2aAgent(options);
  try {
    await body(fixture);
  } finally {
    await fixture.close();
  }
}

function user(text: string): ModelMessage {
  return { role: "user", content: text };
}

function a2aOf(result: AgentTurnResult): Record<string, string> {
  return result.messages[0].providerOptions?.a2a as Record<string, string>;
}

/** The text of the message the agent received in call `index`. */
function sentText(call: { params: Record<string, unknown> }): string {
  const message = call.params.message as { parts: { text?: string }[] };
  return message.parts.map((part) => part.text ?? "").join("");
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("a streaming v1.0 agent's artifact pieces arrive as text deltas, then one step", async () => {
  await withAgent({}, async (fixture) => {
    const { chunks, result, text } = await turn(agentAt(fixture.url), [user("hello")]);
    const texts = chunks.filter((chunk) => chunk.type === "text");
    assert.ok(texts.length >= 3, `expected several deltas, got ${texts.length}`);
    assert.deepEqual(chunks.at(-1), { type: "step", usage: {}, finishReason: "stop" });
    assert.equal(chunks.filter((chunk) => chunk.type === "step").length, 1);
    const { contextId, taskId, state } = a2aOf(result);
    assert.equal(text, `turn 1 in context ${contextId}: hello`);
    assert.ok(taskId);
    assert.equal(state, "completed");
    assert.deepEqual(result.messages, [{
      role: "assistant",
      content: [{ type: "text", text }],
      providerOptions: { a2a: { agentId: "fixture", contextId, taskId, state: "completed" } },
    }]);
    assert.deepEqual(fixture.calls.map((call) => call.method), ["SendStreamingMessage"]);
    assert.equal(fixture.calls[0].headers["a2a-version"], "1.0");
  });
});

Deno.test("the next turn continues the A2A context and sends only the new message", async () => {
  await withAgent({}, async (fixture) => {
    const agent = agentAt(fixture.url);
    const first = await turn(agent, [user("hello")]);
    const { contextId } = a2aOf(first.result);
    const history = [user("hello"), ...first.result.messages, user("again")];
    const second = await turn(agent, history);
    assert.equal(second.text, `turn 2 in context ${contextId}: again`);
    assert.equal(a2aOf(second.result).contextId, contextId);
    const sent = fixture.calls[1].params.message as { contextId?: string; taskId?: string };
    assert.equal(sent.contextId, contextId);
    assert.equal(sent.taskId, undefined, "a completed task is not continued");
    assert.equal(sentText(fixture.calls[1]), "again");
    // Without the earlier reply the agent starts a new context.
    const fresh = await turn(agent, [user("hello")]);
    assert.notEqual(a2aOf(fresh.result).contextId, contextId);
    assert.match(fresh.text, /^turn 1 in context /);
  });
});

Deno.test("an A2A reply of another agent does not carry its context over", async () => {
  await withAgent({}, async (fixture) => {
    const foreign: ModelMessage = {
      role: "assistant",
      content: [{ type: "text", text: "hi" }],
      providerOptions: { a2a: { agentId: "other", contextId: "ctx-of-other", taskId: "t" } },
    };
    const { text } = await turn(agentAt(fixture.url), [user("a"), foreign, user("b")]);
    assert.match(text, /^turn 1 in context /);
    assert.doesNotMatch(text, /ctx-of-other/);
  });
});

Deno.test("a task that wants input ends the turn with its question; the answer resumes that task", async () => {
  await withAgent({}, async (fixture) => {
    const agent = agentAt(fixture.url);
    const first = await turn(agent, [user("ask")]);
    assert.equal(first.text, "What is your name?");
    assert.equal(first.chunks.at(-1)?.type, "step");
    const asked = a2aOf(first.result);
    assert.equal(asked.state, "input-required");
    const second = await turn(agent, [user("ask"), ...first.result.messages, user("Ada")]);
    assert.equal(second.text, "Nice to meet you, Ada.");
    const sent = fixture.calls[1].params.message as { contextId?: string; taskId?: string };
    assert.equal(sent.taskId, asked.taskId);
    assert.equal(sent.contextId, asked.contextId);
    assert.equal(a2aOf(second.result).state, "completed");
  });
});

Deno.test("a task that wants authorization ends the turn with the agent's words", async () => {
  for (const streaming of [true, false]) {
    await withAgent({ streaming }, async (fixture) => {
      const { text, result, chunks } = await turn(agentAt(fixture.url), [user("auth")]);
      assert.equal(text, "Please sign in at https://example.test/login");
      assert.equal(a2aOf(result).state, "auth-required");
      assert.equal(chunks.at(-1)?.type, "step");
      // The SDK's server keeps such a stream open; the turn closed it.
      for (let i = 0; streaming && i < 50 && fixture.closedStreams() === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (streaming) assert.equal(fixture.closedStreams(), 1);
    });
  }
});

Deno.test("a non-streaming agent is polled with getTask until its task completes", async () => {
  await withAgent({ streaming: false, delayMs: 400 }, async (fixture) => {
    const { text, result, chunks } = await turn(agentAt(fixture.url), [user("hello")]);
    assert.equal(text, `turn 1 in context ${a2aOf(result).contextId}: hello`);
    const methods = fixture.calls.map((call) => call.method);
    assert.equal(methods[0], "SendMessage");
    assert.ok(methods.slice(1).every((method) => method === "GetTask"));
    assert.ok(methods.length >= 2, `expected polling, got ${methods.join(", ")}`);
    assert.equal(chunks.at(-1)?.type, "step");
  });
});

Deno.test("a plain message answer (no task) is the reply", async () => {
  await withAgent({}, async (fixture) => {
    const { text, result } = await turn(agentAt(fixture.url), [user("direct")]);
    const { contextId, taskId } = a2aOf(result);
    assert.equal(text, `a direct answer in context ${contextId}`);
    assert.equal(taskId, "");
  });
});

Deno.test("status messages are paragraphs of the reply, streamed or polled", async () => {
  for (const streaming of [true, false]) {
    await withAgent({ streaming }, async (fixture) => {
      const { text } = await turn(agentAt(fixture.url), [user("status")]);
      // Polling sees only the last status of a task that finished between two looks.
      const expected = streaming
        ? "thinking…\n\nthe answer is in the status"
        : /the answer is in the status$/;
      if (typeof expected === "string") assert.equal(text, expected);
      else assert.match(text, expected);
    });
  }
});

Deno.test("failed and rejected tasks are thrown with the agent's words", async () => {
  for (const streaming of [true, false]) {
    await withAgent({ streaming }, async (fixture) => {
      const agent = agentAt(fixture.url);
      await assert.rejects(turn(agent, [user("fail")]), {
        message: "the agent failed the task: the fixture cannot do that",
      });
      await assert.rejects(turn(agent, [user("reject")]), {
        message: "the agent rejected the task: not my job",
      });
    });
  }
});

Deno.test("a v0.3 agent is spoken to through the SDK's compat layer, streaming and not", async () => {
  await withAgent({ version: "0.3" }, async (fixture) => {
    const agent = agentAt(fixture.url);
    const first = await turn(agent, [user("hello")]);
    const { contextId } = a2aOf(first.result);
    assert.equal(first.text, `turn 1 in context ${contextId}: hello`);
    const second = await turn(agent, [user("hello"), ...first.result.messages, user("again")]);
    assert.equal(second.text, `turn 2 in context ${contextId}: again`);
    assert.deepEqual(fixture.calls.map((call) => call.method), [
      "message/stream",
      "message/stream",
    ]);
    await assert.rejects(turn(agent, [user("fail")]), {
      message: "the agent failed the task: the fixture cannot do that",
    });
  });
  await withAgent({ version: "0.3", streaming: false, delayMs: 300 }, async (fixture) => {
    const { text, result } = await turn(agentAt(fixture.url), [user("hello")]);
    assert.equal(text, `turn 1 in context ${a2aOf(result).contextId}: hello`);
    const methods = new Set(fixture.calls.map((call) => call.method));
    assert.deepEqual([...methods], ["message/send", "tasks/get"]);
  });
});

Deno.test("the agent URL may name the card itself", async () => {
  await withAgent({}, async (fixture) => {
    const { text } = await turn(agentAt(fixture.cardUrl), [user("hi")]);
    assert.match(text, /^turn 1 in context .+: hi$/);
  });
  assert.equal(cardUrlOf("http://h:1"), "http://h:1/.well-known/agent-card.json");
  assert.equal(cardUrlOf("http://h/agents/x"), "http://h/agents/x/.well-known/agent-card.json");
  assert.equal(cardUrlOf("http://h/a/card.json"), "http://h/a/card.json");
  assert.equal(
    cardUrlOf("http://h/.well-known/agent.json"),
    "http://h/.well-known/agent.json",
  );
});

Deno.test("headers with env references reach the agent; without them the card is refused", async () => {
  const requireHeader = { name: "authorization", value: "Bearer s3cret" };
  await withAgent({ requireHeader }, async (fixture) => {
    const agent = agentAt(fixture.url, { authorization: "Bearer ${A2A_TOKEN}" });
    const env = (name: string) => name === "A2A_TOKEN" ? "s3cret" : undefined;
    const { text } = await turn(agent, [user("hello")], { env });
    assert.match(text, /^turn 1 in context /);
    assert.equal(fixture.calls[0].headers.authorization, "Bearer s3cret");
    await assert.rejects(turn(agent, [user("hello")]), {
      message: `the agent card at ${fixture.cardUrl} could not be fetched (401): ` +
        `{"error":"missing credentials"}`,
    });
  });
});

Deno.test("HTTP errors and unreachable agents are one sentence", async () => {
  await withAgent({ rpcStatus: 500 }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.url), [user("hello")]), {
      message:
        `the agent at ${fixture.url}/a2a/jsonrpc failed (500): the agent is having a bad day`,
    });
  });
  await withAgent({ rpcStatus: 500, streaming: false }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.url), [user("hello")]), {
      message:
        `the agent at ${fixture.url}/a2a/jsonrpc failed (500): the agent is having a bad day`,
    });
  });
  await withAgent({ cardStatus: 500 }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.url), [user("hello")]), {
      message: `the agent card at ${fixture.cardUrl} could not be fetched (500): card trouble`,
    });
  });
  const port = closedPort();
  await assert.rejects(turn(agentAt(`http://127.0.0.1:${port}`), [user("hello")]), {
    message: `cannot reach http://127.0.0.1:${port}/.well-known/agent-card.json`,
  });
  await assert.rejects(turn(agentAt(`http://127.0.0.1:${port}`), []), {
    message: "there is no user message to send to the agent",
  });
});

/** A card transform that replaces its interfaces with one. */
const withInterface = (url: string, binding = "JSONRPC", version = "1.0") => (card: object) => ({
  ...card,
  supportedInterfaces: [{ url, protocolBinding: binding, tenant: "", protocolVersion: version }],
});

Deno.test("the card decides the endpoint: relative URLs, dead ports, unknown bindings, odd documents", async () => {
  await withAgent({ card: withInterface("/a2a/jsonrpc") }, async (fixture) => {
    const { text } = await turn(agentAt(fixture.url), [user("hi")]);
    assert.match(text, /^turn 1 in context .+: hi$/);
  });
  const port = closedPort();
  await withAgent({ card: withInterface(`http://127.0.0.1:${port}/a2a`) }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.url), [user("hi")]), {
      message: `cannot reach http://127.0.0.1:${port}/a2a`,
    });
  });
  await withAgent({ card: withInterface("http://127.0.0.1:1/a2a", "GRPC") }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.url), [user("hi")]), {
      message: "the agent offers no interface Lass can use (it offers GRPC; " +
        "Lass speaks JSONRPC and HTTP+JSON)",
    });
  });
  await withAgent({ card: () => ({ hello: "world" }) }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.url), [user("hi")]), {
      message: `the document at ${fixture.cardUrl} is not an A2A agent card ` +
        "(it has neither supportedInterfaces nor url)",
    });
  });
});

Deno.test("a v1.0 call answered 'method not found' is asked once more in v0.3", async () => {
  // A v0.3 server behind a card in the v1.0 shape that claims v1.0.
  await withAgent({
    version: "0.3",
    card: (card) => withInterface((card as { url: string }).url)({ name: "liar" }),
  }, async (fixture) => {
    const { text } = await turn(agentAt(fixture.url), [user("hi")]);
    assert.match(text, /^turn 1 in context .+: hi$/);
    const methods = fixture.calls.map((call) => call.method);
    assert.deepEqual(methods.slice(0, 2), ["SendMessage", "message/send"]);
    assert.equal(methods.filter((method) => method === "SendMessage").length, 1);
  });
});

Deno.test("a card in the v0.3 shape (a top-level url) that claims v1.0 is spoken to in v0.3", async () => {
  await withAgent({
    version: "0.3",
    card: (card) => ({ ...card, protocolVersion: "1.0" }),
  }, async (fixture) => {
    const { text } = await turn(agentAt(fixture.url), [user("hi")]);
    assert.match(text, /^turn 1 in context .+: hi$/);
    assert.deepEqual(fixture.calls.map((call) => call.method), ["message/stream"]);
  });
});

Deno.test("the agent's JSON-RPC endpoint pasted as its URL finds the card at the origin", async () => {
  await withAgent({}, async (fixture) => {
    const { text } = await turn(agentAt(fixture.rpcUrl), [user("hi")]);
    assert.match(text, /^turn 1 in context .+: hi$/);
    const probe = await testA2aAgent(agentAt(fixture.rpcUrl), () => undefined, {
      timeoutMs: 10_000,
    });
    assert.equal(probe.ok, true, probe.error);
  });
  await withAgent({ cardStatus: 404 }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.rpcUrl), [user("hi")]), {
      message: `the agent card at ${fixture.rpcUrl}/.well-known/agent-card.json could not be ` +
        `fetched (404): not found, and there is none at ${fixture.cardUrl} either`,
    });
  });
  // Refused credentials are not "no card here": the origin is not tried.
  await withAgent({ requireHeader: { name: "authorization", value: "x" } }, async (fixture) => {
    await assert.rejects(turn(agentAt(fixture.rpcUrl), [user("hi")]), {
      message: `the agent card at ${fixture.rpcUrl}/.well-known/agent-card.json could not be ` +
        `fetched (401): {"error":"missing credentials"}`,
    });
  });
});

Deno.test("an env reference in the agent URL is resolved at use; an unset variable is named", async () => {
  await withAgent({}, async (fixture) => {
    const env = (name: string) => ({ A2A_BASE: fixture.url, A2A_HOST: "127.0.0.1" })[name];
    const port = new URL(fixture.url).port;
    for (const url of ["env:A2A_BASE", `http://\${A2A_HOST}:${port}`]) {
      const { text } = await turn(agentAt(url), [user("hi")], { env });
      assert.match(text, /^turn \d in context .+: hi$/, url);
    }
    const probe = await testA2aAgent(agentAt("env:A2A_BASE"), env, { timeoutMs: 10_000 });
    assert.equal(probe.ok, true, probe.error);
    await assert.rejects(turn(agentAt("env:A2A_NOPE"), [user("hi")], { env }), {
      message:
        "the URL of the agent fixture refers to the environment variable A2A_NOPE, which is not set",
    });
    const unset = await testA2aAgent(agentAt("${A2A_NOPE}/x"), env, { timeoutMs: 10_000 });
    assert.equal(unset.ok, false);
    assert.match(unset.error ?? "", /A2A_NOPE, which is not set/);
  });
});

Deno.test("aborting mid-stream stops the turn and cancels the task at the agent", async () => {
  await withAgent({ slowPieceMs: 30 }, async (fixture) => {
    const controller = new AbortController();
    const generator = runA2aTurn({
      agent: agentAt(fixture.url),
      messages: [user("slow")],
      runId: "run-abort",
      signal: controller.signal,
      env: () => undefined,
      maxSteps: 5,
    });
    const first = await generator.next();
    assert.equal(first.done, false);
    assert.deepEqual(first.value, { type: "text", text: "piece 0 " });
    controller.abort(new DOMException("the client went away", "AbortError"));
    const started = performance.now();
    await assert.rejects(
      (async () => {
        while (!(await generator.next()).done) { /* drain */ }
      })(),
      { name: "AbortError" },
    );
    assert.ok(performance.now() - started < 2000, "the turn stops promptly");
    assert.equal(fixture.canceled.length, 1, "the agent was asked to cancel the task");
    // The agent's side of the stream closes too (the client went away or the task ended).
    for (let i = 0; i < 50 && fixture.closedStreams() === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(fixture.closedStreams() >= 1, "the fixture saw the stream closed");
  });
});

Deno.test("aborting while polling stops the turn and cancels the task", async () => {
  await withAgent({ streaming: false, delayMs: 5_000 }, async (fixture) => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    await assert.rejects(
      turn(agentAt(fixture.url), [user("hello")], { signal: controller.signal }),
      {
        name: "AbortError",
      },
    );
    assert.ok(performance.now() - started < 2000);
    assert.equal(fixture.canceled.length, 1);
    assert.ok(fixture.calls.some((call) => call.method === "CancelTask"));
  });
});

Deno.test("a user message's images and files go to the agent as file parts, v1.0 and v0.3", async () => {
  const message: ModelMessage = {
    role: "user",
    content: [
      { type: "text", text: "look" },
      { type: "image", image: new Uint8Array([1, 2, 3]), mediaType: "image/png" },
      { type: "image", image: "data:image/gif;base64,R0lG", mediaType: "image/gif" },
      {
        type: "file",
        data: "https://example.test/a.pdf",
        mediaType: "application/pdf",
        filename: "a.pdf",
      },
    ],
  };
  await withAgent({}, async (fixture) => {
    await turn(agentAt(fixture.url), [message]);
    const sent = fixture.calls[0].params.message as { parts: unknown[] };
    assert.deepEqual(sent.parts, [
      { text: "look", mediaType: "text/plain" },
      { raw: "AQID", mediaType: "image/png" },
      { raw: "R0lG", mediaType: "image/gif" },
      { url: "https://example.test/a.pdf", filename: "a.pdf", mediaType: "application/pdf" },
    ]);
    assert.equal(sentText(fixture.calls[0]), "look");
  });
  await withAgent({ version: "0.3" }, async (fixture) => {
    await turn(agentAt(fixture.url), [message]);
    const sent = fixture.calls[0].params.message as { parts: unknown[] };
    assert.deepEqual(sent.parts, [
      { kind: "text", text: "look" },
      { kind: "file", file: { bytes: "AQID", mimeType: "image/png" } },
      { kind: "file", file: { bytes: "R0lG", mimeType: "image/gif" } },
      {
        kind: "file",
        file: { uri: "https://example.test/a.pdf", mimeType: "application/pdf", name: "a.pdf" },
      },
    ]);
  });
});

Deno.test("testA2aAgent returns the card and the answer to the test message", async () => {
  await withAgent({}, async (fixture) => {
    const probe = await testA2aAgent(agentAt(fixture.url), () => undefined, { timeoutMs: 5000 });
    assert.equal(probe.ok, true, probe.error);
    assert.equal((probe.card as { name: string }).name, "Fixture agent");
    // A streaming answer ends the test at its first text: the first of the echo's three pieces.
    assert.match(probe.text ?? "", /^turn 1 in c/);
    assert.ok(`turn 1 in context x: ${TEST_MESSAGE}`.length > (probe.text ?? "").length);
    assert.ok(probe.latencyMs >= 0);
  });
  await withAgent({ streaming: false }, async (fixture) => {
    const probe = await testA2aAgent(agentAt(fixture.url), () => undefined, { timeoutMs: 5000 });
    assert.equal(probe.ok, true, probe.error);
    assert.match(probe.text ?? "", new RegExp(`^turn 1 in context .+: ${TEST_MESSAGE}$`));
  });
  await withAgent({ version: "0.3", streaming: false }, async (fixture) => {
    const probe = await testA2aAgent(agentAt(fixture.url), () => undefined, { timeoutMs: 5000 });
    assert.equal(probe.ok, true, probe.error);
    assert.equal((probe.card as { protocolVersion: string }).protocolVersion, "0.3.0");
  });
});

Deno.test("testA2aAgent passes a streaming agent at its first text while it keeps working, and cancels the task", async () => {
  // Every message is "slow": the first piece at once, the next one a minute later.
  await withAgent({ answerAs: "slow", slowPieceMs: 60_000 }, async (fixture) => {
    const probe = await testA2aAgent(agentAt(fixture.url), () => undefined, {
      timeoutMs: 15_000,
    });
    assert.equal(probe.ok, true, probe.error);
    assert.equal(probe.text, "piece 0 ");
    assert.equal(fixture.canceled.length, 1, "the test task is canceled once answered");
  });
});

Deno.test("testA2aAgent reports failures without throwing", async () => {
  const port = closedPort();
  const unreachable = await testA2aAgent(agentAt(`http://127.0.0.1:${port}`), () => undefined, {
    timeoutMs: 5000,
  });
  assert.equal(unreachable.ok, false);
  assert.equal(unreachable.card, undefined);
  assert.equal(
    unreachable.error,
    `cannot reach http://127.0.0.1:${port}/.well-known/agent-card.json`,
  );
  await withAgent({ rpcStatus: 503 }, async (fixture) => {
    const probe = await testA2aAgent(agentAt(fixture.url), () => undefined, { timeoutMs: 5000 });
    assert.equal(probe.ok, false);
    assert.equal((probe.card as { name: string }).name, "Fixture agent");
    assert.match(probe.error ?? "", /failed \(503\)/);
  });
  await withAgent({ streaming: false, delayMs: 5_000 }, async (fixture) => {
    const probe = await testA2aAgent(agentAt(fixture.url), () => undefined, { timeoutMs: 300 });
    assert.equal(probe.ok, false);
    assert.equal(probe.error, `no answer from ${fixture.url} within 300 ms`);
    assert.ok(probe.card);
    assert.equal(fixture.canceled.length, 1, "the timed-out task is canceled");
  });
  await withAgent({ cardStatus: 404 }, async (fixture) => {
    const probe = await testA2aAgent(agentAt(fixture.url), () => undefined, { timeoutMs: 5000 });
    assert.equal(probe.ok, false);
    assert.match(probe.error ?? "", /could not be fetched \(404\)/);
  });
});

Deno.test("A2aReply: appended pieces continue, a repeated artifact shows only what it adds", () => {
  const reply = new A2aReply();
  const artifact = (text: string, append: boolean) => ({
    payload: {
      $case: "artifactUpdate" as const,
      value: {
        taskId: "t",
        contextId: "c",
        artifact: {
          artifactId: "a",
          name: "",
          description: "",
          parts: [{
            content: { $case: "text" as const, value: text },
            metadata: undefined,
            filename: "",
            mediaType: "text/plain",
          }],
          metadata: undefined,
          extensions: [],
        },
        append,
        lastChunk: false,
        metadata: undefined,
      },
    },
  });
  assert.equal(reply.apply(artifact("Hello ", false)), "Hello ");
  assert.equal(reply.apply(artifact("world", true)), "world");
  assert.equal(reply.apply(artifact("Hello world!", false)), "!");
  assert.equal(reply.apply(artifact("Something else", false)), "\n\nSomething else");
  assert.equal(reply.text, "Hello world!\n\nSomething else");
  assert.equal(reply.contextId, "c");
  assert.equal(reply.settled, false);
});
