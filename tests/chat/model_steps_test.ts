/**
 * The model path's step loop (`core/chat/model_steps.ts`) on a scripted model: what the model
 * reads in the next step, how tool calls run, and where the loop stops.
 */
import assert from "node:assert/strict";
import { APICallError, dynamicTool, jsonSchema, type ModelMessage, type ToolSet } from "ai";
import type { StepPart } from "../../core/chat/model_call.ts";
import { exposedGc } from "../../cli/heap_reducer.ts";
import {
  anyTool,
  callsStep,
  run,
  scriptedModel,
  textStep,
  toolResults,
  USAGE,
} from "./_scripted_model.ts";

Deno.test("step loop: parallel calls run at once and the model reads their results in call order", async () => {
  let releaseFirst = () => {};
  const firstHeld = new Promise<void>((resolve) => releaseFirst = resolve);
  const tools = {
    slow: anyTool(async () => {
      await firstHeld;
      return "slow done";
    }),
    fast: anyTool(() => {
      // The second call ends first, while the first still waits: they run concurrently.
      releaseFirst();
      return "fast done";
    }),
  };
  const model = scriptedModel([callsStep(["slow", {}], ["fast", {}]), textStep("both done")]);
  const { parts, outcome } = await run(model, tools);
  const results = parts.filter((part) => part.type === "tool-result");
  assert.deepEqual(results.map((part) => part.toolCallId), ["call_2", "call_1"]);
  const sent = toolResults(model.prompts[1]) as { toolCallId: string; output: unknown }[];
  assert.deepEqual(sent.map((part) => [part.toolCallId, part.output]), [
    ["call_1", { type: "text", value: "slow done" }],
    ["call_2", { type: "text", value: "fast done" }],
  ]);
  assert.equal(outcome.steps, 2);
  assert.equal(outcome.finishReason, "stop");
  assert.equal(outcome.usage.inputTokens, 20);
  assert.deepEqual(outcome.messages.map((message: ModelMessage) => message.role), [
    "assistant",
    "tool",
    "assistant",
  ]);
});

Deno.test("step loop: an unknown tool and a tool that throws go back to the model as errors", async () => {
  const tools = {
    fails: anyTool(() => {
      throw new Error("the disk is full");
    }),
  };
  const model = scriptedModel([callsStep(["fails", {}], ["made_up", {}]), textStep("sorry")]);
  const { parts, outcome } = await run(model, tools);
  const errors = parts.filter((part) => part.type === "tool-error");
  assert.deepEqual(errors.map((part) => part.toolCallId).sort(), ["call_1", "call_2"]);
  const sent = toolResults(model.prompts[1]) as {
    toolCallId: string;
    output: { type: string; value: string };
  }[];
  assert.equal(sent[0].output.type, "error-text");
  // As `streamText` sends it: the error as `toString()` gives it.
  assert.equal(sent[0].output.value, "Error: the disk is full");
  assert.equal(sent[1].toolCallId, "call_2");
  assert.match(JSON.stringify(sent[1].output), /made_up/);
  assert.equal(outcome.steps, 2);
});

Deno.test("step loop: a tool's preliminary outputs come before its result", async () => {
  const tools = {
    counts: dynamicTool({
      inputSchema: jsonSchema({ type: "object" }),
      async *execute() {
        yield { update: 1 };
        yield { update: 2 };
        yield "final";
      },
    }),
  };
  const model = scriptedModel([callsStep(["counts", {}]), textStep("ok")]);
  const { parts } = await run(model, tools);
  const outputs = parts.filter((part) => part.type === "tool-result")
    .map((part) => [part.output, part.preliminary ?? false]);
  assert.deepEqual(outputs, [
    [{ update: 1 }, true],
    [{ update: 2 }, true],
    ["final", true],
    ["final", false],
  ]);
});

Deno.test("step loop: stops at the step limit with the calls of the last step answered", async () => {
  let calls = 0;
  const tools = { again: anyTool(() => ++calls) };
  const model = scriptedModel([callsStep(["again", {}]), callsStep(["again", {}])]);
  const { outcome } = await run(model, tools, { maxSteps: 2 });
  assert.equal(calls, 2);
  assert.equal(outcome.steps, 2);
  assert.equal(outcome.finishReason, "tool-calls");
  assert.equal(outcome.messages.at(-1)?.role, "tool");
});

Deno.test("step loop: a refused call is retried once, an error in the stream ends the step", async () => {
  const refused = new APICallError({
    message: "overloaded",
    url: "http://model.test",
    requestBodyValues: {},
    statusCode: 503,
    isRetryable: true,
  });
  const retried = scriptedModel([refused, textStep("second try")]);
  const { parts } = await run(retried, {});
  assert.deepEqual(parts.filter((part) => part.type === "text-delta"), [
    { type: "text-delta", text: "second try" },
  ]);

  const stepErrors: unknown[] = [];
  const broken = scriptedModel([[
    { type: "stream-start", warnings: [] },
    { type: "error", error: new Error("connection reset") },
  ]]);
  await assert.rejects(
    run(broken, {}, {
      callbacks: {
        onStepStart: () => {},
        onStepEnd: () => assert.fail("a failed step has no end"),
        onStepError: (event) => stepErrors.push(event.error),
        onToolExecutionStart: () => {},
        onToolExecutionEnd: () => {},
      },
    }),
    /connection reset/,
  );
  assert.equal(stepErrors.length, 1);
});

Deno.test("step loop: reasoning keeps its provider metadata for the next step", async () => {
  const signature = { anthropic: { signature: "sig-1" } };
  const model = scriptedModel([
    [
      { type: "stream-start", warnings: [] },
      { type: "reasoning-start", id: "r1" },
      { type: "reasoning-delta", id: "r1", delta: "thinking" },
      { type: "reasoning-end", id: "r1", providerMetadata: signature },
      ...callsStep(["noop", {}]).slice(1),
    ],
    textStep("done"),
  ]);
  await run(model, { noop: anyTool(() => "ok") });
  const assistant = model.prompts[1].find((message) => message.role === "assistant");
  assert.ok(assistant && Array.isArray(assistant.content));
  const reasoning = assistant.content.find((part) => part.type === "reasoning");
  assert.deepEqual(reasoning?.providerOptions, signature);
});

/** How a running tool meets the turn's abort: it stops with it, or it never notices. */
const ABORT_HEARING: [string, (signal: AbortSignal) => Promise<unknown>][] = [
  ["stops with it", (signal) =>
    new Promise((_, reject) => {
      signal.addEventListener("abort", () => reject(signal.reason));
    })],
  ["ignores it", () => new Promise(() => {})],
];

for (const [hearing, runUntil] of ABORT_HEARING) {
  Deno.test(`step loop: an abort ends the loop at once, with no outcome for a call that ${hearing}`, async () => {
    const abort = new AbortController();
    let started = () => {};
    const running = new Promise<void>((resolve) => started = resolve);
    const tools = {
      waits: anyTool(() => {
        started();
        return runUntil(abort.signal);
      }),
    };
    const parts: StepPart[] = [];
    const done = run(scriptedModel([callsStep(["waits", {}])]), tools, {
      signal: abort.signal,
      parts,
    });
    await running;
    abort.abort(new DOMException("the client went away", "AbortError"));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the loop waited for the tool")), 10_000);
    });
    try {
      await assert.rejects(Promise.race([done, bound]), /the client went away/);
    } finally {
      clearTimeout(timer);
    }
    assert.deepEqual(parts.map((part) => part.type), ["tool-call"]);
  });
}

Deno.test("step loop: a tool call's provider metadata goes back with its result", async () => {
  const metadata = { openai: { itemId: "fc_1", parallelToolCall: "p_1" } };
  const model = scriptedModel([
    [
      { type: "stream-start", warnings: [] },
      {
        type: "tool-call",
        toolCallId: "call_1",
        toolName: "noop",
        input: "{}",
        providerMetadata: metadata,
      },
      { type: "finish", usage: USAGE, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ],
    textStep("done"),
  ]);
  await run(model, { noop: anyTool(() => "ok") });
  const [result] = toolResults(model.prompts[1]) as { providerOptions?: unknown }[];
  assert.deepEqual(result.providerOptions, metadata);
});

Deno.test("step loop: a step cut off (length) does not run its tool calls, as streamText", async () => {
  let ran = 0;
  const model = scriptedModel([[
    { type: "stream-start", warnings: [] },
    { type: "tool-call", toolCallId: "call_1", toolName: "noop", input: "{}" },
    { type: "finish", usage: USAGE, finishReason: { unified: "length", raw: "max_tokens" } },
  ]]);
  const { parts, outcome } = await run(model, { noop: anyTool(() => ++ran) });
  assert.equal(ran, 0);
  assert.deepEqual(parts.map((part) => part.type), ["tool-call", "step"]);
  assert.equal(outcome.steps, 1);
  assert.equal(outcome.finishReason, "length");
});

Deno.test("step loop: a trace callback that throws does not end the turn", async () => {
  const throws = () => {
    throw new Error("a broken exporter");
  };
  const model = scriptedModel([callsStep(["noop", {}]), textStep("done")]);
  const { outcome } = await run(model, { noop: anyTool(() => "ok") }, {
    callbacks: {
      onStepStart: throws,
      onStepEnd: throws,
      onStepError: throws,
      onToolExecutionStart: throws,
      onToolExecutionEnd: throws,
    },
  });
  assert.equal(outcome.steps, 2);
  assert.equal(outcome.finishReason, "stop");
});

Deno.test("step loop: a finished turn leaves its tools collectable while the signal it follows lives on", async () => {
  // A turn's signal follows the service's closing signal (`AbortSignal.any`), which keeps each
  // signal depending on it that still has a listener, and whatever the listener holds.
  const closing = new AbortController();
  const gc = await exposedGc();
  let tools: ToolSet | undefined = { add: anyTool(() => "5") };
  const kept = new WeakRef(tools);
  const model = scriptedModel([callsStep(["add", { n: 1 }]), textStep("done")]);
  const signal = AbortSignal.any([new AbortController().signal, closing.signal]);
  const { outcome } = await run(model, tools, { signal });
  assert.equal(outcome.steps, 2);
  tools = undefined;
  // The loop's own promises settle in later ticks: a few rounds of the event loop and a GC.
  for (let round = 0; round < 5 && kept.deref(); round++) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
  }
  assert.equal(kept.deref(), undefined, "the turn's tools are still reachable after the turn");
  assert.equal(closing.signal.aborted, false);
});
