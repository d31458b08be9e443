/** One AG-UI run of a chat turn: its events as chunks and recorded messages. */
import {
  contentToText,
  EventType,
  type Message,
  PROTOCOL_VERSION,
  type RunAgentInput,
  type RunErrorEvent,
  type TokenUsage,
  type Tool,
} from "@ag-ui/client";
import type { TurnChunk } from "../chat/types.ts";
import type { ChatUsage } from "../../wire/usage.ts";
import { toolCallChunk } from "../chat/chunks.ts";
import { clip } from "../errors.ts";
import type { RunTools } from "../chat/tools.ts";
import type { TurnMessages } from "./_agui_messages.ts";
import { nextState } from "./_agui_state.ts";
import { runEvents } from "./_agui_stream.ts";
import type { AgentConfig, AgentTurnInput } from "./types.ts";

const USAGE_KEYS = [
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "reasoningTokens",
  "cachedInputTokens",
] as const;

/** Adds the counts of `entries` (AG-UI reports one entry per provider and model) to `into`. */
export function addUsage(
  into: ChatUsage,
  entries: readonly (TokenUsage | ChatUsage)[] | undefined,
) {
  for (const entry of entries ?? []) {
    for (const key of USAGE_KEYS) {
      if (typeof entry[key] === "number") into[key] = (into[key] ?? 0) + entry[key];
    }
  }
  return into;
}

/** The sentence a `RUN_ERROR` becomes. */
export function runErrorMessage(agent: AgentConfig, event: RunErrorEvent): string {
  const code = event.code ? ` (${event.code})` : "";
  return `the AG-UI agent ${agent.id} reported an error: ${event.message}${code}`;
}

/** A `RunAgentInput` with the agent's state as its last run left it (`{}` at first). */
export function runInput(
  thread: { threadId: string; runId: string },
  body: { messages: Message[]; tools: Tool[]; state?: unknown },
): RunAgentInput {
  const { threadId, runId } = thread;
  const { messages, tools } = body;
  return {
    threadId,
    runId,
    protocolVersion: PROTOCOL_VERSION,
    state: body.state ?? {},
    messages,
    tools,
    context: [],
    forwardedProps: {},
  };
}

/** A tool call the agent made in one run. */
export interface AgentCall {
  id: string;
  name: string;
  args: string;
  input?: unknown;
  /** Why the arguments cannot be used (not a JSON object): the call's error result. */
  problem?: string;
  endedAt?: number;
  answered: boolean;
}

/** One agent run of a turn. */
export interface RunContext {
  turn: AgentTurnInput;
  record: TurnMessages;
  /** The tools offered as frontend tools, when the agent shares them. */
  shared?: RunTools;
}

/**
 * How a run ended: its usage, the calls of shared tools it left for Lass to answer, the step's
 * finish reason, and the agent's state when the run changed it.
 */
export interface RunEnd {
  usage: ChatUsage;
  pending: AgentCall[];
  finishReason: string;
  state?: unknown;
}

/**
 * Streams one run's chunks (text, reasoning, tool calls and the agent's own tool results; the
 * `step` is the caller's, after the results of the calls it answers), recording the messages and
 * following the state. Throws on `RUN_ERROR` or a broken stream.
 */
export async function* agentRun(
  context: RunContext,
  input: RunAgentInput,
): AsyncGenerator<TurnChunk, RunEnd> {
  const { turn, record, shared } = context;
  const { agent, signal } = turn;
  const calls = new Map<string, AgentCall>();
  const otherRoles = new Set<string>();
  let end: RunEnd | undefined;
  let state: { value: unknown } | undefined;
  for await (const event of runEvents(turn, { input, signal })) {
    switch (event.type) {
      case EventType.STATE_SNAPSHOT:
      case EventType.STATE_DELTA:
        state = { value: nextState(state ? state.value : input.state, event) };
        break;
      case EventType.TEXT_MESSAGE_START:
        if (event.role && event.role !== "assistant") otherRoles.add(event.messageId);
        break;
      case EventType.TEXT_MESSAGE_CONTENT:
        if (otherRoles.has(event.messageId) || event.delta === "") break;
        record.text(event.delta);
        yield { type: "text", text: event.delta };
        break;
      case EventType.REASONING_MESSAGE_CONTENT:
        if (event.delta === "") break;
        record.reasoning(event.delta);
        yield { type: "reasoning", text: event.delta };
        break;
      case EventType.TOOL_CALL_START:
        calls.set(event.toolCallId, {
          id: event.toolCallId,
          name: event.toolCallName,
          args: "",
          answered: false,
        });
        break;
      case EventType.TOOL_CALL_ARGS: {
        const call = calls.get(event.toolCallId);
        if (call) call.args += event.delta;
        break;
      }
      case EventType.TOOL_CALL_END: {
        const call = calls.get(event.toolCallId);
        if (!call) break;
        const args = parseArgs(call.name, call.args);
        call.input = args.input;
        if (args.problem) call.problem = args.problem;
        call.endedAt = performance.now();
        record.toolCall(call.id, call.name, call.input);
        const origin = shared?.tools[call.name] ? shared.origins.get(call.name) : undefined;
        yield toolCallChunk(call.id, call.name, call.input, origin, "agent");
        break;
      }
      case EventType.TOOL_CALL_RESULT: {
        const call = calls.get(event.toolCallId);
        if (call) call.answered = true;
        const text = contentToText(event.content);
        record.toolResult(event.toolCallId, call?.name ?? "unknown", { type: "text", value: text });
        yield {
          type: "tool-result",
          id: event.toolCallId,
          output: event.content,
          isError: false,
          durationMs: call?.endedAt ? Math.round(performance.now() - call.endedAt) : 0,
        };
        break;
      }
      case EventType.RUN_ERROR:
        throw new Error(runErrorMessage(agent, event));
      case EventType.RUN_FINISHED: {
        const outcome = event.outcome;
        const named = outcome?.type === "success" ? outcome.pendingToolCallIds : undefined;
        const open = named
          ? named.flatMap((id) => calls.get(id) ?? [])
          : [...calls.values()].filter((call) => !call.answered);
        const pending = open.filter((call) => call.endedAt && shared?.tools[call.name]);
        const finishReason = outcome && outcome.type !== "success"
          ? outcome.type
          : pending.length > 0
          ? "tool-calls"
          : "stop";
        end = { usage: addUsage({}, event.usage), pending, finishReason };
        break;
      }
      default:
        // Activity, step, messages-snapshot and custom events carry nothing a chunk shows.
        break;
    }
  }
  const changed = state ? { state: state.value } : {};
  if (signal.aborted) return { usage: end?.usage ?? {}, pending: [], finishReason: "stop" };
  if (!end) {
    throw new Error(`the AG-UI agent ${agent.id} ended its stream before finishing the run`);
  }
  return { ...end, ...changed };
}

/**
 * Tool-call arguments as an object. Text that is not a JSON object is kept as it is (to show and
 * to send back in the history) with the problem in one sentence: such a call is answered with
 * that error, never run with arguments the tool did not ask for.
 */
function parseArgs(name: string, args: string): { input: unknown; problem?: string } {
  if (args.trim() === "") return { input: {} };
  let input: unknown;
  try {
    input = JSON.parse(args);
  } catch {
    return {
      input: args,
      problem: `the arguments of ${name} are not JSON (${
        clip(args.replace(/\s+/g, " "), 200)
      }); call it again with a JSON object`,
    };
  }
  if (input !== null && typeof input === "object" && !Array.isArray(input)) return { input };
  const kind = input === null ? "null" : Array.isArray(input) ? "an array" : `a ${typeof input}`;
  return {
    input,
    problem: `the arguments of ${name} must be a JSON object, not ${kind}; call it again with one`,
  };
}
