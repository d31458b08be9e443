/** Model profiles to AI SDK language models: the one module that knows the provider packages. */
import type { JSONObject, LanguageModelV4 } from "@ai-sdk/provider";
import type { EnvLookup } from "../config/env_refs.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import { connectionOf, usesAzureDeployments } from "./connection.ts";
import { createDemoModel } from "./demo/model.ts";

/** Provider options as the AI SDK takes them: per provider name, a JSON object. */
export type ProviderOptions = Record<string, JSONObject>;

/** Call settings for `streamText` / `generateText`, already mapped to what the provider reads. */
export interface CallSettings {
  temperature?: number;
  maxOutputTokens?: number;
  providerOptions?: ProviderOptions;
}

/** A profile made ready to call: the model, its settings, and what error messages need. */
export interface ResolvedModel {
  model: LanguageModelV4;
  settings: CallSettings;
  /** Where requests go, as messages may show it (credentials redacted). */
  shownEndpoint: string;
  /** The profile's secrets (a failure context's `secrets`): never shown in a message. */
  secrets: string[];
  /** Why the profile cannot be used as it stands (see `Connection.problem`). */
  problem?: string;
  demo: boolean;
}

// The providers report warnings (e.g. an unsupported setting) on every call to stderr; Lass
// passes them on where they matter instead.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** Ollama reads sampling settings from `options`, not from the top-level fields the SDK sends. */
function ollamaSettings(profile: LlmProfile): CallSettings {
  const all = (profile.providerOptions ?? {}) as ProviderOptions;
  const given = all.ollama ?? {};
  const options = { ...(given.options as JSONObject | undefined) };
  if (profile.temperature !== undefined) options.temperature ??= profile.temperature;
  if (profile.maxOutputTokens !== undefined) options.num_predict ??= profile.maxOutputTokens;
  const ollama = Object.keys(options).length ? { ...given, options } : given;
  return { providerOptions: { ...all, ollama } };
}

/** Builds the language model and call settings of a profile. */
export function resolveModel(
  profile: LlmProfile,
  env: EnvLookup,
  options: { fetch?: typeof fetch } = {},
): ResolvedModel {
  const connection = connectionOf(profile, env);
  const { endpoint, shownEndpoint, apiKey, secrets, problem, demo } = connection;
  const resolved = { settings: settingsOf(profile), shownEndpoint, secrets, problem, demo };
  if (demo) return { ...resolved, model: createDemoModel(profile.model) };
  const common = { headers: connection.headers, fetch: options.fetch, baseURL: endpoint };
  return { ...resolved, model: modelOf(profile, { ...common, apiKey }) };
}

/** Resolved models of configured profiles; a config change brings new profile objects. */
const resolvedModels = new WeakMap<LlmProfile, { env: EnvLookup; resolved: ResolvedModel }>();

/**
 * {@link resolveModel} for a profile of the running config: built once per profile object (a
 * provider's model builds its response schemas, about a millisecond), so every chat turn and
 * sampling request after the first reuses it.
 */
export function configuredModel(profile: LlmProfile, env: EnvLookup): ResolvedModel {
  const cached = resolvedModels.get(profile);
  if (cached?.env === env) return cached.resolved;
  const resolved = resolveModel(profile, env);
  if (!resolved.problem) resolvedModels.set(profile, { env, resolved });
  return resolved;
}

function settingsOf(profile: LlmProfile): CallSettings {
  if (profile.provider === "local-e") return ollamaSettings(profile);
  return {
    temperature: profile.temperature,
    maxOutputTokens: profile.maxOutputTokens,
    providerOptions: profile.providerOptions as ProviderOptions | undefined,
  };
}

interface ProviderSetup {
  baseURL: string;
  apiKey: string;
  headers: Record<string, string>;
  fetch?: typeof fetch;
}

/** Builds a profile's model with its provider package (loaded on first use). */
async function loadModel(profile: LlmProfile, setup: ProviderSetup): Promise<LanguageModelV4> {
  switch (profile.provider) {
    case "hosted-a": {
      const openai = (await import("@ai-sdk/openai")).createOpenAI(setup);
      return profile.useChatApi ? openai.chat(profile.model) : openai.responses(profile.model);
    }
    case "hosted-b":
      return (await import("@ai-sdk/anthropic")).createAnthropic(setup)(profile.model);
    case "hosted-c":
      return (await import("@ai-sdk/google")).createGoogle(setup)(profile.model);
    case "cloud-d": {
      const classic = usesAzureDeployments(profile);
      const azure = (await import("@ai-sdk/azure")).createAzure({
        ...setup,
        apiVersion: profile.apiVersion,
        useDeploymentBasedUrls: classic,
      });
      return classic || profile.useChatApi
        ? azure.chat(profile.model)
        : azure.responses(profile.model);
    }
    case "local-e": {
      const { apiKey: _unused, ...rest } = setup;
      return (await import("ollama-ai-provider-v2")).createOllama(rest)(profile.model);
    }
    case "compatible-api":
      return (await import("@ai-sdk/openai-compatible")).createOpenAICompatible({
        ...setup,
        name: profile.id,
        apiKey: setup.apiKey || undefined,
        includeUsage: true,
      }).chatModel(profile.model);
  }
}

/** The provider name a profile's model reports before its package has loaded. */
const PROVIDER_NAMES: Record<LlmProfile["provider"], (profile: LlmProfile) => string> = {
  "hosted-a": (profile) => `openai.${profile.useChatApi ? "chat" : "responses"}`,
  "hosted-b": () => "anthropic.messages",
  "hosted-c": () => "google.generative-ai",
  "cloud-d": () => "azure",
  "local-e": () => "ollama",
  "compatible-api": (profile) => `${profile.id}.chat`,
};

/**
 * A profile's model whose provider package loads on its first use (a chat on the demo model, or
 * a command that never calls a model, loads none of the six): the AI SDK awaits `supportedUrls`
 * before every call, and from then on the loaded model answers everything.
 */
function modelOf(profile: LlmProfile, setup: ProviderSetup): LanguageModelV4 {
  let loaded: LanguageModelV4 | undefined;
  let loading: Promise<LanguageModelV4> | undefined;
  const model = () =>
    loading ??= loadModel(profile, setup).then((ready) => (loaded = ready), (error) => {
      loading = undefined;
      throw error;
    });
  return {
    specificationVersion: "v4",
    get provider() {
      return loaded?.provider ?? PROVIDER_NAMES[profile.provider](profile);
    },
    modelId: profile.model,
    get supportedUrls() {
      return loaded?.supportedUrls ?? model().then((ready) => ready.supportedUrls);
    },
    doGenerate: async (options) => await (await model()).doGenerate(options),
    doStream: async (options) => await (await model()).doStream(options),
  };
}
