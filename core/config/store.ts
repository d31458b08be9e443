/** The config store: loads `service.json`, validates it, writes it atomically and follows edits on disk. */
import { basename, dirname, join } from "node:path";
import { LassError } from "../errors.ts";
import type { EventBus } from "../events.ts";
import { type FileSystem, SerialQueue, writeFileAtomic } from "../files.ts";
import { defaultConfig, SCHEMA_FILE_NAME } from "./defaults.ts";
import type { EnvLookup } from "./env_refs.ts";
import { CONFIG_JSON_SCHEMA_TEXT } from "./json_schema.ts";
import type { ValidatedConfigCache } from "./validated_cache.ts";
import type { ServiceConfig } from "../../wire/config/schema.ts";

/** The config as stored in the file: a JSON object, defaults not filled in. */
export type StoredConfig = Record<string, unknown>;

/** Options of {@link ConfigStore.open}. */
export interface ConfigStoreOptions {
  /** The config file; created with the default config when missing. */
  path: string;
  /** Environment lookup, used only to pick the default config's model profiles. */
  env: EnvLookup;
  events: EventBus;
  fs: FileSystem;
  /** Follow edits made to the file on disk; default true. */
  watch?: boolean;
  /** Quiet time after a change on disk before it is read; default 75 ms. */
  debounceMs?: number;
  /**
   * The last validated config, by the file's text: an unchanged file opens without validating
   * again (nor loading zod); every accepted config is kept in it.
   */
  cache?: ValidatedConfigCache;
}

/** Options of {@link ConfigStore.replace}. */
export interface ReplaceOptions {
  /**
   * A precondition on the config being replaced, given its {@link ConfigStore.etag} at the moment
   * of the write (changes on disk picked up first): when it answers false, nothing is written and
   * the replace throws 412 `precondition-failed`.
   */
  ifMatch?: (etag: string) => boolean;
}

/** What {@link ConfigStore.replace} wrote. */
export interface Replaced {
  stored: StoredConfig;
  /** The entity tag of the config just written. */
  etag: string;
}

/** Called after the config changed, with the new and the previous config. */
export type ConfigListener = (config: ServiceConfig, previous: ServiceConfig) => void;

/** Serialises a config the way Lass writes it: two-space JSON and a final newline. */
export function formatConfig(config: StoredConfig): string {
  return JSON.stringify(config, null, 2) + "\n";
}

function asObject(input: unknown): StoredConfig {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    throw new LassError("invalid-config", "the config must be a JSON object");
  }
  return input as StoredConfig;
}

/** Validates a whole config (the schemas, and zod, load with the first validation). */
async function validate(stored: StoredConfig): Promise<ServiceConfig> {
  const { parseConfig } = await import("./parse.ts");
  return parseConfig(stored);
}

function parseJsonObject(text: string, path: string): StoredConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LassError("invalid-config", `${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new LassError("invalid-config", `${path} must hold a JSON object`);
  }
  return asObject(value);
}

/** Owns the config file: every read and write of it goes through one store. */
export class ConfigStore {
  readonly path: string;
  /** Whether opening made the file (it did not exist): it holds the default config. */
  readonly created: boolean;
  readonly #events: EventBus;
  readonly #writes = new SerialQueue();
  readonly #listeners = new Set<ConfigListener>();
  #stored: StoredConfig;
  #config: ServiceConfig;
  #text: string;
  /** The file's text as last seen on disk, valid or not, so one bad edit is reported once. */
  #seen: string | undefined;
  #revision = 1;
  /** Tells this store's revisions from those of an earlier process, which counted from 1 too. */
  readonly #epoch = crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
  /** Set by `close`: later writes are refused, so `close` can wait for every write there is. */
  #closed = false;
  readonly #fs: FileSystem;
  readonly #cache: ValidatedConfigCache | undefined;
  #stopWatching?: () => void;
  #debounce?: ReturnType<typeof setTimeout>;

  private constructor(
    path: string,
    text: string,
    stored: StoredConfig,
    config: ServiceConfig,
    options: { events: EventBus; fs: FileSystem; created: boolean; cache?: ValidatedConfigCache },
  ) {
    this.path = path;
    this.created = options.created;
    this.#fs = options.fs;
    this.#cache = options.cache;
    this.#text = text;
    this.#seen = text;
    this.#stored = stored;
    this.#config = config;
    this.#events = options.events;
  }

  /**
   * Opens the config file, creating it (and the JSON Schema beside it) when it does not exist.
   * Throws 400 `invalid-config` with details when the file on disk is not a valid config.
   */
  static async open(options: ConfigStoreOptions): Promise<ConfigStore> {
    const { fs } = options;
    let path = options.path;
    let text = await fs.readText(path);
    const created = text === undefined;
    if (text === undefined) {
      text = formatConfig(defaultConfig(options.env) as StoredConfig);
      await writeFileAtomic(fs, path, text, { mode: 0o600 });
    }
    path = await fs.realPath(path);
    const stored = parseJsonObject(text, path);
    const cached = await options.cache?.read(text);
    const config = cached ?? await validate(stored);
    const store = new ConfigStore(path, text, stored, config, { ...options, created });
    if (!cached) store.#remember();
    await store.#writeSchemaBeside();
    if (options.watch !== false) store.#watch(options.debounceMs ?? 75);
    return store;
  }

  /** The config as the service uses it, defaults filled in. */
  get config(): ServiceConfig {
    return this.#config;
  }

  /** The config as stored in the file, unknown top-level fields included. */
  get stored(): StoredConfig {
    return this.#stored;
  }

  /** The exact text of the file as last read or written. */
  get text(): string {
    return this.#text;
  }

  /** Increases with every accepted change; lets callers cache what they derive from the config. */
  get revision(): number {
    return this.#revision;
  }

  /**
   * The strong entity tag of the config at this revision, e.g. `"r12-1x3k9f"`: it changes with
   * every accepted change (from the API or on disk) and differs between processes.
   */
  get etag(): string {
    return `"r${this.#revision}-${this.#epoch}"`;
  }

  /** Calls `listener` after every accepted change until the returned function is called. */
  subscribe(listener: ConfigListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Replaces the whole config with `input`, unknown top-level fields in it included, so two
   * concurrent replaces leave one of the two, unless they state which config they replace
   * (`options.ifMatch`). Throws 400 `invalid-config` when it is invalid and 412
   * `precondition-failed` when the precondition fails, leaving the file byte-identical.
   */
  async replace(input: unknown, options: ReplaceOptions = {}): Promise<Replaced> {
    const next = asObject(input);
    const config = await validate(next);
    const { ifMatch } = options;
    return await this.#writes.run(async () => {
      if (ifMatch && !this.#closed) {
        // An edit on disk that the watcher has not reported yet counts as a change too.
        await this.#reloadFromDisk();
        if (!ifMatch(this.etag)) {
          throw new LassError(
            "precondition-failed",
            `the config changed since it was read (it is now ${this.etag}); ` +
              "read it again and apply the change to that",
          );
        }
      }
      const stored = await this.#write(next, config);
      return { stored, etag: this.etag };
    });
  }

  /**
   * Changes the stored config with `change` (given a copy), validated and serialised with every
   * other write, so concurrent changes never lose each other.
   */
  update(change: (stored: StoredConfig) => StoredConfig): Promise<StoredConfig> {
    return this.#writes.run(async () => {
      const next = asObject(change(structuredClone(this.#stored)));
      return await this.#write(next, await validate(next));
    });
  }

  /** Stops following the file and waits for writes in progress. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#debounce);
    this.#stopWatching?.();
    this.#stopWatching = undefined;
    await this.#writes.idle();
    await this.#cache?.idle();
  }

  async #write(next: StoredConfig, config: ServiceConfig): Promise<StoredConfig> {
    if (this.#closed) throw new LassError("conflict", "the service is shutting down");
    const text = formatConfig(next);
    const mode = (await this.#fs.stat(this.path).catch(() => undefined))?.mode ?? 0o600;
    await writeFileAtomic(this.#fs, this.path, text, { mode: mode & 0o777 });
    this.#apply(text, next, config, "api");
    return next;
  }

  #apply(text: string, stored: StoredConfig, config: ServiceConfig, source: "api" | "file"): void {
    const previous = this.#config;
    this.#config = config;
    this.#stored = stored;
    this.#text = text;
    this.#seen = text;
    this.#revision++;
    this.#events.emit("config.changed", { source, revision: this.#revision });
    for (const listener of this.#listeners) listener(this.#config, previous);
    this.#remember();
  }

  /** Keeps the config in force as the validated form of the file's text. */
  #remember(): void {
    // A failed write costs the next start a validation, nothing else.
    this.#cache?.remember(
      this.#text,
      this.#config,
      (error) =>
        this.#events.emit("config.cache-error", {
          message: `cannot keep the validated config in the data dir: ${error.message}`,
        }),
    );
  }

  #watch(debounceMs: number): void {
    const name = basename(this.path);
    try {
      this.#stopWatching = this.#fs.watch(dirname(this.path), (file) => {
        if (file !== undefined && file !== name) return;
        clearTimeout(this.#debounce);
        this.#debounce = setTimeout(
          () => this.#writes.run(() => this.#reloadFromDisk()),
          debounceMs,
        );
      });
    } catch (error) {
      this.#events.emit("config.invalid", {
        path: this.path,
        message: `cannot follow edits of the config file: ${(error as Error).message}`,
      });
    }
  }

  /** Picks up an edit made on disk; an invalid file keeps the last good config and says why. */
  async #reloadFromDisk(): Promise<void> {
    let text: string | undefined;
    try {
      text = await this.#fs.readText(this.path);
    } catch (error) {
      this.#events.emit("config.invalid", {
        path: this.path,
        message: `cannot read the config file (${(error as Error).message}); ` +
          "the last good config stays in use",
      });
      return;
    }
    if (text === this.#seen) return;
    if (text === undefined) {
      this.#seen = undefined;
      this.#events.emit("config.invalid", {
        path: this.path,
        message: "the config file was removed; the last good config stays in use",
      });
      return;
    }
    try {
      const stored = parseJsonObject(text, this.path);
      this.#apply(text, stored, await validate(stored), "file");
    } catch (error) {
      const problem = error instanceof LassError ? error : new LassError("internal", String(error));
      this.#seen = text;
      this.#events.emit("config.invalid", {
        path: this.path,
        message: `${problem.message}; the last good config stays in use`,
        details: problem.details ?? [],
      });
    }
  }

  /** Keeps `service.schema.json` beside a config that points at it, so editors can check it. */
  async #writeSchemaBeside(): Promise<void> {
    if (this.#stored.$schema !== `./${SCHEMA_FILE_NAME}`) return;
    const path = join(dirname(this.path), SCHEMA_FILE_NAME);
    if (await this.#fs.readText(path) !== CONFIG_JSON_SCHEMA_TEXT) {
      await writeFileAtomic(this.#fs, path, CONFIG_JSON_SCHEMA_TEXT);
    }
  }
}
