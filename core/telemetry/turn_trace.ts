/**
 * One chat turn as a trace (the OpenTelemetry GenAI semantic conventions): the turn's
 * `invoke_agent` span; under it each model step as a `chat {model}` span with its usage; under a
 * step each tool call as an `execute_tool {tool}` span, inside which the MCP requests of the call
 * open their own spans (`mcp_spans.ts`). The steps and tool calls come from the callbacks of the
 * model path's step loop, in the order it runs them.
 */
import type { LanguageModelUsage } from "ai";
import type { ChatUsage } from "../../wire/usage.ts";
import type { ResolvedChat } from "../chat/request.ts";
import { runInSpan } from "./active_span.ts";
import type { SpanAttributes, TraceSpan } from "./types.ts";

/** The `gen_ai.provider.name` of Lass's provider kinds (the convention's names where it has one). */
const PROVIDER_NAMES: Record<string, string> = {
  google: "gcp.gemini",
  azure: "azure.ai.openai",
};

/** A tool call as the step loop reports it. */
interface TracedToolCall {
  toolCallId: string;
  toolName: string;
}

/** The step loop's callbacks (`model_steps.ts`) that open and end the spans of steps and tools. */
export interface TurnCallbacks {
  onStepStart(event: { stepNumber: number; modelId: string }): void;
  onStepEnd(event: {
    stepNumber: number;
    response?: { id?: string; modelId?: string };
    finishReason: string;
    usage: LanguageModelUsage;
  }): void;
  onStepError(event: { stepNumber: number; error: unknown }): void;
  onToolExecutionStart(event: { toolCall: TracedToolCall }): void;
  onToolExecutionEnd(event: {
    toolCall: TracedToolCall;
    toolOutput: { type: "tool-result"; output: unknown } | { type: "tool-error"; error: unknown };
  }): void;
}

/** A traced turn: its span, the callbacks of its model path, and its end. */
export interface TurnTrace {
  readonly span: TraceSpan;
  /** The step loop's callbacks that add the steps and tool calls (model path). */
  readonly callbacks: TurnCallbacks;
  /** Runs a tool call's work in its span, so the MCP requests it sends are the span's children. */
  inToolSpan<T>(toolCallId: string, work: () => T): T;
  /** Ends the turn's span with its outcome. */
  finish(outcome: { usage: ChatUsage; steps: number; finishReason: string }): void;
  /** Ends the turn's span (and any step or tool span still open) as failed. */
  fail(failure: { type: string; message: string }): void;
}

/** What the turn span says of the turn. */
export interface TurnFacts {
  runId: string;
  resolved: ResolvedChat;
  sessionId?: string;
}

/** The usage attributes of the GenAI conventions. */
function usageAttributes(usage: ChatUsage | undefined): SpanAttributes {
  return {
    "gen_ai.usage.input_tokens": usage?.inputTokens,
    "gen_ai.usage.output_tokens": usage?.outputTokens,
    "gen_ai.usage.cache_read.input_tokens": usage?.cachedInputTokens,
    "gen_ai.usage.reasoning.output_tokens": usage?.reasoningTokens,
  };
}

/** The model attributes of a turn's responder. */
function modelAttributes(resolved: ResolvedChat): SpanAttributes {
  if (resolved.responder.kind !== "model") return {};
  const { profile } = resolved.responder;
  const provider = PROVIDER_NAMES[profile.provider] ?? profile.provider;
  return {
    "gen_ai.provider.name": provider,
    // The name before `gen_ai.provider.name`, which some back ends still read.
    "gen_ai.system": provider,
    "gen_ai.request.model": profile.model,
    "lass.llm.id": profile.id,
  };
}

/**
 * Opens the span of a turn with `open` (a root span of its own trace, or a child of a compare
 * turn's or an eval case's span); `undefined` when `open` opens none (telemetry is off).
 */
export function startTurnTrace(
  open: (name: string, options: { attributes: SpanAttributes }) => TraceSpan | undefined,
  facts: TurnFacts,
): TurnTrace | undefined {
  const { workspace, responder } = facts.resolved;
  const agent = responder.kind === "agent" ? responder.agent : undefined;
  const span = open(`invoke_agent ${agent?.name ?? workspace.name}`, {
    attributes: {
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": agent?.id ?? workspace.id,
      "gen_ai.agent.name": agent?.name ?? workspace.name,
      "gen_ai.conversation.id": facts.sessionId,
      "lass.run.id": facts.runId,
      "lass.workspace.id": workspace.id,
      ...modelAttributes(facts.resolved),
    },
  });
  if (!span) return undefined;
  const steps = new Map<number, TraceSpan>();
  const tools = new Map<string, TraceSpan>();
  let current: TraceSpan | undefined;
  const callbacks: TurnCallbacks = {
    onStepStart: (event) => {
      const step = span.child(`chat ${event.modelId}`, {
        kind: "client",
        attributes: {
          "gen_ai.operation.name": "chat",
          ...modelAttributes(facts.resolved),
          "gen_ai.request.model": event.modelId,
          "lass.step": event.stepNumber,
        },
      });
      steps.set(event.stepNumber, step);
      current = step;
    },
    onStepEnd: (event) => {
      const step = steps.get(event.stepNumber);
      if (!step) return;
      steps.delete(event.stepNumber);
      step.set({
        "gen_ai.response.id": event.response?.id,
        "gen_ai.response.model": event.response?.modelId,
        "gen_ai.response.finish_reasons": [event.finishReason],
        ...usageAttributes({
          inputTokens: event.usage.inputTokens,
          outputTokens: event.usage.outputTokens,
          cachedInputTokens: event.usage.inputTokenDetails?.cacheReadTokens,
          reasoningTokens: event.usage.outputTokenDetails?.reasoningTokens,
        }),
      });
      step.end(event.finishReason === "error" ? { type: "model_error" } : undefined);
    },
    onStepError: (event) => {
      const step = steps.get(event.stepNumber);
      steps.delete(event.stepNumber);
      step?.end({ type: errorType(event.error), message: messageOf(event.error) });
    },
    onToolExecutionStart: (event) => {
      const { toolCallId, toolName } = event.toolCall;
      tools.set(
        toolCallId,
        (current ?? span).child(`execute_tool ${toolName}`, {
          attributes: {
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": toolName,
            "gen_ai.tool.call.id": toolCallId,
            "gen_ai.tool.type": "extension",
          },
        }),
      );
    },
    onToolExecutionEnd: (event) => {
      const { toolCallId } = event.toolCall;
      const tool = tools.get(toolCallId);
      tools.delete(toolCallId);
      if (!tool) return;
      const output = event.toolOutput;
      if (output.type === "tool-error") {
        tool.end({ type: errorType(output.error), message: messageOf(output.error) });
        return;
      }
      const run = output.output as { isError?: boolean; ending?: string } | undefined;
      if (run?.ending) tool.set({ "lass.tool.ending": run.ending });
      tool.end(run?.isError ? { type: run.ending ?? "tool_error" } : undefined);
    },
  };
  const endOpen = (failure: { type: string; message?: string }) => {
    for (const open of [...tools.values(), ...steps.values()]) open.end(failure);
    tools.clear();
    steps.clear();
  };
  return {
    span,
    callbacks,
    inToolSpan: (toolCallId, work) => {
      const tool = tools.get(toolCallId);
      return tool ? runInSpan(tool, work) : work();
    },
    finish: (outcome) => {
      endOpen({ type: "unfinished" });
      span.set({
        ...usageAttributes(outcome.usage),
        "gen_ai.response.finish_reasons": [outcome.finishReason],
        "lass.steps": outcome.steps,
      });
      span.end();
    },
    fail: (failure) => {
      endOpen(failure);
      span.end(failure);
    },
  };
}

/** The low-cardinality `error.type` of a thrown value: its class name. */
function errorType(error: unknown): string {
  return error instanceof Error ? error.name || "Error" : "error";
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
