/** The task shapes the session speaks in: a task's status and snapshot, call options, `TaskEnded`. */
import type { SerializedTaskReference } from "@modelcontextprotocol/ext-tasks/client";
import type { TaskStatus } from "../../../wire/tool_tasks.ts";

/**
 * What lets a later session of the same server follow a task again (ext-tasks' serialized
 * reference: the task id, its generation and operation).
 */
export type TaskReference = SerializedTaskReference;

/** What a task looks like at one moment. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  /** The server's status message (how far the work got, what it waits for). */
  message?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** Options of a call that may run as a task. */
export interface TaskCallOptions {
  timeoutMs: number;
  /** Aborting it cancels the task on the server (or the request, before the task exists). */
  signal?: AbortSignal;
  /** Progress notifications of a call the server answers without a task. */
  onProgress?: (progress: number, total?: number, message?: string) => void;
  /** Every change of the task's status or message, the created task first. */
  onStatus?: (task: TaskSnapshot) => void;
  /** Once the server made the task: how to follow it again from another session. */
  onReference?: (reference: TaskReference) => void;
}

/** A task that ended without a result: it failed (with the server's error) or was cancelled. */
export class TaskEnded extends Error {
  readonly status: "failed" | "cancelled";
  readonly taskId: string;
  /** The JSON-RPC code of a failure, when the server gave one. */
  readonly code?: number;

  constructor(status: "failed" | "cancelled", taskId: string, message: string, code?: number) {
    super(message);
    this.name = "TaskEnded";
    this.status = status;
    this.taskId = taskId;
    if (code !== undefined) this.code = code;
  }
}

/**
 * A task whose end Lass did not learn: following it failed without the server saying so (the
 * connection was lost, a poll got no answer). The task may still run on the server.
 */
export class TaskLost extends Error {
  readonly taskId: string;

  constructor(taskId: string, message: string) {
    super(message);
    this.name = "TaskLost";
    this.taskId = taskId;
  }
}

/** The requests a task may put to Lass while it runs (the session's own handlers). */
export interface TaskInputHandlers {
  sampling(params: never, signal: AbortSignal): Promise<unknown>;
  elicitation(params: never, signal: AbortSignal): Promise<unknown>;
  /** The roots offered to the server; without it, none. */
  roots?(): { uri: string; name?: string }[];
}
