/**
 * One model call of the step loop (`core/chat/model_call.ts`): the model's stream read once, what
 * the AI SDK's helpers make of its content, its errors, and a consumer that stops reading.
 */
import assert from "node:assert/strict";
import { StreamProviderError, ToolCallNotFoundForApprovalError, type ToolSet } from "ai";
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { modelSteps } from "../../core/chat/model_steps.ts";
import { anyTool, run, scriptedModel, USAGE } from "./_scripted_model.ts";

const START: LanguageModelV4StreamPart = { type: "stream-start", warnings: [] };
const STOP: LanguageModelV4StreamPart = {
  type: "finish",
  usage: USAGE,
  finishReason: { unified: "stop", raw: "stop" },
};

Deno.test("model call: a provider's error payload in the stream is thrown as the SDK's StreamProviderError", async () => {
  const payload = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };
  const model = scriptedModel([[START, { type: "error", error: payload }]]);
  const error = await run(model, {}).then(() => assert.fail("the turn did not fail"), (e) => e);
  assert.ok(StreamProviderError.isInstance(error), `not a StreamProviderError: ${error}`);
  assert.equal(error.message, "Overloaded");
  assert.equal(error.type, "overloaded_error");
  // The message says the status, as the SDK reads it.
  assert.equal(error.statusCode, 503);
  assert.equal(error.isRetryable, true);
  const limited = scriptedModel([[START, {
    type: "error",
    error: { error: { message: "Slow down", code: "rate_limit", status: 429 } },
  }]]);
  const slow = await run(limited, {}).then(() => assert.fail("the turn did not fail"), (e) => e);
  assert.deepEqual([slow.message, slow.code, slow.statusCode, slow.isRetryable], [
    "Slow down",
    "rate_limit",
    429,
    true,
  ]);
  // What is not an error payload is thrown as it came.
  const odd = scriptedModel([[START, { type: "error", error: "socket hang up" }]]);
  await assert.rejects(run(odd, {}), (thrown) => thrown === "socket hang up");
});

Deno.test("model call: generated files, sources and split text go into the next prompt as the SDK converts them", async () => {
  const model = scriptedModel([[
    START,
    { type: "text-start", id: "a" },
    { type: "text-delta", id: "a", delta: "Here " },
    { type: "text-delta", id: "a", delta: "it is" },
    { type: "text-end", id: "a", providerMetadata: { test: { signature: "s1" } } },
    { type: "file", mediaType: "image/png", data: { type: "data", data: "iVBORw0KGgo=" } },
    { type: "source", sourceType: "url", id: "s", url: "https://example.com/" },
    STOP,
  ]]);
  const { parts, outcome } = await run(model, {});
  assert.deepEqual(parts.map((part) => part.type), ["text-delta", "text-delta", "step"]);
  const [message] = outcome.messages;
  assert.equal(message.role, "assistant");
  assert.ok(Array.isArray(message.content));
  const text = message.content.find((part) => part.type === "text");
  assert.deepEqual(text, {
    type: "text",
    text: "Here it is",
    providerOptions: { test: { signature: "s1" } },
  });
  const file = message.content.find((part) => part.type === "file") as
    | { mediaType: string; data: unknown }
    | undefined;
  assert.equal(file?.mediaType, "image/png");
  assert.equal(file?.data, "iVBORw0KGgo=");
});

Deno.test("model call: a provider-executed tool is not run here; its call and result go back with the step", async () => {
  const tools = {
    web_search: { type: "provider", id: "test.web_search", args: {} },
  } as unknown as ToolSet;
  const model = scriptedModel([[
    START,
    {
      type: "tool-call",
      toolCallId: "srv_1",
      toolName: "web_search",
      input: "{}",
      providerExecuted: true,
    },
    { type: "tool-result", toolCallId: "srv_1", toolName: "web_search", result: { hits: 1 } },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "found one" },
    { type: "text-end", id: "t" },
    STOP,
  ]]);
  const { parts, outcome } = await run(model, tools);
  assert.deepEqual(parts.map((part) => part.type), ["tool-call", "text-delta", "step"]);
  assert.equal(outcome.steps, 1);
  // As JSON: the SDK leaves `providerOptions: undefined` on each part.
  assert.deepEqual(JSON.parse(JSON.stringify(outcome.messages)), [{
    role: "assistant",
    content: [
      {
        type: "tool-call",
        toolCallId: "srv_1",
        toolName: "web_search",
        input: {},
        providerExecuted: true,
      },
      {
        type: "tool-result",
        toolCallId: "srv_1",
        toolName: "web_search",
        output: { type: "json", value: { hits: 1 } },
      },
      { type: "text", text: "found one" },
    ],
  }]);
});

Deno.test("model call: a consumer that stops reading cancels the model's stream", async () => {
  const cancelled = Promise.withResolvers<unknown>();
  const model: LanguageModelV4 = {
    specificationVersion: "v4",
    provider: "test.endless",
    modelId: "endless",
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream: () =>
      Promise.resolve({
        stream: new ReadableStream<LanguageModelV4StreamPart>({
          start(controller) {
            controller.enqueue(START);
            controller.enqueue({ type: "text-start", id: "t" });
            controller.enqueue({ type: "text-delta", id: "t", delta: "and so on" });
          },
          cancel: (reason) => cancelled.resolve(reason),
        }),
      }),
  };
  const steps = modelSteps({
    model,
    settings: {},
    messages: [{ role: "user", content: "go" }],
    maxSteps: 1,
    signal: new AbortController().signal,
  });
  const first = await steps.next();
  assert.deepEqual(first.value, { type: "text-delta", text: "and so on" });
  await steps.return(undefined as never);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the model's stream was never cancelled")), 10_000);
  });
  try {
    await Promise.race([cancelled.promise, bound]);
  } finally {
    clearTimeout(timer);
  }
});

Deno.test("model call: a provider's result whose call came in an earlier answer goes back with the step", async () => {
  const model = scriptedModel([[
    START,
    { type: "tool-result", toolCallId: "srv_0", toolName: "code_execution", result: { ok: 1 } },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "done" },
    { type: "text-end", id: "t" },
    STOP,
  ]]);
  const { outcome } = await run(model, {});
  const [message] = JSON.parse(JSON.stringify(outcome.messages));
  assert.deepEqual(message.content.map((part: { type: string }) => part.type), [
    "tool-result",
    "text",
  ]);
  assert.equal(message.content[0].toolCallId, "srv_0");
});

Deno.test("model call: two calls with one id each go back with their own input", async () => {
  const seen: unknown[] = [];
  const tools = { count: anyTool((input) => (seen.push(input.n), input.n)) };
  const call = (n: number): LanguageModelV4StreamPart => ({
    type: "tool-call",
    toolCallId: "same",
    toolName: "count",
    input: JSON.stringify({ n }),
  });
  const model = scriptedModel([
    [START, call(1), call(2), {
      type: "finish",
      usage: USAGE,
      finishReason: { unified: "tool-calls", raw: "tool_calls" },
    }],
    [START, { type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "ok" }, STOP],
  ]);
  await run(model, tools);
  assert.deepEqual(seen.sort(), [1, 2]);
  const assistant = model.prompts[1].find((message) => message.role === "assistant");
  const inputs = (assistant?.content as { type: string; input?: unknown }[])
    .filter((part) => part.type === "tool-call").map((part) => part.input);
  assert.deepEqual(inputs, [{ n: 1 }, { n: 2 }]);
});

Deno.test("model call: an approval request for a call the answer does not have ends the step at once", async () => {
  const model = scriptedModel([[
    START,
    { type: "tool-approval-request", approvalId: "a1", toolCallId: "nowhere" },
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "after" },
    STOP,
  ]]);
  const parts: { type: string }[] = [];
  await assert.rejects(
    run(model, {}, { parts: parts as never }),
    (error) => ToolCallNotFoundForApprovalError.isInstance(error),
  );
  assert.deepEqual(parts, []);
});
