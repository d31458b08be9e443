/**
 * The server side of MCP Tasks (extension `io.modelcontextprotocol/tasks`, SEP-2663, protocol
 * 2026-07-28) for the demo tool servers: a task store that runs work in the background, and the
 * `tasks/get`, `tasks/update` and `tasks/cancel` methods over it. A tool answers `tools/call` with
 * `store.start(work)` (a `CreateTaskResult`) when `declaresTasks(ctx)`; the store outlives the
 * per-request server instances, so any instance of the same handler can answer for a task.
 */
import type { TaskRun } from "./types.ts";
import { z } from "zod";
import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type InputRequest,
  type McpServer,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ServerContext,
} from "@modelcontextprotocol/server";

/** The extension's identifier in `capabilities.extensions`. */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/** A task's status; the last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** A task as `tasks/get` and `notifications/tasks` show it (the spec's `DetailedTask`). */
export interface DetailedTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** Outstanding questions, while `input_required`. */
  inputRequests?: Record<string, InputRequest>;
  /** The tool's result, once `completed` (also for `isError` results). */
  result?: CallToolResult;
  /** The JSON-RPC error, once `failed`. */
  error?: { code: number; message: string; data?: unknown };
}

/** What `tools/call` answers instead of a result when it starts a task. */
export type CreateTaskResult = Omit<DetailedTask, "inputRequests" | "result" | "error"> & {
  resultType: "task";
};

/** The work behind a task: its resolved value is the tool result; a throw fails the task. */
export type TaskWork = (run: TaskRun) => Promise<CallToolResult>;

/** Options of {@link TaskStore}. */
export interface TaskStoreOptions {
  /** How long a task is kept after it was created (default 10 minutes). */
  ttlMs?: number;
  /** How often clients should poll (default 250 ms). */
  pollIntervalMs?: number;
  /** The clock, for tests. */
  now?: () => number;
}

interface Entry {
  task: DetailedTask;
  createdMs: number;
  controller: AbortController;
  /** Answers still awaited, by input request key. */
  waiting: Map<string, (response: unknown) => void>;
  usedKeys: Set<string>;
  /** The progress message to show again once the questions are answered. */
  workingMessage?: string;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

/** The tasks of one server (one handler or one stdio connection), and their background work. */
export class TaskStore {
  readonly #tasks = new Map<string, Entry>();
  readonly #listeners = new Set<(task: DetailedTask) => void>();
  readonly #ttlMs: number;
  readonly #pollIntervalMs: number;
  readonly #now: () => number;

  constructor(options: TaskStoreOptions = {}) {
    this.#ttlMs = options.ttlMs ?? 600_000;
    this.#pollIntervalMs = options.pollIntervalMs ?? 250;
    this.#now = options.now ?? Date.now;
  }

  /** Starts `work` in the background; the answer for `tools/call`. */
  start(work: TaskWork, statusMessage = "Started."): CreateTaskResult {
    this.#sweep();
    const now = this.#now();
    const stamp = new Date(now).toISOString();
    const entry: Entry = {
      task: {
        taskId: crypto.randomUUID(),
        status: "working",
        statusMessage,
        createdAt: stamp,
        lastUpdatedAt: stamp,
        ttlMs: this.#ttlMs,
        pollIntervalMs: this.#pollIntervalMs,
      },
      createdMs: now,
      controller: new AbortController(),
      waiting: new Map(),
      usedKeys: new Set(),
      workingMessage: statusMessage,
    };
    this.#tasks.set(entry.task.taskId, entry);
    const { inputRequests: _, result: __, error: ___, ...seed } = entry.task;
    // The work starts after this returns, so the seed is always `working`.
    queueMicrotask(() => void this.#run(entry, work));
    return { ...seed, resultType: "task" };
  }

  /** The task's current record; an unknown (or expired) id is -32602, as the spec asks. */
  get(taskId: string): DetailedTask {
    return structuredClone(this.#entry(taskId).task);
  }

  /**
   * Delivers answers to outstanding questions. Keys that are not outstanding are ignored; the task
   * stays `input_required` until every question is answered.
   */
  update(taskId: string, inputResponses: Record<string, unknown>): void {
    const entry = this.#entry(taskId);
    for (const [key, response] of Object.entries(inputResponses)) {
      const resolve = entry.waiting.get(key);
      if (!resolve) continue;
      entry.waiting.delete(key);
      delete entry.task.inputRequests?.[key];
      resolve(response);
    }
    if (entry.task.status === "input_required" && entry.waiting.size === 0) {
      this.#set(entry, { status: "working", statusMessage: entry.workingMessage });
    }
  }

  /** Asks the work to stop (cooperative: work that finishes anyway still completes). */
  cancel(taskId: string): void {
    const entry = this.#entry(taskId);
    if (!TERMINAL.has(entry.task.status)) entry.controller.abort("cancelled by the client");
  }

  /** Calls `listener` with the full task after every change; returns the unsubscribe function. */
  onChange(listener: (task: DetailedTask) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops every running task (the server is going away). */
  close(): void {
    for (const entry of this.#tasks.values()) entry.controller.abort("the server closed");
  }

  async #run(entry: Entry, work: TaskWork): Promise<void> {
    const { signal } = entry.controller;
    const run: TaskRun = {
      signal,
      progress: (message) => {
        entry.workingMessage = message;
        if (entry.task.status === "working") this.#set(entry, { statusMessage: message });
      },
      ask: (key, request, statusMessage = "Waiting for an answer.") => {
        if (entry.usedKeys.has(key)) throw new Error(`input request key "${key}" was used already`);
        signal.throwIfAborted();
        entry.usedKeys.add(key);
        return new Promise((resolve, reject) => {
          const onAbort = () => {
            entry.waiting.delete(key);
            reject(signal.reason);
          };
          signal.addEventListener("abort", onAbort, { once: true });
          entry.waiting.set(key, (response) => {
            signal.removeEventListener("abort", onAbort);
            resolve(response);
          });
          this.#set(entry, {
            status: "input_required",
            statusMessage,
            inputRequests: { ...entry.task.inputRequests, [key]: request },
          });
        });
      },
    };
    try {
      const result = await work(run);
      this.#finish(entry, { status: "completed", statusMessage: "Done.", result });
    } catch (error) {
      if (signal.aborted) {
        this.#finish(entry, { status: "cancelled", statusMessage: "Cancelled." });
      } else if (error instanceof ProtocolError) {
        this.#finish(entry, {
          status: "failed",
          statusMessage: error.message,
          error: {
            code: error.code,
            message: error.message,
            ...error.data === undefined ? {} : { data: error.data },
          },
        });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        this.#finish(entry, {
          status: "failed",
          statusMessage: message,
          error: { code: ProtocolErrorCode.InternalError, message },
        });
      }
    }
  }

  #finish(entry: Entry, change: Partial<DetailedTask>): void {
    entry.waiting.clear();
    this.#set(entry, { inputRequests: undefined, ...change });
  }

  #set(entry: Entry, change: Partial<DetailedTask>): void {
    if (TERMINAL.has(entry.task.status)) return;
    const task: DetailedTask = {
      ...entry.task,
      ...change,
      lastUpdatedAt: new Date(this.#now()).toISOString(),
    };
    if (task.status !== "input_required") delete task.inputRequests;
    for (const key of Object.keys(task) as (keyof DetailedTask)[]) {
      if (task[key] === undefined) delete task[key];
    }
    entry.task = task;
    for (const listener of this.#listeners) {
      try {
        listener(structuredClone(task));
      } catch {
        // A listener's trouble (a closed stream) is not the task's.
      }
    }
  }

  #entry(taskId: string): Entry {
    this.#sweep();
    const entry = this.#tasks.get(taskId);
    if (!entry) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Failed to retrieve task: no task "${taskId}" (unknown or expired)`,
      );
    }
    return entry;
  }

  /** Forgets tasks past their time to live, stopping any that still run. */
  #sweep(): void {
    const now = this.#now();
    for (const [taskId, entry] of this.#tasks) {
      if (now - entry.createdMs < this.#ttlMs) continue;
      entry.controller.abort("the task expired");
      this.#tasks.delete(taskId);
    }
  }
}

/** Whether this request's client declared the tasks extension (2026-07-28 `_meta` envelope). */
export function declaresTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as
    | { extensions?: Record<string, unknown> }
    | undefined;
  const declared = capabilities?.extensions?.[TASKS_EXTENSION_ID];
  return typeof declared === "object" && declared !== null && !Array.isArray(declared);
}

/** The -32021 error the spec asks for when a client that did not declare tasks uses them. */
export function missingTasksCapability(): ProtocolError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } },
    "Missing required client capability: the io.modelcontextprotocol/tasks extension",
  );
}

const taskIdParams = z.object({ taskId: z.string() });
const updateParams = z.looseObject({
  taskId: z.string(),
  inputResponses: z.record(z.string(), z.unknown()).optional(),
});
const anyResult = z.looseObject({});

/**
 * Declares the extension on `server` and answers `tasks/get`, `tasks/update` and `tasks/cancel`
 * from `store`. Call it only for servers that serve 2026-07-28 (the 2025 era has its own tasks).
 */
export function registerTaskMethods(server: McpServer, store: TaskStore): void {
  server.server.registerCapabilities({ extensions: { [TASKS_EXTENSION_ID]: {} } });
  const requireTasks = (ctx: ServerContext) => {
    if (!declaresTasks(ctx)) throw missingTasksCapability();
  };
  server.server.setRequestHandler("tasks/get", { params: taskIdParams, result: anyResult }, (
    { taskId },
    ctx,
  ) => {
    requireTasks(ctx);
    return { ...store.get(taskId) };
  });
  server.server.setRequestHandler("tasks/update", { params: updateParams, result: anyResult }, (
    params,
    ctx,
  ) => {
    requireTasks(ctx);
    // The SDK lifts `inputResponses` out of the params, as it does for a retried request.
    store.update(params.taskId, ctx.mcpReq.inputResponses ?? params.inputResponses ?? {});
    return {};
  });
  server.server.setRequestHandler("tasks/cancel", { params: taskIdParams, result: anyResult }, (
    { taskId },
    ctx,
  ) => {
    requireTasks(ctx);
    store.cancel(taskId);
    return {};
  });
}
