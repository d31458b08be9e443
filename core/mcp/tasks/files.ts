/**
 * The running MCP tasks Lass follows, kept in the data dir so that the next start follows them
 * again: `tasks/<serverId>.json` per tool server, `{"tasks": [stored task...]}`, written
 * atomically (one write at a time per server, the latest state each time) and removed when the
 * server has no running task left.
 */
import { join } from "node:path";
import { type FileSystem, SerialQueue, writeFileAtomic } from "../../files.ts";
import type { TaskReference } from "./types.ts";
import type { TaskRecord } from "../../../wire/tool_tasks.ts";
import type { TaskStatus } from "../../../wire/tool_tasks.ts";

/** What is kept of one running task: enough to show it and to follow it again. */
export interface StoredTask {
  taskId: string;
  tool: string;
  /** How a session of the server follows the task again (ext-tasks' serialized reference). */
  reference: TaskReference;
  status: TaskStatus;
  message?: string;
  createdAt: string;
  updatedAt: string;
  cancelRequested?: true;
}

/** What is stored of a running task's record. */
export function storedOf(record: TaskRecord, reference: TaskReference): StoredTask {
  return {
    taskId: record.taskId,
    tool: record.tool,
    reference,
    status: record.status,
    ...(record.message !== undefined && { message: record.message }),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    ...(record.cancelRequested && { cancelRequested: true }),
  };
}

/** The record of a stored task of `serverId`. */
export function recordOf(serverId: string, task: StoredTask): TaskRecord {
  return {
    taskId: task.taskId,
    serverId,
    tool: task.tool,
    status: task.status,
    ...(task.message !== undefined && { message: task.message }),
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    ...(task.cancelRequested && { cancelRequested: true }),
  };
}

/** A server id as a file name (ids are letters, digits, `_` and `-`; anything else is skipped). */
const FILE_NAME = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63})\.json$/;

/** The task files of one data dir. */
export class TaskFiles {
  readonly #fs: FileSystem;
  readonly #dir: string;
  readonly #queues = new Map<string, SerialQueue>();
  /** Servers with a write queued that has not started yet (it writes the latest state). */
  readonly #pending = new Set<string>();

  /** `dir`: the folder of the files, e.g. `<dataDir>/tasks`. */
  constructor(fs: FileSystem, dir: string) {
    this.#fs = fs;
    this.#dir = dir;
  }

  /**
   * Every stored task, by server id. A file that cannot be read or is not a task file is skipped
   * (and left as it is).
   */
  async load(): Promise<Map<string, StoredTask[]>> {
    const stored = new Map<string, StoredTask[]>();
    for (const name of await this.#fs.list(this.#dir).catch(() => [])) {
      const serverId = FILE_NAME.exec(name)?.[1];
      if (!serverId) continue;
      const path = join(this.#dir, name);
      try {
        const text = await this.#fs.readText(path);
        if (text === undefined) continue;
        // The schema (and zod) loads only when there is a file to read.
        const { TaskFileSchema } = await import("./stored_schema.ts");
        const parsed = TaskFileSchema.safeParse(JSON.parse(text));
        if (parsed.success) stored.set(serverId, parsed.data.tasks as StoredTask[]);
      } catch {
        // Not a task file of this version of Lass: left alone.
      }
    }
    return stored;
  }

  /**
   * Writes a server's file soon, with what `current` gives then (no file when it gives none).
   * Writes of one server run one at a time; a failed one goes to `onError`.
   */
  save(
    serverId: string,
    current: () => StoredTask[],
    onError: (error: Error) => void = () => {},
  ): void {
    if (this.#pending.has(serverId)) return;
    this.#pending.add(serverId);
    let queue = this.#queues.get(serverId);
    if (!queue) this.#queues.set(serverId, queue = new SerialQueue());
    queue.run(async () => {
      this.#pending.delete(serverId);
      const tasks = current();
      const path = join(this.#dir, `${serverId}.json`);
      if (tasks.length === 0) await this.#fs.remove(path);
      else {
        await writeFileAtomic(this.#fs, path, `${JSON.stringify({ tasks }, null, 2)}\n`, {
          mode: 0o600,
          dirMode: 0o700,
        });
      }
    }).catch((error) => onError(error as Error));
  }

  /** Resolves once every write asked for so far is done. */
  async idle(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.idle()));
  }
}
