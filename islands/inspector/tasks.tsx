/**
 * The MCP tasks of one server in the inspector: those Lass follows or saw end, with their status
 * and message, and Cancel for running ones (a cancel asked while the server is away waits for it).
 * Read from `GET /api/mcp/:id/tasks` and read again on each `mcp.task` event of the server.
 * The list folds (open while a task runs, until the user closes it) and shows the newest 20 and
 * every running one, with "Show all" for the rest.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { timeAgo } from "../format.ts";
import { api, describeError, subscribe } from "../state.ts";
import { abandonCallOfTask } from "./open_calls.ts";
import type { TaskRecord } from "../../wire/tool_tasks.ts";

const ENDED = new Set(["completed", "failed", "cancelled"]);

/** How many tasks are shown before "Show all" (running ones always are). */
const SHOWN = 20;

const STATUS_CLASS: Record<string, string> = {
  working: "badge-running",
  input_required: "badge-waiting",
  completed: "badge-ok",
  failed: "badge-error",
  cancelled: "badge-ended",
};

const tasksPath = (id: string, rest = "") => `/api/mcp/${encodeURIComponent(id)}/tasks${rest}`;

function TaskRow({ serverId, task }: { serverId: string; task: TaskRecord }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const running = !ENDED.has(task.status);
  const cancel = async () => {
    busy.value = true;
    error.value = null;
    // A call of this tab's tool panel that runs as this task ends there as "Call cancelled".
    abandonCallOfTask(task);
    try {
      await api().json(
        "POST",
        tasksPath(serverId, `/${encodeURIComponent(task.taskId)}/cancel`),
        {},
      );
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };
  return (
    <li class="task-row" data-task-id={task.taskId}>
      <span class={`badge ${STATUS_CLASS[task.status] ?? ""}`}>{task.status}</span>
      <strong class="tool-name">{task.tool}</strong>
      <code title="Task id">{task.taskId}</code>
      {task.message ? <span class="task-message">{task.message}</span> : null}
      {task.error ? <span class="error">{task.error.message}</span> : null}
      <span class="hint">{timeAgo(task.updatedAt)}</span>
      {task.cancelRequested
        ? (
          <span class="hint task-cancel-requested">
            Cancel asked: sent once Lass reaches the server again
          </span>
        )
        : null}
      {running
        ? (
          <button
            type="button"
            disabled={busy.value || task.cancelRequested}
            aria-label={`Cancel task ${task.taskId}`}
            onClick={() => void cancel()}
          >
            {busy.value ? "Cancelling…" : "Cancel"}
          </button>
        )
        : null}
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </li>
  );
}

/** The server's tasks; nothing when Lass knows none. */
export function TasksPanel({ serverId }: { serverId: string }) {
  const tasks = useSignal<TaskRecord[]>([]);
  const error = useSignal<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = async () => {
      try {
        const answer = await api().json<{ tasks: TaskRecord[] }>("GET", tasksPath(serverId));
        if (!live) return;
        tasks.value = answer.tasks;
        error.value = null;
      } catch (failure) {
        if (live) error.value = describeError(failure);
      }
    };
    void load();
    const stop = subscribe((event) => {
      if (event.type === "mcp.task" && event.data.serverId === serverId) void load();
    });
    return () => {
      live = false;
      stop();
    };
  }, [serverId]);
  const running = tasks.value.filter((task) => !ENDED.has(task.status)).length;
  /** Open or closed: opens when a task starts running, then as the user leaves it. */
  const open = useSignal(false);
  const wasRunning = useRef(false);
  useEffect(() => {
    if (running > 0 && !wasRunning.current) open.value = true;
    wasRunning.current = running > 0;
  }, [running]);
  const showAll = useSignal(false);
  if (tasks.value.length === 0 && !error.value) return null;
  // The API lists the newest first.
  const shown = showAll.value
    ? tasks.value
    : tasks.value.filter((task, index) => index < SHOWN || !ENDED.has(task.status));
  const hidden = tasks.value.length - shown.length;
  return (
    <section class="inspector-tasks" aria-label="Tasks">
      <details
        open={open.value}
        onToggle={(event) => open.value = (event.currentTarget as HTMLDetailsElement).open}
      >
        <summary>
          <h2>
            Tasks <span class="count">{running} running</span>
            <span class="count">· {tasks.value.length} in all</span>
          </h2>
        </summary>
        {error.value ? <p class="error" role="alert">{error.value}</p> : null}
        <ul class="task-list">
          {shown.map((task) => <TaskRow key={task.taskId} serverId={serverId} task={task} />)}
        </ul>
        {hidden > 0 || showAll.value
          ? (
            <button
              type="button"
              onClick={() => showAll.value = !showAll.value}
            >
              {showAll.value
                ? `Show the newest ${SHOWN}`
                : `Show all ${tasks.value.length} tasks (${hidden} older hidden)`}
            </button>
          )
          : null}
      </details>
    </section>
  );
}
