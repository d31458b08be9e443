/** The configured skills, loaded at start and after each config change, kept for synchronous reads. */
import { dirname } from "node:path";
import type { ConfigStore } from "../config/store.ts";
import type { EventBus } from "../events.ts";
import type { FileSystem } from "../files.ts";
import type { ReadOptions, SkillFileRead } from "./bundled_files.ts";
import type { Discovery } from "./discover.ts";
import type { SkillRecord } from "./load.ts";
import { type PathBase, resolveUserPath } from "./paths.ts";
import { type LoadedSkill, summaryOf } from "./skill.ts";
import type { SkillSummary } from "../../wire/skills.ts";

/** What a {@link SkillRegistry} needs. */
export interface SkillRegistryOptions {
  config: ConfigStore;
  events: EventBus;
  fs: FileSystem;
  /** The home folder `~` stands for. */
  home: string;
}

/**
 * Holds the loaded `skills[]` of the config, checked as for chat (a malformed name is only a
 * warning). Reloads them all when the config's skills change, and one of them on demand, so a
 * chat turn sees an edited SKILL.md. `revision` grows whenever what it holds changes.
 */
export class SkillRegistry {
  readonly #config: ConfigStore;
  readonly #events: EventBus;
  readonly #fs: FileSystem;
  readonly #base: PathBase;
  #skills = new Map<string, LoadedSkill>();
  #revision = 0;
  /** Counts whole reloads, so a slow one never overwrites a newer one. */
  #generation = 0;
  #pending: Promise<void> | undefined;
  readonly #unsubscribe: () => void;

  private constructor(options: SkillRegistryOptions) {
    this.#config = options.config;
    this.#events = options.events;
    this.#fs = options.fs;
    this.#base = { baseDir: dirname(options.config.path), home: options.home };
    this.#unsubscribe = options.config.subscribe((config, previous) => {
      if (JSON.stringify(config.skills) === JSON.stringify(previous.skills)) return;
      const reload = this.#reloadAll().finally(() => {
        if (this.#pending === reload) this.#pending = undefined;
      });
      this.#pending = reload;
    });
  }

  /** Loads the configured skills and follows the config from then on. */
  static async open(options: SkillRegistryOptions): Promise<SkillRegistry> {
    const registry = new SkillRegistry(options);
    await registry.#reloadAll();
    return registry;
  }

  /** Grows whenever a skill is added, removed or loaded differently; lets callers cache. */
  get revision(): number {
    return this.#revision;
  }

  /** The reload started by the last config change, while it runs; `undefined` when idle. */
  get pending(): Promise<void> | undefined {
    return this.#pending;
  }

  /** The loaded skills, in config order. */
  list(): LoadedSkill[] {
    return [...this.#skills.values()];
  }

  /** A loaded skill by record id, as last loaded. */
  get(id: string): LoadedSkill | undefined {
    return this.#skills.get(id);
  }

  /** What bootstrap lists: id, name, description and errors of each skill. */
  summaries(): SkillSummary[] {
    return this.list().map(summaryOf);
  }

  /**
   * Reads a configured skill from disk again (a chat turn calls this, so edits of SKILL.md count)
   * and keeps the result; `undefined` when no record has this id.
   */
  async reload(id: string): Promise<LoadedSkill | undefined> {
    const record = this.#record(id);
    if (record === undefined) return undefined;
    const generation = this.#generation;
    const skill = await this.#load(record, false);
    // A config change meanwhile started a whole reload, which wins.
    if (generation === this.#generation && this.#record(id) === record) {
      const before = this.#skills.get(id);
      if (JSON.stringify(before) !== JSON.stringify(skill)) {
        this.#skills.set(id, skill);
        this.#changed([id]);
      }
    }
    return skill;
  }

  /** Loads a record that need not be in the config, checked strictly as a preview; nothing is kept. */
  preview(record: SkillRecord): Promise<LoadedSkill> {
    return this.#load(record, true);
  }

  /** Walks a folder (absolute, relative to the config's folder, or under `~`) for skills. */
  async discover(path: string): Promise<Discovery> {
    const { discoverSkills } = await import("./discover.ts");
    return await discoverSkills(this.#fs, resolveUserPath(path, this.#base));
  }

  /** Reads one bundled file of a loaded skill, confined to its folder; inline skills have none. */
  async readFile(
    skill: LoadedSkill,
    path: string,
    options?: ReadOptions,
  ): Promise<SkillFileRead> {
    if (skill.root === undefined) {
      return {
        ok: false,
        error: `the skill ${skill.name} is written inline in the config and has no files`,
      };
    }
    const { readSkillFile } = await import("./bundled_files.ts");
    return await readSkillFile(this.#fs, skill.root, path, options);
  }

  /** Stops following the config. */
  close(): void {
    this.#unsubscribe();
  }

  #record(id: string): SkillRecord | undefined {
    return this.#config.config.skills.find((record) => record.id === id);
  }

  /** Loads a record; the parser (and `yaml`) load with the first skill, not at startup. */
  async #load(record: SkillRecord, strictName: boolean): Promise<LoadedSkill> {
    const { loadSkill } = await import("./load.ts");
    return await loadSkill(record, { fs: this.#fs, base: this.#base, strictName });
  }

  async #reloadAll(): Promise<void> {
    const generation = ++this.#generation;
    const records = this.#config.config.skills;
    const loaded = await Promise.all(records.map((record) => this.#load(record, false)));
    if (generation !== this.#generation) return;
    const next = new Map(loaded.map((skill) => [skill.id, skill]));
    const changed = [...new Set([...this.#skills.keys(), ...next.keys()])].filter((id) =>
      JSON.stringify(this.#skills.get(id)) !== JSON.stringify(next.get(id))
    );
    const first = this.#revision === 0;
    this.#skills = next;
    // The records changed (maybe only their order), so the revision always moves.
    this.#revision++;
    if (!first && changed.length > 0) this.#events.emit("skills.changed", { ids: changed });
  }

  #changed(ids: string[]): void {
    this.#revision++;
    this.#events.emit("skills.changed", { ids });
  }
}
