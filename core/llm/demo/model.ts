/** The built-in demo model (`service:demo`): a deterministic, scripted LanguageModelV4 run in-process. */
import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { setImmediate } from "node:timers";
import { planReply } from "./script.ts";

/** The timestamp every demo response carries. */
const RESPONSE_TIME = 0;

/** One rendered turn: the deltas to emit, the tool calls, usage and finish reason. */
interface DemoTurn {
  /** A hash of the prompt and tool names: the base of every id. */
  digest: string;
  responseId: string;
  reasoningDeltas: string[];
  textDeltas: string[];
  calls: { toolCallId: string; toolName: string; input: string }[];
  usage: LanguageModelV4Usage;
  finishReason: LanguageModelV4FinishReason;
}

/** Creates the demo model: same call options in, same stream and result out, byte for byte. */
export function createDemoModel(modelId = "demo"): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: "lass.demo",
    modelId,
    supportedUrls: {},
    doGenerate(options) {
      if (options.abortSignal?.aborted) return Promise.reject(options.abortSignal.reason);
      const turn = composeTurn(options);
      return Promise.resolve({
        content: turnContent(turn),
        finishReason: turn.finishReason,
        usage: turn.usage,
        warnings: [],
        response: { id: turn.responseId, timestamp: new Date(RESPONSE_TIME), modelId },
      });
    },
    doStream(options) {
      if (options.abortSignal?.aborted) return Promise.reject(options.abortSignal.reason);
      const parts = turnParts(composeTurn(options), modelId);
      return Promise.resolve({ stream: emitParts(parts, options.abortSignal) });
    },
  };
}

/** Plans the reply and turns it into deltas, ids, usage and a finish reason. */
function composeTurn(options: LanguageModelV4CallOptions): DemoTurn {
  const plan = planReply(options);
  const digest = digestOf(options);
  const calls = plan.calls.map((call, i) => ({
    toolCallId: `call_demo_${digest}_${i + 1}`,
    toolName: call.toolName,
    input: JSON.stringify(call.input),
  }));
  const reasoningTokens = estimateTokens(plan.reasoning.length);
  const textTokens = estimateTokens(
    plan.text.length + calls.reduce((n, c) => n + c.toolName.length + c.input.length, 0),
  );
  const inputTokens = estimateTokens(promptCharacters(options.prompt));
  return {
    digest,
    responseId: `demo-${digest}`,
    reasoningDeltas: splitWords(plan.reasoning, 3),
    textDeltas: splitEvery(plan.text, 2),
    calls,
    usage: {
      inputTokens: { total: inputTokens, noCache: inputTokens, cacheRead: 0, cacheWrite: 0 },
      outputTokens: {
        total: textTokens + reasoningTokens,
        text: textTokens,
        reasoning: reasoningTokens,
      },
      raw: { input_tokens: inputTokens, output_tokens: textTokens + reasoningTokens },
    },
    finishReason: calls.length > 0
      ? { unified: "tool-calls", raw: "tool_calls" }
      : { unified: "stop", raw: "stop" },
  };
}

/** The content `doGenerate` returns: the same reasoning, text and tool calls as the stream. */
function turnContent(turn: DemoTurn): LanguageModelV4Content[] {
  return [
    { type: "reasoning", text: turn.reasoningDeltas.join("") },
    { type: "text", text: turn.textDeltas.join("") },
    ...turn.calls.map((c) => ({ type: "tool-call" as const, ...c })),
  ];
}

/** All stream parts of a turn, in the order a real provider sends them. */
function turnParts(turn: DemoTurn, modelId: string): LanguageModelV4StreamPart[] {
  // Ids unique per response: the SDK replaces a block id it has already seen in an earlier step.
  const reasoningId = `rs_${turn.digest}`;
  const textId = `msg_${turn.digest}`;
  const parts: LanguageModelV4StreamPart[] = [
    { type: "stream-start", warnings: [] },
    {
      type: "response-metadata",
      id: turn.responseId,
      timestamp: new Date(RESPONSE_TIME),
      modelId,
    },
    { type: "reasoning-start", id: reasoningId },
    ...turn.reasoningDeltas.map((delta) => ({
      type: "reasoning-delta" as const,
      id: reasoningId,
      delta,
    })),
    { type: "reasoning-end", id: reasoningId },
    { type: "text-start", id: textId },
    ...turn.textDeltas.map((delta) => ({ type: "text-delta" as const, id: textId, delta })),
    { type: "text-end", id: textId },
  ];
  for (const call of turn.calls) {
    parts.push({ type: "tool-input-start", id: call.toolCallId, toolName: call.toolName });
    for (const delta of splitChars(call.input, 3)) {
      parts.push({ type: "tool-input-delta", id: call.toolCallId, delta });
    }
    parts.push({ type: "tool-input-end", id: call.toolCallId }, { type: "tool-call", ...call });
  }
  parts.push({ type: "finish", usage: turn.usage, finishReason: turn.finishReason });
  return parts;
}

/**
 * A stream that sends one part per event-loop turn and errors with the reason on abort. The turn
 * is an immediate, not a 0 ms timer: nested timers are clamped to 4 ms, which made a two-step
 * answer of ~40 parts take ~100 ms.
 */
function emitParts(
  parts: LanguageModelV4StreamPart[],
  signal: AbortSignal | undefined,
): ReadableStream<LanguageModelV4StreamPart> {
  let index = 0;
  let finished = false;
  let onAbort = () => {};
  const stop = () => {
    finished = true;
    signal?.removeEventListener("abort", onAbort);
  };
  return new ReadableStream<LanguageModelV4StreamPart>({
    start(controller) {
      onAbort = () => {
        if (finished) return;
        stop();
        controller.error(signal?.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    },
    async pull(controller) {
      await new Promise((resolve) => setImmediate(resolve));
      if (finished) return;
      controller.enqueue(parts[index++]);
      if (index >= parts.length) {
        stop();
        controller.close();
      }
    },
    cancel: stop,
  });
}

/** The characters of the prompt's text, reasoning, tool inputs and tool outputs. */
function promptCharacters(prompt: LanguageModelV4Prompt): number {
  let chars = 0;
  for (const message of prompt) {
    if (message.role === "system") {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text" || part.type === "reasoning") chars += part.text.length;
      else if (part.type === "tool-call") chars += JSON.stringify(part.input ?? null).length;
      else if (part.type === "tool-result") chars += JSON.stringify(part.output).length;
    }
  }
  return chars;
}

/** Tokens for a number of characters: characters / 4, rounded, at least 1. */
function estimateTokens(chars: number): number {
  return Math.max(1, Math.round(chars / 4));
}

/** Splits text into about `pieces` deltas at word boundaries (for reasoning). */
function splitWords(text: string, pieces: number): string[] {
  const words = text.match(/\S+\s*/g) ?? [text];
  return splitEvery(text, Math.max(1, Math.ceil(words.length / pieces)));
}

/** Splits text into deltas of `size` words each, keeping the whitespace after each word. */
function splitEvery(text: string, size: number): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const deltas: string[] = [];
  for (let i = 0; i < words.length; i += size) deltas.push(words.slice(i, i + size).join(""));
  return deltas;
}

/** Splits a string into `pieces` nearly equal parts (for tool-input deltas). */
function splitChars(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length > 0 ? parts : [text];
}

/**
 * A hash of the prompt and the tool names. A system message counts by its length only: it is the
 * long part (the Generative UI instructions alone are several KB), the same on every step of a
 * chat, and hashing it took most of the demo model's time.
 */
function digestOf(options: LanguageModelV4CallOptions): string {
  const prompt = options.prompt.map((message) =>
    message.role === "system" ? { role: "system", chars: message.content.length } : message
  );
  return hashHex(JSON.stringify({ prompt, tools: options.tools?.map((t) => t.name) }));
}

/** FNV-1a over the UTF-16 code units, as 8 hex digits. */
function hashHex(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
