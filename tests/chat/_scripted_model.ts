/** A scripted model and a runner for the step loop's tests (`model_steps_test.ts`, `model_call_test.ts`). */
import { dynamicTool, jsonSchema, type ToolSet } from "ai";
import type {
  LanguageModelV4,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import type { StepPart } from "../../core/chat/model_call.ts";
import { modelSteps, type StepsOutcome } from "../../core/chat/model_steps.ts";

export const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};

/** The parts of a step that asks for tool calls (`[name, input]` each). */
export function callsStep(...calls: [string, unknown][]): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    ...calls.map(([toolName, input], i) => ({
      type: "tool-call" as const,
      toolCallId: `call_${i + 1}`,
      toolName,
      input: typeof input === "string" ? input : JSON.stringify(input),
    })),
    { type: "finish", usage: USAGE, finishReason: { unified: "tool-calls", raw: "tool_calls" } },
  ];
}

/** The parts of a step that answers with text. */
export function textStep(text: string): LanguageModelV4StreamPart[] {
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t1" },
    { type: "text-delta", id: "t1", delta: text },
    { type: "text-end", id: "t1" },
    { type: "finish", usage: USAGE, finishReason: { unified: "stop", raw: "stop" } },
  ];
}

/** A model that plays one script entry per call and keeps the prompts it was sent. */
export function scriptedModel(
  script: (LanguageModelV4StreamPart[] | Error)[],
): LanguageModelV4 & { prompts: LanguageModelV4Prompt[] } {
  const prompts: LanguageModelV4Prompt[] = [];
  return {
    specificationVersion: "v4",
    provider: "test.scripted",
    modelId: "scripted",
    supportedUrls: {},
    prompts,
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream(options) {
      prompts.push(options.prompt);
      const next = script.shift();
      if (!next) return Promise.reject(new Error("the script ran out"));
      if (next instanceof Error) return Promise.reject(next);
      return Promise.resolve({
        stream: new ReadableStream({
          start(controller) {
            for (const part of next) controller.enqueue(part);
            controller.close();
          },
        }),
      });
    },
  };
}

/** Runs the loop to its end: its parts (also into `options.parts` as they come) and outcome. */
export async function run(
  model: LanguageModelV4,
  tools: ToolSet,
  options: {
    maxSteps?: number;
    callbacks?: Parameters<typeof modelSteps>[0]["callbacks"];
    signal?: AbortSignal;
    parts?: StepPart[];
  } = {},
): Promise<{ parts: StepPart[]; outcome: StepsOutcome }> {
  const steps = modelSteps({
    model,
    settings: {},
    messages: [{ role: "user", content: "go" }],
    tools,
    maxSteps: options.maxSteps ?? 5,
    signal: options.signal ?? new AbortController().signal,
    callbacks: options.callbacks,
  });
  const parts = options.parts ?? [];
  while (true) {
    const next = await steps.next();
    if (next.done) return { parts, outcome: next.value };
    parts.push(next.value);
  }
}

/** A tool with a free-form object input. */
export function anyTool(execute: (input: { n?: number }) => unknown): ToolSet[string] {
  return dynamicTool({
    inputSchema: jsonSchema({ type: "object", properties: { n: { type: "number" } } }),
    execute: (input) => execute(input as { n?: number }),
  });
}

/** The tool results the model was sent in a prompt, in order. */
export function toolResults(prompt: LanguageModelV4Prompt): unknown[] {
  return prompt.flatMap((message) =>
    message.role === "tool" ? message.content.map((part) => part) : []
  );
}
