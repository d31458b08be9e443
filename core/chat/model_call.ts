/**
 * One model call of a step. The AI SDK converts the prompt, prepares the tools, parses each tool
 * call and turns the call's content into what the next prompt carries; the model's stream is read
 * here once, with one reader. The SDK's `streamLanguageModelCall` does the same work through two
 * more stream stages (a transform, then a copy to make it iterable), which took more than half of
 * the step loop's CPU (`bench/scale_bench.ts`, the model loops alone).
 */
import {
  type LanguageModelUsage,
  type ModelMessage,
  type ProviderMetadata,
  ToolCallNotFoundForApprovalError,
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
import { getErrorMessage } from "@ai-sdk/provider-utils";
import type {
  LanguageModelV4,
  LanguageModelV4Content,
  LanguageModelV4StreamPart,
  SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import { streamProviderError } from "../llm/stream_error.ts";

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
  /** The call's content for the next prompt (text with its metadata, tool calls, ...), in order. */
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
  const stepTools = await prepareTools({ tools });
  const { stream } = await options.retry(() =>
    model.doStream({
      ...options.callSettings,
      prompt,
      tools: stepTools,
      toolChoice: prepareToolChoice({ toolChoice: undefined }),
      providerOptions: options.providerOptions,
      abortSignal: signal,
    })
  );
  const content = new StepContent();
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
      content.add(part);
      switch (part.type) {
        case "error":
          throw streamProviderError(part.error);
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
          content.own(call);
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
        case "tool-result": {
          // A provider-executed tool's outcome (its call may be in an earlier answer).
          const call = calls.findLast((call) => call.toolCallId === part.toolCallId);
          content.own({
            type: part.isError ? "tool-error" : "tool-result",
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: call?.input,
            [part.isError ? "error" : "output"]: part.result,
            providerExecuted: true,
            dynamic: part.dynamic,
            ...(part.providerMetadata && { providerMetadata: part.providerMetadata }),
          });
          if (part.isError) {
            yield { type: "tool-error", toolCallId: part.toolCallId, error: part.result };
          }
          break;
        }
        case "tool-approval-request": {
          const toolCall = calls.findLast((call) => call.toolCallId === part.toolCallId);
          if (!toolCall) {
            const { toolCallId, approvalId } = part;
            throw new ToolCallNotFoundForApprovalError({ toolCallId, approvalId });
          }
          content.own({ type: "tool-approval-request", approvalId: part.approvalId, toolCall });
          break;
        }
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
  return { content: await content.parts(tools, signal), calls, outcomes, response, ...end };
}

/**
 * The call's content in the order it came. Text and reasoning are joined per part, and with
 * files, sources and custom parts made into content by the SDK (`convertLanguageModelContent`,
 * one part each; it also downloads a file given by URL). Tool calls, provider-executed results
 * and approval requests are added as parsed here: the SDK's conversion finds calls by id, so
 * two calls with one id (some OpenAI-compatible servers reuse them) would both show the first,
 * and a result whose call came in an earlier answer would fail the step.
 */
class StepContent {
  readonly #entries: ({ raw: LanguageModelV4Content } | { own: unknown })[] = [];
  readonly #open = new Map<
    string,
    { type: "text" | "reasoning"; text: string; providerMetadata?: ProviderMetadata }
  >();

  /** Takes a stream part that is content as it came (tool parts come through {@link own}). */
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
        this.#entries.push({ raw: part });
    }
  }

  /** Takes a content part made here. */
  own(part: unknown): void {
    this.#entries.push({ own: part });
  }

  /** The content parts, in order. */
  async parts(tools: ToolSet | undefined, signal: AbortSignal): Promise<unknown[]> {
    const raw = this.#entries.flatMap((entry) => "raw" in entry ? [entry.raw] : []);
    const converted = raw.length === 0 ? [] : await convertLanguageModelContent({
      content: raw,
      toolCalls: [],
      toolOutputs: [],
      toolApprovalRequests: [],
      toolApprovalResponses: [],
      tools,
      abortSignal: signal,
    });
    let next = 0;
    return this.#entries.map((entry) => "raw" in entry ? converted[next++] : entry.own);
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
      this.#entries.push({ raw: open as LanguageModelV4Content });
    }
    if (part.delta !== undefined) open.text += part.delta;
    if (part.providerMetadata) open.providerMetadata = part.providerMetadata;
    if (part.type.endsWith("-end")) this.#open.delete(key);
  }
}
