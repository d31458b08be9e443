/**
 * One model call of a step. The AI SDK converts the prompt, prepares the tools, parses each tool
 * call and turns the call's content into what the next prompt carries; the model's stream is read
 * here once, with one reader. The SDK's `streamLanguageModelCall` does the same work through two
 * more stream stages (a transform, then a copy to make it iterable), which took some 40% of the
 * step loop's CPU (`bench/scale_bench.ts`, the model loops alone).
 */
import {
  type LanguageModelUsage,
  type ModelMessage,
  type ProviderMetadata,
  StreamProviderError,
  type ToolSet,
} from "ai";
import {
  asLanguageModelUsage,
  convertLanguageModelContent,
  convertToLanguageModelPrompt,
  parseToolCall,
  type prepareCallSettings,
  prepareToolChoice,
  prepareTools,
  standardizePrompt,
} from "ai/internal";
import { getErrorMessage, isProviderStreamError } from "@ai-sdk/provider-utils";
import type {
  LanguageModelV4,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
  SharedV4ProviderOptions,
} from "@ai-sdk/provider";

/** A tool call of a step as the AI SDK parsed it (`invalid` when it could not be). */
export interface StepToolCall {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
  invalid?: boolean;
  error?: unknown;
  providerExecuted?: boolean;
  /** Goes back with the call's outcome (e.g. OpenAI's parallel tool calls rebuild from it). */
  providerMetadata?: ProviderMetadata;
}

/** The outcome of one tool call, as the step's content keeps it for the next prompt. */
export type ToolOutcome =
  & {
    toolCallId: string;
    toolName: string;
    input: unknown;
    providerExecuted?: boolean;
    providerMetadata?: ProviderMetadata;
  }
  & ({ type: "tool-result"; output: unknown } | { type: "tool-error"; error: unknown });

/** What the step loop yields: the model's deltas and tool calls, the tools' outcomes, each step's end. */
export type StepPart =
  | { type: "text-delta"; text: string }
  | { type: "reasoning-delta"; text: string }
  | StepToolCall
  | { type: "tool-result"; toolCallId: string; output: unknown; preliminary?: boolean }
  | { type: "tool-error"; toolCallId: string; error: unknown }
  | { type: "step"; usage: LanguageModelUsage; finishReason: string };

/** One model call, read to its end. */
export interface ModelCall {
  /** The call's content as the AI SDK converts it (text with its metadata, tool calls, ...). */
  content: readonly unknown[];
  calls: StepToolCall[];
  /** Outcomes the model stream brought itself: invalid calls, provider-executed tools. */
  outcomes: ToolOutcome[];
  usage: LanguageModelUsage;
  finishReason: string;
  response: { id?: string; modelId?: string };
}

/** What one call is made of. */
export interface ModelCallOptions {
  model: LanguageModelV4;
  instructions?: string;
  prompt: ModelMessage[];
  tools?: ToolSet;
  callSettings: ReturnType<typeof prepareCallSettings>;
  providerOptions?: SharedV4ProviderOptions;
  /** Calls the model again when it refused before streaming (the SDK's retry). */
  retry: <T>(call: () => PromiseLike<T>) => PromiseLike<T>;
  signal: AbortSignal;
}

/**
 * Calls the model once and yields its deltas and tool calls; an error in its stream is thrown
 * (a provider's error payload as the SDK's `StreamProviderError`), an abort as its reason.
 */
export async function* modelCall(options: ModelCallOptions): AsyncGenerator<StepPart, ModelCall> {
  const { model, tools, signal } = options;
  const standardized = await standardizePrompt({
    ...(options.instructions && { instructions: options.instructions }),
    messages: options.prompt,
    allowSystemInMessages: true,
  });
  const prompt = await convertToLanguageModelPrompt({
    prompt: standardized,
    supportedUrls: await model.supportedUrls,
    download: undefined,
    abortSignal: signal,
    provider: model.provider.split(".")[0],
  });
  const { stream } = await options.retry(async () =>
    model.doStream({
      ...options.callSettings,
      prompt,
      tools: await prepareTools({ tools }),
      toolChoice: prepareToolChoice({ toolChoice: undefined }),
      providerOptions: options.providerOptions,
      abortSignal: signal,
    })
  );
  const raw = new RawContent();
  const calls: StepToolCall[] = [];
  const outcomes: ToolOutcome[] = [];
  const response: ModelCall["response"] = {};
  let end: { usage: LanguageModelUsage; finishReason: string } | undefined;
  const reader = stream.getReader();
  let finished = false;
  try {
    while (true) {
      const { done, value: part } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      // A part read after an abort is not passed on: the turn ends with the abort.
      if (signal.aborted) throw signal.reason;
      raw.add(part);
      switch (part.type) {
        case "error":
          throw streamError(part.error);
        case "text-delta":
        case "reasoning-delta":
          if (part.delta !== "") yield { type: part.type, text: part.delta };
          break;
        case "tool-call": {
          const call = await parseToolCall({
            toolCall: part,
            tools,
            repairToolCall: undefined,
            instructions: standardized.instructions,
            messages: standardized.messages,
            abortSignal: signal,
          }) as StepToolCall;
          calls.push(call);
          yield call;
          // An invalid call (unknown tool, input that fails the schema): the model reads the
          // error in the next step.
          if (call.invalid && !call.providerExecuted) {
            const error = getErrorMessage(call.error);
            const { toolCallId, toolName, input } = call;
            outcomes.push({ type: "tool-error", toolCallId, toolName, input, error });
            yield { type: "tool-error", toolCallId, error };
          }
          break;
        }
        case "tool-result":
          // A provider-executed tool's failure shows; its outcome is in the call's content.
          if (part.isError) {
            yield { type: "tool-error", toolCallId: part.toolCallId, error: part.result };
          }
          break;
        case "response-metadata":
          response.id = part.id;
          response.modelId = part.modelId;
          break;
        case "finish":
          end = {
            usage: asLanguageModelUsage(part.usage),
            finishReason: part.finishReason.unified,
          };
          break;
      }
    }
  } finally {
    // Stops the model's stream when the loop ended early (an abort, an error, a consumer gone).
    if (!finished) reader.cancel().catch(() => {});
  }
  if (signal.aborted) throw signal.reason;
  if (!end) throw new Error("the model's stream ended before its step did");
  const content = await convertLanguageModelContent({
    content: raw.parts,
    toolCalls: calls as never,
    toolOutputs: [],
    toolApprovalRequests: [],
    toolApprovalResponses: [],
    tools,
    abortSignal: signal,
  });
  return { content, calls, outcomes, response, ...end };
}

/**
 * The call's content as a model's non-streaming answer has it (what `convertLanguageModelContent`
 * reads): text and reasoning joined per part, the rest as it came.
 */
class RawContent {
  readonly parts: LanguageModelV4Content[] = [];
  readonly #open = new Map<
    string,
    { type: "text" | "reasoning"; text: string; providerMetadata?: ProviderMetadata }
  >();

  add(part: LanguageModelV4StreamPart): void {
    switch (part.type) {
      case "text-start":
      case "text-delta":
      case "text-end":
        return this.#text("text", part);
      case "reasoning-start":
      case "reasoning-delta":
      case "reasoning-end":
        return this.#text("reasoning", part);
      case "file":
      case "reasoning-file":
      case "source":
      case "custom":
      case "tool-call":
      case "tool-result":
      case "tool-approval-request":
        this.parts.push(part as LanguageModelV4Content);
    }
  }

  /** Adds to the open text or reasoning part of that id (opened by its first part, as the SDK does). */
  #text(
    type: "text" | "reasoning",
    part: { type: string; id: string; delta?: string; providerMetadata?: ProviderMetadata },
  ): void {
    const key = `${type}:${part.id}`;
    let open = this.#open.get(key);
    if (!open) {
      open = { type, text: "" };
      this.#open.set(key, open);
      this.parts.push(open as LanguageModelV4Content);
    }
    if (part.delta !== undefined) open.text += part.delta;
    if (part.providerMetadata) open.providerMetadata = part.providerMetadata;
    if (part.type.endsWith("-end")) this.#open.delete(key);
  }
}

/**
 * An error part of the model's stream, as the AI SDK reports it: an `Error` as it is, a
 * provider's error payload with a message (at its top, under `error`, or `response.error`) as a
 * `StreamProviderError`, anything else as it is.
 */
function streamError(error: unknown): unknown {
  if (error instanceof Error || typeof error !== "object" || error === null) return error;
  const outer = error as Record<string, unknown>;
  const details = isProviderStreamError(error)
    ? outer
    : recordOf(recordOf(outer.response)?.error) ??
      recordOf(outer.error) ?? outer;
  if (typeof details.message !== "string") return error;
  const text = (value: unknown) => typeof value === "string" ? value : undefined;
  const code = [details.code, outer.code].find((value) =>
    typeof value === "string" || typeof value === "number"
  ) as string | number | undefined;
  return new StreamProviderError({
    message: details.message,
    type: text(details.type) ?? text(outer.type),
    code,
    data: isProviderStreamError(error) ? (error as { data?: unknown }).data : error,
  });
}

function recordOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null ? value as Record<string, unknown> : undefined;
}
