/**
 * The files pins live in: the lock file (`lass.lock.json`, beside the config by default, written
 * by `lass check --lock`) and the first definitions seen of each server, kept in the data dir
 * (`pins/<serverId>.json`). Both are JSON with sorted keys, written atomically.
 */
import { dirname, join } from "node:path";
import { type FileSystem, writeFileAtomic } from "../../files.ts";
import type { LockFile, PinnedServer } from "../../../wire/pinning.ts";

/** The lock file's name. */
export const LOCK_FILE_NAME = "lass.lock.json";

/** The lock file of a config: beside it. */
export function defaultLockPath(configPath: string): string {
  return join(dirname(configPath), LOCK_FILE_NAME);
}

/** Why a pin file cannot be read: its path and the problem. */
export class PinFileError extends Error {}

/** Reads a pin file of `kind` (its schema, and zod, load with the first file read). */
async function parse(kind: "lock" | "server", path: string, text: string): Promise<unknown> {
  const { LockFileSchema, PinnedServerSchema } = await import("./pin_schemas.ts");
  const schema = kind === "lock" ? LockFileSchema : PinnedServerSchema;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PinFileError(`${path} is not JSON: ${(error as Error).message}`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new PinFileError(
      `${path} is not a Lass lock file: ${issue.path.join(".")} ${issue.message}`,
    );
  }
  return result.data;
}

/** Pins as stored text: keys in a stable order, two-space indents, a final newline. */
function stored(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

/** The lock file at `path`, or `undefined` when there is none; a {@link PinFileError} when unreadable. */
export async function readLock(fs: FileSystem, path: string): Promise<LockFile | undefined> {
  const text = await fs.readText(path);
  return text === undefined ? undefined : await parse("lock", path, text) as LockFile;
}

/** Writes a lock file (servers by id, in id order). */
export async function writeLock(fs: FileSystem, path: string, lock: LockFile): Promise<void> {
  const servers = Object.fromEntries(
    Object.keys(lock.servers).sort().map((id) => [id, lock.servers[id]]),
  );
  await writeFileAtomic(fs, path, stored({ lockfileVersion: 1, servers }));
}

/** The first definitions seen of each server, one file per server in the data dir. */
export class FirstSeenPins {
  readonly #fs: FileSystem;
  readonly #dir: string;

  constructor(fs: FileSystem, dir: string) {
    this.#fs = fs;
    this.#dir = dir;
  }

  #path(serverId: string): string {
    return join(this.#dir, `${serverId}.json`);
  }

  /** The pins kept for a server, or `undefined` when none are (or the file is unreadable). */
  async read(serverId: string): Promise<PinnedServer | undefined> {
    const path = this.#path(serverId);
    const text = await this.#fs.readText(path);
    if (text === undefined) return undefined;
    return await parse("server", path, text) as PinnedServer;
  }

  /** Keeps a server's pins (replacing the ones kept). */
  async write(serverId: string, pins: PinnedServer): Promise<void> {
    await writeFileAtomic(this.#fs, this.#path(serverId), stored(pins), {
      mode: 0o600,
      dirMode: 0o700,
    });
  }
}
