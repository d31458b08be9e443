/** One chat turn with a model: the AI SDK loop over the workspace's tools, as a stream of chunks. */
import {
  isStepCount,
  type LanguageModelUsage,
  type ModelMessage,
  modelMessageSchema,
  streamText,
  type TextStreamPart,
  type ToolSet,
} from "ai";
import type { LlmProfile } from "../config/schema.ts";
import { clip, detailsFromIssues, LassError } from "../errors.ts";
import { describeModelError } from "../llm/failures.ts";
import { resolveModel } from "../llm/providers.ts";
import type { Service } from "../service.ts";
import type { ChatChunk, ChatUsage } from "./chunks.ts";
import { type ChatBody, resolveChat, type ResolvedChat } from "./request.ts";
import { shownOutput } from "./tool_output.ts";
import { type RunTools, type ToolRun, toolServerTools } from "./tools.ts";

/** A checked chat request, ready to stream. */
export interface PreparedChat {
  runId: string;
  resolved: ResolvedChat;
  /** The turn's chunks; aborting `signal` (or cancelling the stream) stops the model and the tools. */
  stream(signal?: AbortSignal): ReadableStream<ChatChunk>;
}

/** Checks every message against the AI SDK's model-message schema; 400 with the paths otherwise. */
function checkMessages(messages: unknown[]): ModelMessage[] {
  const details = messages.flatMap((message, index) => {
    const parsed = modelMessageSchema.safeParse(message);
    return parsed.success ? [] : detailsFromIssues(parsed.error.issues, `messages.${index}`);
  });
  if (details.length > 0) {
    throw new LassError("invalid-request", "a message is not a valid model message", details);
  }
  return messages as ModelMessage[];
}

/**
 * Validates the body against the config before anything streams: 400 for bad messages, 404 for an
 * unknown workspace, model or agent.
 */
export function prepareChat(service: Service, body: ChatBody): PreparedChat {
  const messages = checkMessages(body.messages);
  const resolved = resolveChat(service.config.config, body);
  const runId = crypto.randomUUID();
  return {
    runId,
    resolved,
    stream: (signal) => {
      const controller = new AbortController();
      const abort = () => controller.abort(new DOMException("the client went away", "AbortError"));
      signal?.addEventListener("abort", abort, { once: true });
      const chunks = runTurn({
        service,
        body,
        messages,
        resolved,
        runId,
        signal: controller.signal,
      });
      return new ReadableStream<ChatChunk>({
        async pull(stream) {
          const next = await chunks.next();
          if (next.done) {
            signal?.removeEventListener("abort", abort);
            stream.close();
          } else {
            stream.enqueue(next.value);
          }
        },
        async cancel() {
          abort();
          signal?.removeEventListener("abort", abort);
          await chunks.return(undefined);
        },
      });
    },
  };
}

interface Turn {
  service: Service;
  body: ChatBody;
  messages: ModelMessage[];
  resolved: ResolvedChat;
  runId: string;
  signal: AbortSignal;
}

/** A turn's chunks; the run's pending interactions end with it, however it ends. */
async function* runTurn(turn: Turn): AsyncGenerator<ChatChunk> {
  const { service, runId, resolved } = turn;
  try {
    if (resolved.responder.kind === "agent") {
      const message = `chatting with the remote agent ${resolved.responder.agent.id} is not ` +
        "available in this version of Lass";
      service.events.emit("chat.error", { runId, message });
      yield { type: "error", message };
      return;
    }
    yield* modelTurn(turn, resolved.responder.profile);
  } finally {
    service.interactions.rejectRun(runId);
  }
}

/** The AI SDK's usage as the chunks show it: plain counts, no provider extras. */
function usageOf(usage: LanguageModelUsage | undefined): ChatUsage {
  if (!usage) return {};
  const shown: ChatUsage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens,
  };
  for (const key of Object.keys(shown) as (keyof ChatUsage)[]) {
    if (shown[key] === undefined) delete shown[key];
  }
  return shown;
}

async function* modelTurn(turn: Turn, profile: LlmProfile): AsyncGenerator<ChatChunk> {
  const { service, runId, signal } = turn;
  const { workspace } = turn.resolved;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (message: string): ChatChunk => {
    service.events.emit("chat.error", { runId, message, durationMs: elapsed() });
    return { type: "error", message };
  };

  let model;
  try {
    model = resolveModel(profile, service.env);
  } catch (error) {
    yield fail(`the model profile ${profile.id} cannot be used: ${(error as Error).message}`);
    return;
  }
  if (model.problem) {
    yield fail(`the model profile ${profile.id} cannot be used: ${model.problem}`);
    return;
  }

  let tools: RunTools;
  try {
    tools = await toolServerTools({
      service,
      gate: service.approvals,
      workspace,
      runId,
      llmId: profile.id,
      signal,
    });
  } catch (error) {
    if (signal.aborted) return;
    yield fail(`the tools could not be prepared: ${(error as Error).message}`);
    return;
  }
  for (const gap of tools.unavailable) {
    service.events.emit("chat.tools-unavailable", { runId, ...gap });
  }
  const toolCount = Object.keys(tools.tools).length;
  service.events.emit("chat.start", {
    runId,
    workspaceId: workspace.id,
    profileId: profile.id,
    model: profile.model,
    tools: toolCount,
    ...(turn.body.sessionId && { sessionId: turn.body.sessionId }),
  });
  yield { type: "start", runId, model: profile.model, profileId: profile.id, tools: toolCount };

  const context = {
    provider: profile.provider,
    endpoint: model.shownEndpoint,
    model: profile.model,
    timeoutMs: 0,
  };
  let failure: unknown;
  const result = streamText({
    ...model.settings,
    model: model.model,
    ...(workspace.systemPrompt && { instructions: workspace.systemPrompt }),
    messages: turn.messages,
    allowSystemInMessages: true,
    ...(toolCount > 0 && { tools: tools.tools }),
    stopWhen: isStepCount(workspace.maxSteps),
    abortSignal: signal,
    maxRetries: 1,
    onError: ({ error }) => {
      failure ??= error;
    },
  });
  const callStarts = new Map<string, number>();
  let totalUsage: LanguageModelUsage | undefined;
  let steps = 0;
  let lastFinishReason = "stop";
  let text = "";
  for await (const part of result.stream) {
    if (part.type === "error") {
      failure ??= part.error;
      continue;
    }
    if (part.type === "finish-step") {
      steps++;
      lastFinishReason = part.finishReason;
    }
    if (part.type === "finish") totalUsage = part.totalUsage;
    if (part.type === "text-delta") text += part.text;
    if (part.type === "tool-call") callStarts.set(part.toolCallId, performance.now());
    const chunk = chunkOf(part, tools, callStarts);
    if (chunk) yield chunk;
  }
  if (signal.aborted) {
    service.events.emit("chat.error", {
      runId,
      message: "the turn was aborted: the client went away",
      aborted: true,
      durationMs: elapsed(),
    });
    return;
  }
  if (failure !== undefined) {
    yield fail(describeModelError(failure, context));
    return;
  }
  let messages: ModelMessage[];
  try {
    messages = await result.responseMessages;
  } catch (error) {
    yield fail(describeModelError(error, context));
    return;
  }
  const usage = usageOf(totalUsage);
  const durationMs = elapsed();
  if (turn.body.sessionId) {
    try {
      await service.sessions.appendTurn(turn.body.sessionId, {
        workspaceId: workspace.id,
        llmId: profile.id,
        request: turn.messages,
        response: messages,
      });
    } catch (error) {
      yield fail(`the turn finished but could not be saved: ${(error as Error).message}`);
      return;
    }
  }
  service.events.emit("chat.finish", {
    runId,
    usage,
    durationMs,
    steps,
    finishReason: lastFinishReason,
    maxStepsReached: lastFinishReason === "tool-calls" && steps >= workspace.maxSteps,
    text: clip(text, 2000),
    ...(turn.body.sessionId && { sessionId: turn.body.sessionId }),
  });
  yield { type: "finish", usage, durationMs, messages };
}

/** The chunk of one AI SDK stream part, if it has one. */
function chunkOf(
  part: TextStreamPart<ToolSet>,
  tools: RunTools,
  callStarts: Map<string, number>,
): ChatChunk | undefined {
  switch (part.type) {
    case "text-delta":
      return part.text === "" ? undefined : { type: "text", text: part.text };
    case "reasoning-delta":
      return part.text === "" ? undefined : { type: "reasoning", text: part.text };
    case "tool-call": {
      const origin = tools.origins.get(part.toolName);
      return {
        type: "tool-call",
        id: part.toolCallId,
        name: part.toolName,
        tool: origin?.tool ?? part.toolName,
        source: origin?.source ?? "unknown",
        input: part.input,
      };
    }
    case "tool-result": {
      if (part.preliminary) return undefined;
      const run = part.output as ToolRun;
      return {
        type: "tool-result",
        id: part.toolCallId,
        output: shownOutput(run.model),
        isError: run.isError,
        durationMs: run.durationMs,
        ...(run.ui && { ui: run.ui }),
        ...(run.raw !== undefined && { raw: run.raw }),
      };
    }
    case "tool-error": {
      const started = callStarts.get(part.toolCallId);
      const error = part.error;
      return {
        type: "tool-result",
        id: part.toolCallId,
        output: error instanceof Error ? error.message : String(error),
        isError: true,
        durationMs: started === undefined ? 0 : Math.round(performance.now() - started),
      };
    }
    case "finish-step":
      return { type: "step", usage: usageOf(part.usage), finishReason: part.finishReason };
    default:
      return undefined;
  }
}
