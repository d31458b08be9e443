/**
 * One tool call made from the inspector: its progress while it runs (the `tool.progress` events
 * that carry the call's own id, and for a call that runs as an MCP task the task's status and
 * message from its `mcp.task` events), "waiting for you" while it asks the user something, the
 * elapsed time, and Cancel, which abandons the request and asks Lass to cancel the call on the
 * server; then its answer, its error, or that it was cancelled.
 */
import { type Signal, useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { ApiError } from "../api.ts";
import {
  CancelButton,
  Elapsed,
  ProgressReport,
  type ProgressValues,
  TaskBadge,
} from "../call_progress.tsx";
import { formatDuration } from "../format.ts";
import { api, describeError, pending, subscribe } from "../state.ts";
import { trackCall } from "./open_calls.ts";
import { revealWaiting, typing } from "../drawer.ts";
import type { CallOutcome } from "../tool_servers.ts";
import type { ErrorDetail } from "../../wire/errors.ts";
import type { TaskStatus } from "../../wire/tool_tasks.ts";

/** The MCP task a running call runs as: its id, status and status message. */
export interface CallTask {
  taskId: string;
  status: TaskStatus;
  message?: string;
}

/** Where one inspector call is. */
export type ToolCallState =
  | { state: "idle" }
  | { state: "running"; startedAt: number; progress?: ProgressValues; task?: CallTask }
  | { state: "done"; value: CallOutcome }
  | { state: "cancelled"; afterMs: number }
  | { state: "failed"; error: string; details: ErrorDetail[] };

/** A call in flight: its id, how to abandon it, and how to stop hearing its progress. */
interface InFlight {
  callId: string;
  abort: AbortController;
  unsubscribe: () => void;
}

/** What {@link useToolCall} gives the panel. */
export interface ToolCallHandle {
  state: Signal<ToolCallState>;
  /**
   * Calls the tool with `args` (and a deadline in ms, else the record's); a new call replaces the
   * last answer.
   */
  start(args: Record<string, unknown>, timeoutMs?: number): Promise<void>;
  /** Abandons the running call's request and cancels the call on the server. */
  cancel(): Promise<void>;
}

/** The state of the calls of one tool of one server, with start and cancel. */
export function useToolCall(serverId: string, tool: string): ToolCallHandle {
  const state = useSignal<ToolCallState>({ state: "idle" });
  const current = useRef<InFlight | null>(null);
  // A panel that goes away stops listening; its call runs on, as a request in flight would.
  useEffect(() => () => current.current?.unsubscribe(), []);
  const start = async (args: Record<string, unknown>, timeoutMs?: number) => {
    const callId = crypto.randomUUID();
    const abort = new AbortController();
    const unsubscribe = subscribe((event) => {
      const now = state.peek();
      if (now.state !== "running") return;
      if (event.type === "tool.progress" && event.data.toolCallId === callId) {
        const { progress, total, message } = event.data as ProgressValues;
        state.value = { ...now, progress: { progress, total, message } };
      } else if (
        event.type === "mcp.task" && event.data.serverId === serverId && event.data.tool === tool
      ) {
        // A task record does not name its call: the first task of this tool after the call
        // started is taken as its own (the Tasks list's Cancel matches the same way).
        const { taskId, status, message } = event.data as unknown as CallTask;
        if (now.task && now.task.taskId !== taskId) return;
        state.value = { ...now, task: { taskId, status, message } };
      }
    });
    current.current = { abort, unsubscribe, callId };
    const startedAt = Date.now();
    state.value = { state: "running", startedAt };
    // The Tasks list's Cancel of this call's task drops the request as the panel's Cancel does.
    const untrack = trackCall({ serverId, tool, startedAt, abandon: () => abort.abort() });
    try {
      const value = await api().json<CallOutcome>(
        "POST",
        `/api/mcp/${encodeURIComponent(serverId)}/call`,
        { tool, args, callId, ...(timeoutMs !== undefined && { timeoutMs }) },
        abort.signal,
      );
      state.value = { state: "done", value };
    } catch (error) {
      state.value = abort.signal.aborted
        ? { state: "cancelled", afterMs: Date.now() - startedAt }
        : {
          state: "failed",
          error: describeError(error),
          details: error instanceof ApiError ? error.details : [],
        };
    } finally {
      untrack();
      unsubscribe();
      if (current.current?.abort === abort) current.current = null;
    }
  };
  // The request is dropped first (the panel says "cancelled" at once and the call's error answer
  // is never read), then Lass cancels the call on the server.
  const cancel = async () => {
    const running = current.current;
    if (!running) return;
    running.abort.abort();
    await api().json(
      "POST",
      `/api/mcp/${encodeURIComponent(serverId)}/calls/${encodeURIComponent(running.callId)}/cancel`,
      {},
    ).catch(() => {});
  };
  return { state, start, cancel };
}

/**
 * A running call: "running…" or "waiting for you" (its task needs input, or its server asks the
 * user something outside a chat), the task it runs as, its progress or the task's message ("Step
 * 3 of 10"), the elapsed time and Cancel.
 */
export function RunningCall(
  { serverId, tool, startedAt, progress, task, onCancel }: {
    serverId: string;
    tool: string;
    startedAt: number;
    progress?: ProgressValues;
    task?: CallTask;
    onCancel: () => void;
  },
) {
  const asking = pending.value.find((interaction) =>
    interaction.serverId === serverId && interaction.runId === undefined &&
    (interaction.kind === "elicitation" || interaction.kind === "sampling")
  );
  // What the call asks is shown at once (in the sidebar; on a phone its drawer opens).
  useEffect(() => {
    if (asking && !typing()) revealWaiting(asking.id);
  }, [asking?.id]);
  const waiting = asking !== undefined || task?.status === "input_required";
  const report = progress ?? (task?.message ? { message: task.message } : undefined);
  return (
    <div class="tool-progress running-call" role="status" aria-live="polite">
      {asking
        ? (
          <button
            type="button"
            class="badge badge-waiting"
            title="Show what the call asks"
            onClick={() => revealWaiting(asking.id)}
          >
            waiting for you
          </button>
        )
        : (
          <span class={`badge ${waiting ? "badge-waiting" : "badge-running"}`}>
            {waiting ? "waiting for you" : "running…"}
          </span>
        )}
      {task ? <TaskBadge {...task} /> : null}
      {report ? <ProgressReport {...report} /> : null}
      <Elapsed since={startedAt} />
      <CancelButton label={`Cancel ${tool} call`} onCancel={onCancel} />
    </div>
  );
}

/** A call the user cancelled. */
export function CancelledCall({ afterMs }: { afterMs: number }) {
  return (
    <section class="call-result is-cancelled" aria-label="Result">
      <header>
        <h3>Call cancelled</h3>
        <span class="badge badge-cancelled">cancelled</span>
        <span class="duration" title="When it was cancelled">
          after {formatDuration(afterMs)}
        </span>
      </header>
      <p class="hint">Lass told the server to stop the call; no result came back.</p>
    </section>
  );
}
