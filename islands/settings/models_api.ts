/** Typed calls of `POST /api/llm/test` and `POST /api/llm/models`, and the provider presets. */
import type { ProviderPreset } from "../../wire/bootstrap.ts";
import { api, bootstrap } from "../state.ts";
import type { RecordDraft } from "./kit.tsx";

/** The answer of `POST /api/llm/test` (docs/models.md). */
export interface ProfileProbe {
  ok: boolean;
  latencyMs: number;
  /** The model's answer to "Reply with the single word OK." */
  text?: string;
  /** Why it failed, one sentence. */
  error?: string;
}

/** One model of `POST /api/llm/models`. */
export interface ListedModel {
  id: string;
  name?: string;
  created?: string;
  ownedBy?: string;
  size?: number;
}

/** The answer of `POST /api/llm/models`: the vendor's list, or `[]` and a sentence. */
export interface ModelList {
  models: ListedModel[];
  error?: string;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * A draft as the routes take it: they check the whole record, so an unsaved draft without a
 * usable id or name gets stand-ins (the test does not depend on them).
 */
export function testableProfile(draft: RecordDraft): Record<string, unknown> {
  const id = ID.test(draft.id) ? draft.id : "draft";
  const name = typeof draft.name === "string" && draft.name.trim() !== "" ? draft.name : id;
  return { ...draft, id, name };
}

/** Runs one tiny generation with a profile (saved or not). */
export function testProfile(profile: Record<string, unknown>): Promise<ProfileProbe> {
  return api().json<ProfileProbe>("POST", "/api/llm/test", { profile });
}

/** The models the profile's vendor lists. */
export function listModels(profile: Record<string, unknown>): Promise<ModelList> {
  return api().json<ModelList>("POST", "/api/llm/models", { profile });
}

/** The presets by provider, in the order the server lists them. */
export function presets(): [string, ProviderPreset][] {
  return Object.entries(bootstrap.value?.presets ?? {});
}

/** The preset of one provider. */
export function presetOf(provider: unknown): ProviderPreset | undefined {
  return typeof provider === "string" ? bootstrap.value?.presets[provider] : undefined;
}

/** Whether Lass's environment has a non-empty value for `name` (names only ever). */
export function isDetected(name: string): boolean {
  return bootstrap.value?.env.detected.includes(name) ?? false;
}

/** The variable an `env:NAME` or `${NAME}` value reads, if it is only a reference. */
export function referencedVariable(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(value) ??
    /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
  return match?.[1];
}

/**
 * The draft after picking `provider`: fields of the old provider that were its preset's (the
 * label as name, a suggested model, the preset base URL) follow the new one; fields only the old
 * provider takes (`resourceName`, `apiVersion`, `useChatApi`) are dropped. The user's own values
 * stay.
 */
export function withProvider(draft: RecordDraft, provider: string): RecordDraft {
  const before = presetOf(draft.provider);
  const after = presetOf(provider);
  const next: RecordDraft = { ...draft, provider };
  const name = typeof draft.name === "string" ? draft.name.trim() : "";
  if (name === "" || name === before?.label) next.name = after?.label ?? name;
  const model = typeof draft.model === "string" ? draft.model : "";
  if (model === "" || before?.models?.includes(model)) next.model = after?.models?.[0] ?? "";
  if (draft.baseURL !== undefined && draft.baseURL === before?.baseURL) delete next.baseURL;
  if (provider !== "cloud-d") {
    delete next.resourceName;
    delete next.apiVersion;
  }
  if (provider !== "hosted-a" && provider !== "cloud-d") delete next.useChatApi;
  return next;
}

/** A new profile: the first provider whose key is set, else an OpenAI-compatible endpoint. */
export function blankProfile(): RecordDraft {
  const found = presets().find(([, preset]) =>
    (preset.keyEnv ?? []).some((name) => isDetected(name))
  );
  const provider = found?.[0] ?? "compatible-api";
  return withProvider({ id: "", name: "", provider, model: "" }, provider);
}
