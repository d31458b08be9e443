/**
 * Tool calls that run as MCP tasks, as the manager keeps them: a bounded record per task, an
 * `mcp.task` event for every change, cancel, and tasks whose following was lost until another
 * session follows them again (`_task_follow.ts` follows them).
 */
import { clip, LassError } from "../errors.ts";
import type { EventBus } from "../events.ts";
import type {
  CallToolResult,
  McpSession,
  TaskReference,
  TaskSnapshot,
  TaskStatus,
} from "./client.ts";
import type { ConnectionState } from "./state.ts";
import { taskGenerationOf, TASKS_EXTENSION } from "./_task_support.ts";

export type { TaskStatus } from "./client.ts";

/** What Lass knows about one task (`GET /api/mcp/:id/tasks/:taskId`). */
export interface TaskRecord {
  taskId: string;
  serverId: string;
  tool: string;
  status: TaskStatus;
  /** The server's status message. */
  message?: string;
  createdAt: string;
  updatedAt: string;
  /** The tool's result, once `completed`. */
  result?: CallToolResult;
  /** Why it failed, once `failed` (with the JSON-RPC code when the server gave one). */
  error?: { message: string; code?: number };
  /**
   * A cancel was asked while Lass had lost track of the task (its connection went): Lass sends it
   * to the server once it follows the task again.
   */
  cancelRequested?: true;
}

/** The statuses after which a task changes no more. */
export const ENDED_STATUSES: ReadonlySet<TaskStatus> = new Set([
  "completed",
  "failed",
  "cancelled",
]);

/** How many task records are kept (ended ones go first). */
const KEPT_RECORDS = 200;
/** How long a cancel waits for the task to end after the server took the request. */
const CANCEL_SETTLE_MS = 5000;

interface Kept {
  record: TaskRecord;
  /** Asks the server to cancel (while the task runs and this process follows it). */
  cancel?: () => Promise<void>;
  /** Resolves when the record ends. */
  ended: Promise<void>;
  end: () => void;
  /** How another session of the server can follow the task again. */
  reference?: TaskReference;
  /** The task's following was lost: it waits for a session to follow it again. */
  lost?: boolean;
  /** The sessions that followed the task (each follows it once). */
  followedBy: WeakSet<McpSession>;
  /** Why nothing will follow the task again (its server was removed), once so. */
  abandoned?: string;
}

/** Where {@link TaskRecords} reports what went wrong with no caller to tell: a server's log. */
export type TaskLog = (serverId: string, level: "warning", message: string) => void;

/** The task records of every server, bounded, with their events. */
export class TaskRecords {
  readonly #events: EventBus;
  readonly #limit: number;
  readonly #log: TaskLog;
  readonly #kept = new Map<string, Kept>();

  constructor(events: EventBus, options: { limit?: number; log?: TaskLog } = {}) {
    this.#events = events;
    this.#limit = options.limit ?? KEPT_RECORDS;
    this.#log = options.log ?? (() => {});
  }

  /** Records a task's new status or message (the first one creates the record). */
  observe(
    serverId: string,
    tool: string,
    snapshot: TaskSnapshot,
    cancel?: () => Promise<void>,
  ): TaskRecord {
    const key = keyOf(serverId, snapshot.taskId);
    let kept = this.#kept.get(key);
    const now = new Date().toISOString();
    if (!kept) {
      let end = () => {};
      const ended = new Promise<void>((resolve) => end = resolve);
      kept = {
        record: {
          taskId: snapshot.taskId,
          serverId,
          tool,
          status: snapshot.status,
          createdAt: snapshot.createdAt ?? now,
          updatedAt: now,
        },
        cancel,
        ended,
        end,
        followedBy: new WeakSet(),
      };
      this.#kept.set(key, kept);
      this.#bound();
    } else if (ENDED_STATUSES.has(kept.record.status)) {
      return kept.record;
    } else if (cancel) {
      // Followed again by another session: cancel goes through that one.
      kept.cancel = cancel;
    }
    const record = kept.record;
    record.status = snapshot.status;
    record.updatedAt = snapshot.updatedAt ?? now;
    if (snapshot.message !== undefined) record.message = clip(snapshot.message);
    const ended = ENDED_STATUSES.has(record.status);
    if (ended) delete record.cancelRequested;
    this.#emit(record);
    if (ended) this.#ended(kept);
    else if (record.cancelRequested && kept.cancel) this.#sendRequestedCancel(kept, kept.cancel);
    return record;
  }

  /** Sends the cancel asked while the task was lost, now that a session follows it again. */
  #sendRequestedCancel(kept: Kept, cancel: () => Promise<void>): void {
    const { serverId, taskId } = kept.record;
    delete kept.record.cancelRequested;
    cancel().catch((error) => {
      this.#log(
        serverId,
        "warning",
        `cancelling the task ${taskId} (asked while Lass had lost track of it) failed: ${
          (error as Error).message
        }`,
      );
    });
  }

  /** Records how a task ended: its result, its error, or that it was cancelled. */
  end(
    serverId: string,
    taskId: string,
    outcome:
      | { status: "completed"; result: CallToolResult }
      | { status: "failed"; error: { message: string; code?: number } }
      | { status: "cancelled" },
  ): TaskRecord | undefined {
    const kept = this.#kept.get(keyOf(serverId, taskId));
    if (!kept) return undefined;
    const record = kept.record;
    const already = ENDED_STATUSES.has(record.status);
    delete record.cancelRequested;
    if (outcome.status === "completed") record.result = outcome.result;
    if (outcome.status === "failed") record.error = { ...outcome.error };
    if (!already || record.status !== outcome.status) {
      const changed = record.status !== outcome.status;
      record.status = outcome.status;
      record.updatedAt = new Date().toISOString();
      if (changed) this.#emit(record);
    }
    this.#ended(kept);
    return record;
  }

  /** Keeps how the task can be followed again, and that `session` follows it. */
  refer(serverId: string, reference: TaskReference, session: McpSession): void {
    const kept = this.#kept.get(keyOf(serverId, reference.taskId));
    if (!kept) return;
    kept.reference = reference;
    kept.followedBy.add(session);
  }

  /**
   * A running task whose following was lost: `waiting` when it keeps its status and waits for
   * another session ({@link toResume}), `ended` when its server was removed meanwhile (the record
   * ended failed), `undefined` when it cannot be followed again (no reference).
   */
  lose(serverId: string, taskId: string): "waiting" | "ended" | undefined {
    const kept = this.#kept.get(keyOf(serverId, taskId));
    if (!kept?.reference || ENDED_STATUSES.has(kept.record.status)) return undefined;
    kept.cancel = undefined;
    if (kept.abandoned !== undefined) {
      this.#abandon(kept, kept.abandoned);
      return "ended";
    }
    kept.lost = true;
    return "waiting";
  }

  /**
   * `session` of a server is gone: its tasks cannot be cancelled through it. A cancel asked before
   * they are followed again waits for that ({@link cancel}).
   */
  release(serverId: string, session: McpSession): void {
    for (const kept of this.#kept.values()) {
      if (kept.record.serverId === serverId && kept.followedBy.has(session)) {
        kept.cancel = undefined;
      }
    }
  }

  /** The lost tasks of a server that `session` may follow again (each session once), now taken. */
  toResume(serverId: string, session: McpSession): { tool: string; reference: TaskReference }[] {
    const taken = [];
    for (const kept of this.#kept.values()) {
      if (!kept.lost || kept.record.serverId !== serverId || kept.followedBy.has(session)) continue;
      kept.lost = false;
      kept.followedBy.add(session);
      taken.push({ tool: kept.record.tool, reference: kept.reference! });
    }
    return taken;
  }

  /**
   * Nothing will follow a server's tasks again (`why`: it was removed): its lost tasks end failed
   * now, its running ones when their following ends.
   */
  abandon(serverId: string, why: string): void {
    for (const kept of [...this.#kept.values()]) {
      if (kept.record.serverId !== serverId || ENDED_STATUSES.has(kept.record.status)) continue;
      kept.abandoned = why;
      if (kept.lost) this.#abandon(kept, why);
    }
  }

  #abandon(kept: Kept, why: string): void {
    kept.lost = false;
    this.end(kept.record.serverId, kept.record.taskId, {
      status: "failed",
      error: { message: `Lass lost track of the task: ${why}` },
    });
  }

  /** One task's record; 404 when Lass does not know it. */
  get(serverId: string, taskId: string): TaskRecord {
    const kept = this.#kept.get(keyOf(serverId, taskId));
    if (!kept) {
      throw new LassError("not-found", `the tool server ${serverId} has no task ${taskId} in Lass`);
    }
    return kept.record;
  }

  /** The records of one server's tasks, newest first. */
  list(serverId: string): TaskRecord[] {
    return [...this.#kept.values()].map((kept) => kept.record)
      .filter((record) => record.serverId === serverId).reverse();
  }

  /**
   * Asks the server to cancel a running task and waits (briefly) for the task to end: 404 for an
   * unknown task, 409 for one that ended already. A task Lass lost track of (it waits to be
   * followed again) is marked `cancelRequested` at once, and the cancel is sent once it is followed.
   */
  async cancel(serverId: string, taskId: string): Promise<TaskRecord> {
    const record = this.get(serverId, taskId);
    const kept = this.#kept.get(keyOf(serverId, taskId))!;
    if (ENDED_STATUSES.has(record.status)) {
      throw new LassError(
        "conflict",
        `the task ${taskId} of ${serverId} ended already (${record.status})`,
      );
    }
    if (!kept.cancel && kept.reference) {
      // Lost, or about to be followed again: the cancel goes with the next following.
      if (!record.cancelRequested) {
        record.cancelRequested = true;
        record.updatedAt = new Date().toISOString();
        this.#emit(record);
      }
      return record;
    }
    if (!kept.cancel) {
      throw new LassError(
        "conflict",
        `the task ${taskId} of ${serverId} is not followed by Lass any more`,
      );
    }
    try {
      await kept.cancel();
    } catch (error) {
      throw new LassError(
        "upstream-error",
        `cancelling the task ${taskId} of ${serverId} failed: ${(error as Error).message}`,
      );
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      kept.ended,
      new Promise<void>((resolve) => timer = setTimeout(resolve, CANCEL_SETTLE_MS)),
    ]);
    clearTimeout(timer);
    return record;
  }

  #ended(kept: Kept): void {
    kept.cancel = undefined;
    kept.end();
  }

  #emit(record: TaskRecord): void {
    this.#events.emit("mcp.task", {
      serverId: record.serverId,
      taskId: record.taskId,
      tool: record.tool,
      status: record.status,
      ...(record.message !== undefined && { message: record.message }),
      ...(record.cancelRequested && { cancelRequested: true }),
    });
  }

  /** Drops the oldest ended records (then the oldest at all) past the limit. */
  #bound(): void {
    if (this.#kept.size <= this.#limit) return;
    for (const [key, kept] of this.#kept) {
      if (this.#kept.size <= this.#limit) return;
      if (ENDED_STATUSES.has(kept.record.status)) this.#kept.delete(key);
    }
    for (const key of this.#kept.keys()) {
      if (this.#kept.size <= this.#limit) return;
      this.#kept.delete(key);
    }
  }
}

function keyOf(serverId: string, taskId: string): string {
  return `${serverId}\u0000${taskId}`;
}

/**
 * Why a tool cannot run as a task on a connected server, in words: the
 * server offers no MCP Tasks, or (2025) the tool does not allow them.
 */
export function whyNotTask(state: ConnectionState, tool: string): string {
  if (taskGenerationOf(state.era, state.capabilities) === "none") {
    return state.era === "modern"
      ? `the tool server ${state.id} does not offer MCP Tasks (no ${TASKS_EXTENSION} extension)`
      : `the tool server ${state.id} does not offer MCP Tasks for tool calls (capabilities.tasks)`;
  }
  return `the tool ${tool} of ${state.id} does not run as a task (its execution.taskSupport is not optional or required)`;
}
