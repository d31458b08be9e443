/**
 * Tool calls that run as MCP tasks, as the manager keeps them: a bounded record per task, an
 * `mcp.task` event for every change, cancel, and tasks whose following was lost until another
 * session follows them again (`resumeTask` follows them), also after a restart of Lass when
 * their references are kept in task files ({@link TaskFiles}).
 */
import { clip, LassError } from "../../errors.ts";
import type { EventBus } from "../../events.ts";
import type { CallToolResult, McpSession } from "../session/types.ts";
import type { TaskRecord } from "../../../wire/tool_tasks.ts";
import type { TaskReference, TaskSnapshot } from "./types.ts";
import type { TaskStatus } from "../../../wire/tool_tasks.ts";
import { recordOf, storedOf, type StoredTask, type TaskFiles } from "./files.ts";

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

/** Options of {@link TaskRecords}. */
export interface TaskRecordsOptions {
  /** How many records are kept (default 200). */
  limit?: number;
  log?: TaskLog;
  /** Where running tasks are kept for the next start (see {@link TaskFiles}); none: in memory only. */
  files?: TaskFiles;
}

/** The task records of every server, bounded, with their events. */
export class TaskRecords {
  readonly #events: EventBus;
  readonly #limit: number;
  readonly #log: TaskLog;
  readonly #files?: TaskFiles;
  readonly #kept = new Map<string, Kept>();

  constructor(events: EventBus, options: TaskRecordsOptions = {}) {
    this.#events = events;
    this.#limit = options.limit ?? KEPT_RECORDS;
    this.#log = options.log ?? (() => {});
    this.#files = options.files;
  }

  /**
   * Takes the running tasks a previous start kept ({@link TaskFiles}) as lost ones: the server's
   * next session follows them again ({@link toResume}).
   */
  restore(serverId: string, stored: StoredTask[]): void {
    for (const task of stored) {
      const key = keyOf(serverId, task.taskId);
      if (this.#kept.has(key) || ENDED_STATUSES.has(task.status)) continue;
      let end = () => {};
      const ended = new Promise<void>((resolve) => end = resolve);
      this.#kept.set(key, {
        record: recordOf(serverId, task),
        ended,
        end,
        reference: task.reference,
        lost: true,
        followedBy: new WeakSet(),
      });
    }
    this.#bound();
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
    if (kept.reference) this.#persist(serverId);
    return record;
  }

  /** Sends the cancel asked while the task was lost, now that a session follows it again. */
  #sendRequestedCancel(kept: Kept, cancel: () => Promise<void>): void {
    const { serverId, taskId } = kept.record;
    delete kept.record.cancelRequested;
    this.#persist(serverId);
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
    if (kept.reference) this.#persist(serverId);
    return record;
  }

  /** Keeps how the task can be followed again, and that `session` follows it. */
  refer(serverId: string, reference: TaskReference, session: McpSession): void {
    const kept = this.#kept.get(keyOf(serverId, reference.taskId));
    if (!kept) return;
    const known = kept.reference !== undefined;
    kept.reference = reference;
    kept.followedBy.add(session);
    if (!known && !ENDED_STATUSES.has(kept.record.status)) this.#persist(serverId);
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

  /** The ids of the servers that have lost tasks waiting to be followed again. */
  waitingServers(): Set<string> {
    const ids = new Set<string>();
    for (const kept of this.#kept.values()) if (kept.lost) ids.add(kept.record.serverId);
    return ids;
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
        this.#persist(serverId);
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

  /** Keeps the server's running tasks in its task file (when Lass keeps them across starts). */
  #persist(serverId: string): void {
    this.#files?.save(
      serverId,
      () => this.#running(serverId),
      (error) => this.#log(serverId, "warning", `keeping its tasks failed: ${error.message}`),
    );
  }

  /** The server's running tasks that a later session can follow again, as stored. */
  #running(serverId: string): StoredTask[] {
    const tasks: StoredTask[] = [];
    for (const { record, reference } of this.#kept.values()) {
      if (record.serverId !== serverId || !reference || ENDED_STATUSES.has(record.status)) continue;
      tasks.push(storedOf(record, reference));
    }
    return tasks;
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
