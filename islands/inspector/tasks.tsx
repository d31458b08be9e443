/**
 * The MCP tasks of one server in the inspector: those Lass follows or saw end, with their status
 * and message, and Cancel for running ones (a cancel asked while the server is away waits for it).
 * Read from `GET /api/mcp/:id/tasks` and read again on each `mcp.task` event of the server.
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { timeAgo } from "../format.ts";
import { api, describeError, subscribe } from "../state.ts";
import { abandonCallOfTask } from "./open_calls.ts";
import type { TaskRecord } from "../../wire/tool_tasks.ts";

const ENDED = new Set(["completed", "failed", "cancelled"]);

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
  if (tasks.value.length === 0 && !error.value) return null;
  const running = tasks.value.filter((task) => !ENDED.has(task.status)).length;
  return (
    <section class="inspector-tasks" aria-label="Tasks">
      <h2>
        Tasks <span class="count">{running} running</span>
      </h2>
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      <ul class="task-list">
        {tasks.value.map((task) => <TaskRow key={task.taskId} serverId={serverId} task={task} />)}
      </ul>
    </section>
  );
}
