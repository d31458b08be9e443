/**
 * The last config that passed validation, kept in the data dir (`cache/config.json`) with a key
 * made of the config file's text, the config's JSON Schema and Lass's version: a start whose
 * config file is unchanged since takes the validated config from here and needs neither zod nor
 * the config's schemas before it listens (they load on first use). Any difference in the key, or
 * a cache file that cannot be read, means a full validation; the config file itself is never
 * read from or written to here.
 */
import type { ServiceConfig } from "../../wire/config/schema.ts";
import { type FileSystem, SerialQueue, writeFileAtomic } from "../files.ts";
import { VERSION } from "../version.ts";
import { CONFIG_JSON_SCHEMA_TEXT } from "./json_schema.ts";

/** The cache's file name inside its folder. */
const CACHE_FILE = "config.json";

/** The validated config for a config file's text, on disk. */
export class ValidatedConfigCache {
  readonly #fs: FileSystem;
  readonly #path: string;
  readonly #writes = new SerialQueue();

  /** `dir`: the cache folder, e.g. `<dataDir>/cache`. */
  constructor(fs: FileSystem, dir: string) {
    this.#fs = fs;
    this.#path = `${dir}/${CACHE_FILE}`;
  }

  /** The validated config kept for exactly this config text, if any. */
  async read(text: string): Promise<ServiceConfig | undefined> {
    try {
      const cached = await this.#fs.readText(this.#path);
      if (cached === undefined) return undefined;
      const entry = JSON.parse(cached) as { key?: unknown; config?: unknown };
      if (entry.key !== await keyOf(text)) return undefined;
      const config = entry.config;
      return config !== null && typeof config === "object" && !Array.isArray(config)
        ? config as ServiceConfig
        : undefined;
    } catch {
      // Unreadable or not ours: validated again, and the cache is written anew.
      return undefined;
    }
  }

  /** Keeps `config` as the validated form of `text` (in the background; {@link idle} waits). */
  remember(text: string, config: ServiceConfig, onError: (error: Error) => void): void {
    this.#writes.run(async () => {
      const entry = JSON.stringify({ key: await keyOf(text), config });
      // Holds the config's values (a literal key included): as private as the config file.
      await writeFileAtomic(this.#fs, this.#path, entry, { mode: 0o600, dirMode: 0o700 });
    }).catch((error) => onError(error as Error));
  }

  /** Resolves once every write asked for so far is done. */
  idle(): Promise<void> {
    return this.#writes.idle();
  }
}

/** The key of a config text: SHA-256 over Lass's version, the JSON Schema and the text. */
async function keyOf(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${VERSION}\n${CONFIG_JSON_SCHEMA_TEXT}\n${text}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}
