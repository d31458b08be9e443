/** Model profiles to AI SDK language models: the one module that knows the provider packages. */
import { createAnthropic } from "@ai-sdk/anthropic";
import { createAzure } from "@ai-sdk/azure";
import { createGoogle } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { JSONObject, LanguageModelV4 } from "@ai-sdk/provider";
import { createOllama } from "ollama-ai-provider-v2";
import type { EnvLookup } from "../config/env_refs.ts";
import type { LlmProfile } from "../config/schema.ts";
import { connectionOf, usesAzureDeployments } from "./connection.ts";
import { createDemoModel } from "./demo_model.ts";

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

function modelOf(profile: LlmProfile, setup: ProviderSetup): LanguageModelV4 {
  switch (profile.provider) {
    case "hosted-a": {
      const openai = createOpenAI(setup);
      return profile.useChatApi ? openai.chat(profile.model) : openai.responses(profile.model);
    }
    case "hosted-b":
      return createAnthropic(setup)(profile.model);
    case "hosted-c":
      return createGoogle(setup)(profile.model);
    case "cloud-d": {
      const classic = usesAzureDeployments(profile);
      const azure = createAzure({
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
      return createOllama(rest)(profile.model);
    }
    case "compatible-api":
      return createOpenAICompatible({
        ...setup,
        name: profile.id,
        apiKey: setup.apiKey || undefined,
        includeUsage: true,
      }).chatModel(profile.model);
  }
}
