/** The catalogs of the config, loaded on first use and again when their records change. */
import { dirname } from "node:path";
import type { EnvLookup } from "../config/env_refs.ts";
import type { ConfigStore } from "../config/store.ts";
import type { EventBus } from "../events.ts";
import type { FileSystem } from "../files.ts";
import type { PathBase } from "../skills/paths.ts";
import type { CatalogSummary } from "../../wire/catalogs.ts";
import { type LoadedCatalog, summaryOf } from "./catalog.ts";
import type { CatalogRecord, LoadDeps } from "./load.ts";

/** What a {@link CatalogRegistry} needs. */
export interface CatalogRegistryOptions {
  config: ConfigStore;
  events: EventBus;
  fs: FileSystem;
  env: EnvLookup;
  /** The home folder `~` stands for. */
  home: string;
  /** Fetch for URL catalogs (tests may pass their own); default the global one. */
  fetch?: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
}

/**
 * Holds the standard catalog and the loaded `catalogs[]` of the config. Nothing is loaded at
 * startup (the A2UI package and URL fetches cost time): the first {@link list} loads them all
 * (the standard catalog from its committed view; the A2UI package only for configured ones), a
 * change of the catalog records makes the next one load them again, and {@link reload} forces
 * it (after a catalog file or URL changed). A broken catalog carries its errors and never keeps
 * the others from loading. `revision` grows whenever what it holds changes.
 */
export class CatalogRegistry {
  readonly #config: ConfigStore;
  readonly #events: EventBus;
  readonly #deps: Omit<LoadDeps, "base"> & { home: string };
  #loaded: { key: string; catalogs: LoadedCatalog[] } | undefined;
  #loading: { key: string; promise: Promise<LoadedCatalog[]> } | undefined;
  #revision = 0;

  constructor(options: CatalogRegistryOptions) {
    this.#config = options.config;
    this.#events = options.events;
    this.#deps = {
      fs: options.fs,
      env: options.env,
      home: options.home,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
    };
  }

  /** Grows whenever the loaded catalogs change; lets callers cache. */
  get revision(): number {
    return this.#revision;
  }

  /** The standard catalog first, then each configured catalog in config order, loaded. */
  list(): Promise<LoadedCatalog[]> {
    const key = this.#key();
    if (this.#loaded?.key === key) return Promise.resolve(this.#loaded.catalogs);
    if (this.#loading?.key === key) return this.#loading.promise;
    return this.#load(key);
  }

  /** Loads every catalog again, even when the records did not change. */
  reload(): Promise<LoadedCatalog[]> {
    return this.#load(this.#key());
  }

  /** One loaded catalog by record id (`standard` for the standard catalog). */
  async get(id: string): Promise<LoadedCatalog | undefined> {
    return (await this.list()).find((catalog) => catalog.id === id);
  }

  /**
   * What bootstrap lists: id, name and errors of each configured catalog (the standard one is
   * always there and is not listed). Without configured catalogs nothing is loaded.
   */
  async summaries(): Promise<CatalogSummary[]> {
    if (this.#config.config.catalogs.length === 0) return [];
    const catalogs = await this.list();
    return catalogs.filter((catalog) => catalog.source !== "standard").map(summaryOf);
  }

  /** Loads a record that need not be in the config; nothing is kept. */
  async preview(record: CatalogRecord): Promise<LoadedCatalog> {
    const { loadCatalogRecord } = await import("./load.ts");
    return await loadCatalogRecord(record, this.#loadDeps());
  }

  #key(): string {
    return JSON.stringify(this.#config.config.catalogs);
  }

  #loadDeps(): LoadDeps {
    const base: PathBase = { baseDir: dirname(this.#config.path), home: this.#deps.home };
    return { ...this.#deps, base };
  }

  /**
   * The standard catalog (its committed view: no A2UI package loads) and the configured ones
   * (`load.ts` and `@a2ui/web_core` load only when there are any); a failure of one becomes its
   * error.
   */
  async #loadAll(records: CatalogRecord[]): Promise<LoadedCatalog[]> {
    const { standardCatalog } = await import("./standard_catalog.ts");
    if (records.length === 0) return [standardCatalog];
    let load: typeof import("./load.ts");
    try {
      load = await import("./load.ts");
    } catch (error) {
      const message = `the catalog support cannot be loaded: ${(error as Error).message}`;
      return [standardCatalog, ...records.map((record) => unusable(record, message))];
    }
    const deps = this.#loadDeps();
    const configured = await Promise.all(
      records.map((record) => load.loadCatalogRecord(record, deps)),
    );
    return [standardCatalog, ...configured];
  }

  #load(key: string): Promise<LoadedCatalog[]> {
    const records = this.#config.config.catalogs;
    const loading = { key } as { key: string; promise: Promise<LoadedCatalog[]> };
    loading.promise = (async () => {
      const catalogs = await this.#loadAll(records);
      // A newer load (the records changed meanwhile) wins.
      if (this.#loading === loading) {
        this.#loading = undefined;
        const before = this.#loaded && JSON.stringify(this.#loaded.catalogs);
        this.#loaded = { key, catalogs };
        if (before !== JSON.stringify(catalogs)) {
          this.#revision++;
          if (before !== undefined) {
            this.#events.emit("catalogs.changed", { ids: catalogs.map((c) => c.id) });
          }
        }
      }
      return catalogs;
    })();
    this.#loading = loading;
    return loading.promise;
  }
}

/** The catalog of a record that cannot be used at all. */
function unusable(record: CatalogRecord, error: string): LoadedCatalog {
  return {
    id: record.id,
    name: record.id,
    catalogId: "",
    source: record.catalog !== undefined ? "inline" : record.url !== undefined ? "url" : "path",
    components: [],
    functions: [],
    errors: [error],
    validators: () => Promise.resolve(new Map()),
  };
}
