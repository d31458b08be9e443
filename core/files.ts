/** File access as a small interface (each runtime brings its own), atomic writes on top of it. */
import { basename, dirname, join } from "node:path";

/** Facts about a file that the stores need. */
export interface FileInfo {
  mtimeMs: number;
  size: number;
  mode: number;
  isDirectory: boolean;
}

/** One entry of a folder, as {@link FileSystem.entries} lists it (links are not followed). */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/**
 * The file operations of Lass. `core/files_node.ts` implements them on `node:fs`;
 * `runtime/deno_fs.ts` on Deno's own API (no Node compatibility layer to load at startup).
 */
export interface FileSystem {
  /** The text of a file, or `undefined` when it does not exist. */
  readText(path: string): Promise<string | undefined>;
  /** Creates a new file (failing if it exists) with this content and mode, flushed to disk. */
  writeNew(path: string, content: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Removes a file; false when there was none. */
  remove(path: string): Promise<boolean>;
  /** The names in a folder; empty when the folder does not exist. */
  list(dir: string): Promise<string[]>;
  /** The entries of a folder with their kinds; empty when the folder does not exist. */
  entries(dir: string): Promise<DirEntry[]>;
  /** Facts about a file (links followed), or `undefined` when it does not exist. */
  stat(path: string): Promise<FileInfo | undefined>;
  /** At most the first `limit` bytes of a file, or `undefined` when it does not exist. */
  readBytes(path: string, limit: number): Promise<Uint8Array | undefined>;
  realPath(path: string): Promise<string>;
  /** Creates a folder and its parents; created folders get `mode`. */
  makeDir(path: string, mode: number): Promise<void>;
  exists(path: string): boolean;
  /** Calls `onChange` with the name of each changed entry of a folder; returns a stop function. */
  watch(dir: string, onChange: (name: string | undefined) => void): () => void;
}

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
  fs: FileSystem,
  path: string,
  content: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(path);
  await fs.makeDir(folder, options.dirMode ?? 0o755);
  const temp = join(folder, `.${basename(path)}.${crypto.randomUUID().slice(0, 8)}.tmp`);
  try {
    await fs.writeNew(temp, content, options.mode ?? 0o644);
    await fs.rename(temp, path);
  } catch (error) {
    await fs.remove(temp).catch(() => false);
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
