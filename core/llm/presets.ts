/** Provider presets shown by the settings UI: label, default base URL, env keys and suggested models. */
import type { ProviderPreset } from "../../wire/bootstrap.ts";
import type { Provider } from "../../wire/config/llm_profile_schema.ts";

/** One preset per provider kind. */
export const PROVIDER_PRESETS: Readonly<Record<Provider, ProviderPreset>> = {
  "hosted-a": {
    label: "OpenAI",
    baseURL: "https://api.openai.com/v1",
    envKeys: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
    keyEnv: ["OPENAI_API_KEY"],
    models: ["gpt-5.1", "gpt-5-mini", "gpt-5-nano", "gpt-4.1"],
  },
  "hosted-b": {
    label: "Anthropic",
    baseURL: "https://api.anthropic.com/v1",
    envKeys: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
    keyEnv: ["ANTHROPIC_API_KEY"],
    models: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"],
  },
  "hosted-c": {
    label: "Google Gemini",
    baseURL: "https://generativelanguage.googleapis.com/v1beta",
    envKeys: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"],
    keyEnv: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"],
    models: ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.5-flash-lite"],
  },
  "cloud-d": {
    label: "Azure OpenAI",
    envKeys: ["AZURE_API_KEY", "AZURE_RESOURCE_NAME"],
    keyEnv: ["AZURE_API_KEY"],
    models: ["gpt-5-mini", "gpt-4.1"],
  },
  "local-e": {
    label: "Ollama",
    baseURL: "http://127.0.0.1:11434/api",
    envKeys: ["OLLAMA_HOST"],
    models: ["llama3.2", "qwen3", "gpt-oss:20b"],
  },
  "compatible-api": {
    label: "OpenAI-compatible endpoint",
    envKeys: [],
  },
};

/** The names of the presets' environment variables that are set (never their values). */
export function detectedEnvKeys(lookup: (name: string) => string | undefined): string[] {
  const names = Object.values(PROVIDER_PRESETS).flatMap((preset) => preset.envKeys);
  return [...new Set(names)].filter((name) => (lookup(name) ?? "") !== "");
}
