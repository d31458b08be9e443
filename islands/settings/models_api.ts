/** Typed calls of `POST /api/llm/test` and `POST /api/llm/models`, and the provider presets. */
import type { ProviderPreset } from "../../wire/bootstrap.ts";
import type { ModelList, ProfileProbe } from "../../wire/models.ts";
import { api, bootstrap } from "../state.ts";
import { type RecordDraft, withStandIns } from "./form.tsx";

/** Runs one tiny generation with a profile (saved or a draft). */
export function testProfile(profile: RecordDraft): Promise<ProfileProbe> {
  return api().json<ProfileProbe>("POST", "/api/llm/test", { profile: withStandIns(profile) });
}

/** The models the profile's vendor lists. */
export function listModels(profile: RecordDraft): Promise<ModelList> {
  return api().json<ModelList>("POST", "/api/llm/models", { profile: withStandIns(profile) });
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
