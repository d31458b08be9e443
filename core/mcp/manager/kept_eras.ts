/**
 * The era verdicts of `auto` kept in the data dir (`cache/eras.json`) for the next start: a server
 * whose connection settings are unchanged is opened in its known era at once, without the
 * `server/discover` probe (on stdio, a whole extra process start). Only the era is kept, under a
 * SHA-256 hash of the connection settings (which may hold secrets); a verdict that no longer
 * works is dropped by the connect, which probes again, and one older than a day is not used (a
 * server updated under the same command line may speak 2026 now). Deleting the file is safe.
 */
import { type FileSystem, SerialQueue, writeFileAtomic } from "../../files.ts";

/** The cache's file name inside its folder. */
const ERAS_FILE = "eras.json";
/** How long a kept era is used before the server is probed again. */
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

/** A protocol era a connect settled on. */
export type KeptEra = "modern" | "legacy";

type Kept = Record<string, { key: string; era: KeptEra; at: number }>;

/** The kept eras of every server, read once and written on change. */
export class KeptEras {
  readonly #fs: FileSystem;
  readonly #path: string;
  readonly #writes = new SerialQueue();
  readonly #now: () => number;
  #kept?: Promise<Kept>;

  /** `dir`: the cache folder, e.g. `<dataDir>/cache`. */
  constructor(fs: FileSystem, dir: string, now: () => number = Date.now) {
    this.#fs = fs;
    this.#path = `${dir}/${ERAS_FILE}`;
    this.#now = now;
  }

  /** The era kept for this server and these connection settings, if any. */
  async get(serverId: string, settings: string): Promise<KeptEra | undefined> {
    const kept = (await (this.#kept ??= this.#read()))[serverId];
    if (kept === undefined || this.#now() - kept.at > KEPT_FOR_MS) return undefined;
    return kept.key === await hash(settings) ? kept.era : undefined;
  }

  /**
   * Keeps (or, with `undefined`, forgets) the era a probe found for these settings, in the
   * background; {@link idle} waits for the write. A connect in a kept era keeps nothing: the age
   * counts from the probe. Entries another Lass wrote meanwhile are kept.
   */
  keep(serverId: string, settings: string, era: KeptEra | undefined): void {
    this.#writes.run(async () => {
      const key = await hash(settings);
      const kept = await (this.#kept ??= this.#read());
      const same = era === undefined ? !(serverId in kept) : kept[serverId]?.key === key &&
        kept[serverId].era === era && this.#now() - kept[serverId].at <= KEPT_FOR_MS;
      if (same) return;
      const onDisk = await this.#read();
      if (era === undefined) delete onDisk[serverId];
      else onDisk[serverId] = { key, era, at: this.#now() };
      this.#kept = Promise.resolve(onDisk);
      await writeFileAtomic(this.#fs, this.#path, JSON.stringify(onDisk), {
        mode: 0o600,
        dirMode: 0o700,
      });
    }).catch(() => {
      // A cache: the next start probes again.
    });
  }

  /** Resolves once every write asked for so far is done. */
  idle(): Promise<void> {
    return this.#writes.idle();
  }

  async #read(): Promise<Kept> {
    try {
      const text = await this.#fs.readText(this.#path);
      const parsed = text === undefined ? {} : JSON.parse(text);
      const kept: Kept = {};
      for (const [id, entry] of Object.entries(parsed as Record<string, unknown>)) {
        const { key, era, at } = (entry ?? {}) as { key?: unknown; era?: unknown; at?: unknown };
        if (
          typeof key === "string" && (era === "modern" || era === "legacy") &&
          typeof at === "number"
        ) {
          kept[id] = { key, era, at };
        }
      }
      return kept;
    } catch {
      // Unreadable or not ours: nothing is kept, and the next write replaces it.
      return {};
    }
  }
}

/** The SHA-256 of the settings (`node:crypto` loads on first use: starting does not need it). */
async function hash(settings: string): Promise<string> {
  const { createHash } = await import("node:crypto");
  return createHash("sha256").update(settings).digest("hex");
}
