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
  /** Sets the permission bits of a file. */
  chmod(path: string, mode: number): Promise<void>;
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

/** The mode of every temp file: readable by the user only. */
export const TEMP_MODE = 0o600;

/** The name of a temp file of {@link writeFileAtomic}: `.<target name>.lass-<8 hex>.tmp`. */
export function tempFileName(target: string): string {
  return `.${target}.lass-${crypto.randomUUID().slice(0, 8)}.tmp`;
}

/**
 * Whether a file name is a temp file of {@link writeFileAtomic}, left behind when Lass was killed
 * mid-write: `.<name>.lass-<8 hex>.tmp`, or `.<name>.json.<8 hex>.tmp` as earlier versions
 * named them without the `lass-` mark (every file Lass writes atomically is a `.json`).
 * `target`, when given, is the one file name whose temp files match.
 */
export function isTempFileName(name: string, target?: string): boolean {
  const match = /^\.(.+)\.lass-[0-9a-f]{8}\.tmp$/.exec(name) ??
    /^\.(.+\.json)\.[0-9a-f]{8}\.tmp$/.exec(name);
  return match !== null && (target === undefined || match[1] === target);
}

/**
 * Writes a file so that readers see either the old or the new content, never a mix:
 * a temp file in the same folder, flushed to disk, then renamed over the target.
 * The temp file is created with mode 0600 (it may hold secrets and outlive a crash) and gets
 * the file's own mode just before the rename; {@link removeTempFiles} cleans up after a crash.
 */
export async function writeFileAtomic(
  fs: FileSystem,
  path: string,
  content: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const folder = dirname(path);
  await fs.makeDir(folder, options.dirMode ?? 0o755);
  const temp = join(folder, tempFileName(basename(path)));
  const mode = options.mode ?? 0o644;
  try {
    await fs.writeNew(temp, content, TEMP_MODE);
    if (mode !== TEMP_MODE) await fs.chmod(temp, mode);
    await fs.rename(temp, path);
  } catch (error) {
    await fs.remove(temp).catch(() => false);
    throw error;
  }
}

/**
 * Removes the temp files that writes killed midway left in a folder (see {@link isTempFileName};
 * no other file is touched), and in its subfolders down to `depth` levels (links are not
 * followed). Returns the paths removed; a file that cannot be removed is skipped.
 */
export async function removeTempFiles(
  fs: FileSystem,
  dir: string,
  options: { depth?: number; target?: string } = {},
): Promise<string[]> {
  const removed: string[] = [];
  for (const entry of await fs.entries(dir).catch(() => [])) {
    const path = join(dir, entry.name);
    if (entry.isFile && isTempFileName(entry.name, options.target)) {
      if (await fs.remove(path).catch(() => false)) removed.push(path);
    } else if (entry.isDirectory && (options.depth ?? 0) > 0) {
      removed.push(...await removeTempFiles(fs, path, { ...options, depth: options.depth! - 1 }));
    }
  }
  return removed;
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
