/**
 * The step loop of a model turn. Each step is one model call (`model_call.ts`: the AI SDK's prompt
 * conversion, tool-call parsing and content, on the model's stream read once); the step's tool
 * calls run here, and their results go back to the model in the next step, until it answers
 * without a tool call or the step limit is reached. `streamText` runs the same loop through a
 * pipeline of web streams and replayable results that cost a chat turn most of its CPU
 * (`bench/scale_bench.ts`); this loop yields each part on as it comes.
 */
import { type LanguageModelUsage, type ModelMessage, type Tool, type ToolSet } from "ai";
import {
  addLanguageModelUsage,
  createNullLanguageModelUsage,
  prepareCallSettings,
  prepareRetries,
  toResponseMessages,
} from "ai/internal";
import { executeTool } from "@ai-sdk/provider-utils";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import type { CallSettings } from "../llm/providers.ts";
import type { TurnCallbacks } from "../telemetry/turn_trace.ts";
import { abortOf } from "./aborted.ts";
import { mergeStreams } from "./merge_streams.ts";
import {
  type ModelCall,
  modelCall,
  type StepPart,
  type StepToolCall,
  type ToolOutcome,
} from "./model_call.ts";

/** How the loop ended well: the response messages of all steps, and the usage summed. */
export interface StepsOutcome {
  messages: ModelMessage[];
  usage: LanguageModelUsage;
  steps: number;
  finishReason: string;
}

/** What a turn's loop runs on. */
export interface StepsOptions {
  model: LanguageModelV4;
  settings: CallSettings;
  instructions?: string;
  messages: ModelMessage[];
  tools?: ToolSet;
  maxSteps: number;
  signal: AbortSignal;
  /** The trace's step and tool callbacks. */
  callbacks?: TurnCallbacks;
}

/**
 * Runs the steps of a turn, yielding their parts. A model failure (a refused call after one
 * retry, or an error in its stream) is thrown as the AI SDK reported it, after the step's
 * `onStepError`; an abort of `signal` is thrown as its reason.
 */
export async function* modelSteps(options: StepsOptions): AsyncGenerator<StepPart, StepsOutcome> {
  const { model, tools, signal, callbacks } = options;
  const { providerOptions, ...settings } = options.settings;
  const callSettings = prepareCallSettings(settings);
  const { retry } = prepareRetries({ maxRetries: 1, abortSignal: signal });
  const messages: ModelMessage[] = [];
  let usage = createNullLanguageModelUsage();
  let finishReason = "stop";
  for (let stepNumber = 0; stepNumber < options.maxSteps; stepNumber++) {
    const prompt = [...options.messages, ...messages];
    notify(() => callbacks?.onStepStart({ stepNumber, modelId: model.modelId }));
    let step: ModelCall;
    try {
      step = yield* modelCall({
        model,
        ...(options.instructions && { instructions: options.instructions }),
        prompt,
        tools,
        callSettings,
        providerOptions,
        retry,
        signal,
      });
    } catch (error) {
      // An abort ends the turn's spans as aborted (`TurnTrace.fail`), not as a step's error.
      if (!signal.aborted) notify(() => callbacks?.onStepError({ stepNumber, error }));
      throw error;
    }
    const { calls, outcomes } = step;
    // As `streamText`: tools run only when the model stopped to call them (or stopped), not when
    // it was cut off (`length`) or stopped for another reason.
    const runnable = TOOL_FINISH_REASONS.has(step.finishReason)
      ? calls.filter((call) => !call.invalid && !call.providerExecuted)
      : [];
    if (runnable.length > 0) {
      const runs = runnable.map((call) => runTool(call, { tools, prompt, signal, callbacks }));
      const merged = mergeStreams(runs);
      // Rejects when the turn is aborted: a step's tool runs are not waited for then.
      const aborted = abortOf(signal);
      try {
        while (true) {
          const next = await Promise.race([merged.next(), aborted.promise]);
          if (next.done) break;
          if (signal.aborted) throw signal.reason;
          const [, part] = next.value;
          if (part.type === "part") {
            yield part.part;
            continue;
          }
          const { outcome } = part;
          outcomes.push(outcome);
          yield outcome.type === "tool-result"
            ? { type: "tool-result", toolCallId: outcome.toolCallId, output: outcome.output }
            : { type: "tool-error", toolCallId: outcome.toolCallId, error: outcome.error };
        }
      } finally {
        aborted.stop();
        // After an abort the runs still going end on their own (they were given the signal).
        const ended = merged.return(undefined);
        if (signal.aborted) ended.catch(() => {});
        else await ended;
      }
      if (signal.aborted) throw signal.reason;
    }
    finishReason = step.finishReason;
    usage = addLanguageModelUsage(usage, step.usage);
    notify(() =>
      callbacks?.onStepEnd({ stepNumber, response: step.response, finishReason, usage: step.usage })
    );
    yield { type: "step", usage: step.usage, finishReason };
    messages.push(
      ...await toResponseMessages({ content: [...step.content, ...outcomes] as never, tools }),
    );
    // The next step runs when every call the model asked for in this one has its outcome.
    const clientCalls = calls.filter((call) => !call.providerExecuted);
    if (
      finishReason === "interrupted" || clientCalls.length === 0 ||
      outcomes.length !== clientCalls.length
    ) {
      return { messages, usage, steps: stepNumber + 1, finishReason };
    }
  }
  return { messages, usage, steps: options.maxSteps, finishReason };
}

/** The finish reasons after which a step's tool calls run (`streamText`'s rule). */
const TOOL_FINISH_REASONS: ReadonlySet<string> = new Set(["stop", "tool-calls"]);

/** Calls a trace callback: a failing one never ends the turn. */
function notify(callback: () => void): void {
  try {
    callback();
  } catch {
    // Tracing is an observer of the turn.
  }
}

/** What one tool run yields: its preliminary outputs as parts, then its outcome. */
type ToolRunPart = { type: "part"; part: StepPart } | { type: "outcome"; outcome: ToolOutcome };

/**
 * Runs one tool call: `execute` with the step's prompt, its preliminary outputs on the way, and
 * its result or error (a tool without `execute` leaves the call without an outcome, which ends
 * the loop as it does in the AI SDK).
 */
async function* runTool(
  call: StepToolCall,
  context: {
    tools: ToolSet | undefined;
    prompt: ModelMessage[];
    signal: AbortSignal;
    callbacks?: TurnCallbacks;
  },
): AsyncGenerator<ToolRunPart> {
  const { toolCallId, toolName, input } = call;
  const about = {
    toolCallId,
    toolName,
    input,
    ...(call.providerMetadata && { providerMetadata: call.providerMetadata }),
  };
  const tool = context.tools?.[toolName] as
    | Tool<unknown, unknown, Record<string, never>>
    | undefined;
  if (!tool?.execute) return;
  notify(() => context.callbacks?.onToolExecutionStart({ toolCall: call }));
  let outcome: ToolOutcome;
  try {
    let output: unknown;
    // Lass's tools declare no context schema: the context they get is empty.
    const runs = executeTool({
      tool,
      input,
      options: {
        toolCallId,
        messages: context.prompt,
        abortSignal: context.signal,
        context: {} as never,
      },
    });
    for await (const run of runs) {
      output = run.output;
      if (run.type === "preliminary") {
        yield {
          type: "part",
          part: { type: "tool-result", toolCallId, output, preliminary: true },
        };
      }
    }
    outcome = { type: "tool-result", ...about, output };
  } catch (error) {
    // An aborted turn ends here: the call has no outcome, as the turn has none.
    if (context.signal.aborted) throw error;
    outcome = { type: "tool-error", ...about, error };
  }
  notify(() => context.callbacks?.onToolExecutionEnd({ toolCall: call, toolOutput: outcome }));
  yield { type: "outcome", outcome };
}
