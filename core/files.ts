/** Small file helpers shared by the config and session stores, on `node:fs` only. */
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** File mode for a new file, e.g. `0o600` for secrets. */
  mode?: number;
  /** Mode of folders that have to be created, e.g. `0o700` for private data. */
  dirMode?: number;
}

/**
 * Writes a file so that readers see either the old or the new content, never a mix:
 * a temp file in the same folder, flushed to disk, then renamed over the target.
 */
export async function writeFileAtomic(
  path: string,
  content: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(path);
  await mkdir(folder, { recursive: true, mode: options.dirMode ?? 0o755 });
  const temp = join(folder, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  const handle = await open(temp, "wx", options.mode ?? 0o644);
  try {
    await handle.writeFile(content, "utf8");
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Reads a UTF-8 file, or returns `undefined` when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** A queue that runs async tasks one at a time, in order (a per-resource write lock). */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  /** Runs `task` after every task queued before it has settled. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task, task);
    this.#tail = result.catch(() => {});
    return result;
  }

  /** Resolves once every queued task has settled. */
  idle(): Promise<void> {
    return this.#tail.then(() => {});
  }
}
