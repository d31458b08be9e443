/** The tools a chat run offers the model: the enabled tool servers' model-visible tools. */
import { asRequester } from "../mcp/requester.ts";
import { abortOf } from "./aborted.ts";
import type { LanguageModelV4ToolResultOutput as ToolResultOutput } from "@ai-sdk/provider";
import { dynamicTool, jsonSchema, type ToolSet } from "ai";
import type { McpServerConfig, Workspace } from "../../wire/config/schema.ts";
import type { Service } from "../service.ts";
import type { ToolInfo, ToolServerState } from "../../wire/tool_servers.ts";
import type { ApprovalGate } from "./approvals.ts";
import type { ChatChunk, ToolCallEnding, ToolUi } from "../../wire/chat.ts";
import { modelOutputOf, uiOf } from "./tool_output.ts";
import type { ToolOrigin } from "./types.ts";
import { CHANGED_SINCE_PINNED, heldTools } from "../mcp/pinning/held.ts";
import type { TurnTrace } from "../telemetry/turn_trace.ts";

/** What one tool call of a run produced: what the model sees, and what the chunk shows besides. */
export interface ToolRun {
  model: ToolResultOutput;
  isError: boolean;
  durationMs: number;
  ui?: ToolUi;
  /** The full `CallToolResult`, when the server answered. */
  raw?: unknown;
  /** Why the call did not run to its end: the user cancelled it, or did not approve it. */
  ending?: ToolCallEnding;
}

/** What the model reads of a call the user cancelled. */
export const CANCELLED_BY_USER = "The user cancelled this tool call before it finished.";

/**
 * How a running call is getting on (progress, or the status of its MCP task): yielded by a tool's
 * `execute` before its {@link ToolRun}, and streamed as a `tool-progress` chunk.
 */
export interface ToolUpdate {
  update: Omit<Extract<ChatChunk, { type: "tool-progress" }>, "type" | "id">;
}

/** Whether a tool's output (preliminary or final) is a {@link ToolUpdate}. */
export function isToolUpdate(output: unknown): output is ToolUpdate {
  return typeof output === "object" && output !== null && "update" in output;
}

/** The tools of a run and what the run needs to know about them. */
export interface RunTools {
  tools: ToolSet;
  origins: Map<string, ToolOrigin>;
  /** Enabled servers (or, with `tool`, tools held back by pinning) that could not be used. */
  unavailable: { serverId: string; tool?: string; status: string; error: string }[];
}

/** The run a tool set belongs to. */
export interface RunContext {
  service: Service;
  gate: ApprovalGate;
  workspace: Workspace;
  runId: string;
  llmId: string;
  signal: AbortSignal;
  /** The turn's trace: each call's MCP requests run in its tool span. */
  trace?: TurnTrace;
}

/**
 * A server's state when the turn may use it: a connected one at once; one in `error` or waiting
 * for sign-in at once too (it heals in the background, never inside a turn); one that is
 * connecting (or not yet) until `ready` settles, which bounds the wait of the whole turn.
 */
async function readyState(
  service: Service,
  serverId: string,
  wait: { until: Promise<void>; ms: number },
): Promise<ToolServerState> {
  const state = service.mcp.state(serverId);
  if (state.status === "connected") return state;
  if (state.status === "error" || state.status === "needs-auth") {
    service.mcp.warm(serverId);
    return state;
  }
  // Starts the connect, or joins the one in progress.
  const connected = service.mcp.connect(serverId);
  connected.catch(() => {});
  await Promise.race([connected, wait.until]);
  const now = service.mcp.state(serverId);
  return now.status === "connecting" || now.status === "disconnected"
    ? {
      ...now,
      error: `still connecting after ${wait.ms / 1000} s (the workspace's toolServerWaitMs)`,
    }
    : now;
}

/**
 * The wait of one turn for its tool servers: settles after `ms`, and rejects when the run is
 * aborted. `clear` stops its timer.
 */
function turnWait(ms: number, signal: AbortSignal) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const aborted = abortOf(signal);
  const until = Promise.race([
    new Promise<void>((resolve) => timer = setTimeout(resolve, ms)),
    aborted.promise,
  ]);
  until.catch(() => {});
  return {
    until,
    ms,
    clear: () => {
      clearTimeout(timer);
      aborted.stop();
    },
  };
}

/** What the model is told of a tool: the same for every turn while the server's tools stay. */
interface ModelView {
  description: string;
  inputSchema: ReturnType<typeof jsonSchema>;
}

/** Model views by the manager's tool records, which are kept until the server's tools change. */
const modelViews = new WeakMap<ToolInfo, ModelView>();

function modelView(info: ToolInfo): ModelView {
  let view = modelViews.get(info);
  if (!view) {
    view = {
      description: info.description || info.title || info.name,
      inputSchema: jsonSchema(info.inputSchema),
    };
    modelViews.set(info, view);
  }
  return view;
}

/** The tool servers' tools a run offers: counted at once, built when the model run starts. */
export interface ServerToolOffer {
  /** How many tools {@link ServerToolOffer.build} makes. */
  count: number;
  unavailable: RunTools["unavailable"];
  /** The AI SDK tools, and where each leads. */
  build(): Pick<RunTools, "tools" | "origins">;
}

/**
 * The model-visible tools of the workspace's enabled servers, named `<serverId>__<tool>`.
 * Servers still connecting are awaited, all together at most the workspace's `toolServerWaitMs`
 * (3 s); servers in `error` or waiting for sign-in are not awaited. A server that cannot be used
 * is left out and reported in `unavailable`, and so is each tool that its `pinning: "block"` holds
 * back (added or changed since pinned, until accepted). The tools themselves are made by `build`:
 * a turn waiting for its model run (see `ModelAdmission`) holds only what it found.
 */
export async function serverToolOffer(run: RunContext): Promise<ServerToolOffer> {
  const unavailable: RunTools["unavailable"] = [];
  let states = run.workspace.mcpServerIds.map((id) => run.service.mcp.state(id));
  // Most turns find every server connected: no wait (and no timer) then.
  if (states.some((state) => state.status !== "connected")) {
    const wait = turnWait(run.workspace.toolServerWaitMs, run.signal);
    try {
      states = await Promise.all(
        run.workspace.mcpServerIds.map((id) => readyState(run.service, id, wait)),
      );
    } finally {
      wait.clear();
    }
  }
  const offered: { serverId: string; server: McpServerConfig | undefined; info: ToolInfo }[] = [];
  for (const state of states) {
    if (state.status !== "connected") {
      unavailable.push({
        serverId: state.id,
        status: state.status,
        error: state.error ?? `the server is ${state.status}`,
      });
      continue;
    }
    // The record whose approval settings the turn's calls follow, read once per turn.
    const server = run.service.config.config.mcpServers.find((record) => record.id === state.id);
    const held = heldTools(state.drift);
    for (const info of state.tools) {
      if (!info.modelVisible) continue;
      if (held.has(info.name)) {
        unavailable.push({
          serverId: state.id,
          tool: info.name,
          status: "changed",
          error: CHANGED_SINCE_PINNED,
        });
        continue;
      }
      offered.push({ serverId: state.id, server, info });
    }
  }
  return {
    count: offered.length,
    unavailable,
    build() {
      const tools: ToolSet = {};
      const origins = new Map<string, ToolOrigin>();
      for (const { serverId, server, info } of offered) {
        origins.set(info.modelName, { source: serverId, tool: info.name });
        tools[info.modelName] = dynamicTool({
          ...modelView(info),
          execute: (input, options) =>
            callServerTool(run, { serverId, server, tool: info.name }, input, {
              toolCallId: options.toolCallId,
              signal: options.abortSignal,
            }),
          toModelOutput: ({ output }) => (output as ToolRun).model,
        });
      }
      return { tools, origins };
    },
  };
}

/** The tool servers' tools of a run, built at once (see {@link serverToolOffer}). */
export async function toolServerTools(run: RunContext): Promise<RunTools> {
  const offer = await serverToolOffer(run);
  return { ...offer.build(), unavailable: offer.unavailable };
}

/** The tool a model call leads to, as the turn found it. */
interface ServerTool {
  serverId: string;
  /** The server's record when the turn started: its approval settings. */
  server: McpServerConfig | undefined;
  tool: string;
}

/**
 * Runs one call: approval first when needed, then the call on the manager. Yields a
 * {@link ToolUpdate} for each progress notification or task status change, then the
 * {@link ToolRun}. This is the one place a chat's tool-server call is registered in the service's
 * running calls, from its start (approval included) to its end, so the user may cancel it (the
 * turn then goes on with a result saying so). Never throws but for aborts of the run (which
 * cancel a task the call runs as).
 */
async function* callServerTool(
  run: RunContext,
  target: ServerTool,
  input: unknown,
  options: { toolCallId: string; signal: AbortSignal | undefined },
): AsyncGenerator<ToolUpdate | ToolRun> {
  const { serverId, server, tool } = target;
  const { toolCallId } = options;
  const runSignal = options.signal ?? run.signal;
  const running = run.service.runningCalls.start(run.runId, toolCallId);
  const callSignal = AbortSignal.any([runSignal, running.signal]);
  const started = performance.now();
  const cancelled = (): ToolRun => ({
    model: { type: "error-text", value: CANCELLED_BY_USER },
    isError: true,
    durationMs: Math.round(performance.now() - started),
    ending: "cancelled",
  });
  try {
    const { service, gate, workspace } = run;
    if (server && gate.needsApproval(workspace, server, tool)) {
      let decision;
      try {
        decision = await gate.ask({ runId: run.runId, server, tool, input, signal: callSignal });
      } catch (error) {
        if (runSignal.aborted || !running.cancelled()) throw error;
        yield cancelled();
        return;
      }
      if (!decision.approved) {
        yield {
          model: { type: "execution-denied", reason: decision.reason },
          isError: true,
          durationMs: 0,
          ending: "denied",
        };
        return;
      }
    }
    const updates: ToolUpdate[] = [];
    let wake = () => {};
    // The trace marks what this call sends as chat's; telemetry makes its requests spans of the
    // call's span.
    const inSpan = <T>(work: () => T): T =>
      run.trace ? run.trace.inToolSpan(toolCallId, work) : work();
    const call = asRequester("chat", () =>
      inSpan(() =>
        service.mcp.callTool(
          serverId,
          tool,
          (input ?? {}) as Record<string, unknown>,
          {
            signal: callSignal,
            context: { runId: run.runId, llmId: run.llmId, toolCallId },
            onProgress: (progress, total, message) => {
              updates.push({
                update: {
                  progress,
                  ...(total !== undefined && { total }),
                  ...(message !== undefined && { message }),
                },
              });
              wake();
            },
            onTask: (task) => {
              updates.push({
                update: {
                  task: { taskId: task.taskId, status: task.status },
                  ...(task.message !== undefined && { message: task.message }),
                },
              });
              wake();
            },
          },
        )
      ));
    let settled = false;
    const done = call.then(() => {}, () => {}).finally(() => {
      settled = true;
      wake();
    });
    while (true) {
      while (updates.length > 0) yield updates.shift()!;
      if (settled) break;
      await new Promise<void>((resolve) => wake = resolve);
    }
    await done;
    // The user's cancel wins over whatever the server answered after it.
    if (running.cancelled() && !runSignal.aborted) {
      yield cancelled();
      return;
    }
    // The last value yielded is the tool's output (a generator's return value is not seen).
    yield await toolRunOf(serverId, call, callSignal, started);
  } finally {
    running.end();
  }
}

/** What a finished (or failed) call gives the model and the card. */
async function toolRunOf(
  serverId: string,
  call: ReturnType<Service["mcp"]["callTool"]>,
  callSignal: AbortSignal,
  started: number,
): Promise<ToolRun> {
  try {
    // The manager answers with the tool as it found it on the server: its UI resource, if any.
    const { result, durationMs, tool } = await call;
    const ui = uiOf(serverId, tool, result);
    return {
      model: modelOutputOf(result),
      isError: result.isError === true,
      durationMs,
      ...(ui && { ui }),
      raw: result,
    };
  } catch (error) {
    if (callSignal.aborted) throw error;
    return {
      model: { type: "error-text", value: (error as Error).message },
      isError: true,
      durationMs: Math.round(performance.now() - started),
    };
  }
}
