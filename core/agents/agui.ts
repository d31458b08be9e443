/** Remote agents over AG-UI: a chat turn as one or more agent runs, and a connection probe. */
import { EventType } from "@ag-ui/client";
import type { EnvLookup } from "../config/env_refs.ts";
import type { TurnChunk } from "../chat/types.ts";
import type { ChatUsage } from "../../wire/usage.ts";
import { shownOutput } from "../chat/tool_output.ts";
import type { AgentProbe } from "../../wire/agents.ts";
import { withResolvedUrl } from "./_agent_url.ts";
import { threadIdOf, toAguiMessages, TurnMessages } from "./_agui_messages.ts";
import { addUsage, type AgentCall, agentRun, runErrorMessage, runInput } from "./_agui_run.ts";
import { stateOf } from "./_agui_state.ts";
import { runEvents } from "./_agui_stream.ts";
import { frontendTools, runFrontendTool } from "./_agui_tools.ts";
import type { AgentConfig, AgentTurnInput, AgentTurnResult } from "./types.ts";

/** What the probe says to the agent. */
const PROBE_TEXT = "Hello! This is a connection test from Lass.";

/**
 * A chat turn with an AG-UI agent (`agent.url` is its run endpoint). The history goes out as
 * AG-UI messages, with the agent's state as the last turn left it; text, reasoning and the
 * agent's tool calls stream back as chunks, in the order of a model turn (tool calls, their
 * results, then the step). With `shareTools`, the workspace's tools are offered as frontend tools:
 * when the run ends with calls of them, Lass runs them and starts another run with the results,
 * up to `maxSteps` runs. The state the agent ends with is kept on the turn's last message.
 */
export async function* runAguiTurn(
  input: AgentTurnInput,
): AsyncGenerator<TurnChunk, AgentTurnResult> {
  const { signal } = input;
  const agent = withResolvedUrl(input.agent, input.env);
  const turn = { ...input, agent };
  const threadId = threadIdOf(input.messages) ?? crypto.randomUUID();
  const shared = agent.shareTools && input.tools ? input.tools : undefined;
  const tools = shared ? await frontendTools(shared.tools) : [];
  const record = new TurnMessages(threadId);
  const usage: ChatUsage = {};
  let reported = false;
  let state = stateOf(input.messages);
  let stateChanged = false;
  const result = (): AgentTurnResult => {
    if (stateChanged) record.keepState(state);
    return { messages: record.messages, ...(reported && { usage }) };
  };
  for (let step = 1; step <= Math.max(1, input.maxSteps); step++) {
    if (signal.aborted) break;
    const runId = step === 1 ? input.runId : `${input.runId}-${step}`;
    const history = toAguiMessages([...input.messages, ...record.messages]);
    const end = yield* agentRun(
      { turn, record, shared },
      runInput({ threadId, runId }, { messages: history, tools, state }),
    );
    if ("state" in end) {
      state = end.state;
      stateChanged = true;
    }
    if (signal.aborted) break;
    if (Object.keys(end.usage).length > 0) reported = true;
    addUsage(usage, [end.usage]);
    for (const call of shared ? end.pending : []) {
      let run;
      try {
        run = await answerCall(shared!, call, signal);
      } catch (error) {
        if (signal.aborted) return result();
        throw error;
      }
      record.toolResult(call.id, call.name, run.model);
      yield {
        type: "tool-result",
        id: call.id,
        output: shownOutput(run.model),
        isError: run.isError,
        durationMs: run.durationMs,
        ...(run.ui && { ui: run.ui }),
        ...(run.raw !== undefined && { raw: run.raw }),
      };
    }
    yield { type: "step", usage: end.usage, finishReason: end.finishReason };
    if (end.pending.length === 0 || !shared) break;
  }
  return result();
}

/** Runs a shared tool the agent called; arguments that are not a JSON object are its error. */
async function answerCall(
  shared: NonNullable<AgentTurnInput["tools"]>,
  call: AgentCall,
  signal: AbortSignal,
) {
  if (call.problem) {
    return {
      model: { type: "error-text" as const, value: call.problem },
      isError: true,
      durationMs: 0,
    };
  }
  return await runFrontendTool(shared.tools, { call, signal });
}

/**
 * Checks that an AG-UI agent answers: one run with a short greeting. Never throws; a failure,
 * a `RUN_ERROR` or no `RUN_FINISHED` within `timeoutMs` is `ok: false` with the reason.
 */
export async function testAguiAgent(
  record: AgentConfig,
  env: EnvLookup,
  options: { timeoutMs: number },
): Promise<AgentProbe> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const events: string[] = [];
  let text = "";
  const input = runInput({ threadId: crypto.randomUUID(), runId: crypto.randomUUID() }, {
    messages: [{ id: "lass-probe", role: "user", content: PROBE_TEXT }],
    tools: [],
  });
  let agent = record;
  try {
    agent = withResolvedUrl(record, env);
    for await (const event of runEvents({ agent, env }, { input, signal: controller.signal })) {
      events.push(event.type);
      if (event.type === EventType.TEXT_MESSAGE_CONTENT) text += event.delta;
      if (event.type === EventType.RUN_ERROR) {
        return { ok: false, latencyMs: latencyMs(), error: runErrorMessage(agent, event), events };
      }
    }
    if (controller.signal.aborted) {
      const error =
        `the AG-UI agent ${agent.id} did not finish a run within ${options.timeoutMs} ms`;
      return { ok: false, latencyMs: latencyMs(), error, events };
    }
    if (!events.includes(EventType.RUN_FINISHED)) {
      const error = `the AG-UI agent ${agent.id} ended its stream before finishing the run`;
      return { ok: false, latencyMs: latencyMs(), error, events };
    }
    return { ok: true, latencyMs: latencyMs(), events, text };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      latencyMs: latencyMs(),
      error: message,
      ...(events.length > 0 && { events }),
    };
  } finally {
    clearTimeout(timer);
  }
}
