/** The config written when no `service.json` exists: a Playground on the built-in demo model and tools. */
import type { EnvLookup } from "./env_refs.ts";
import type { Provider } from "../../wire/config/llm_profile_schema.ts";
import type { ServiceConfigInput } from "../../wire/config/schema.ts";
import { PROVIDER_PRESETS } from "../llm/presets.ts";

/** The `command` of the built-in demo tool server and the `baseURL` of the built-in demo model. */
export const DEMO_MARKER = "service:demo";

/** The `$schema` a created config file points at: the schema file written beside it. */
export const SCHEMA_FILE_NAME = "service.schema.json";

type LlmInput = NonNullable<ServiceConfigInput["llms"]>[number];

/** A profile for each provider whose API key is in the environment, referenced, never copied. */
function detectedProfiles(lookup: EnvLookup): LlmInput[] {
  const has = (name: string) => (lookup(name) ?? "") !== "";
  const profiles: LlmInput[] = [];
  /** Adds a profile when the provider's key variable is set, referring to that variable. */
  const add = (provider: Provider, id: string, extra: Partial<LlmInput> = {}) => {
    const preset = PROVIDER_PRESETS[provider];
    const key = preset.keyEnv?.find(has);
    if (preset.keyEnv && !key) return;
    profiles.push({
      id,
      name: preset.label,
      provider,
      model: preset.models?.[0] ?? "",
      ...(key && { apiKey: `env:${key}` }),
      ...extra,
    });
  };
  add("hosted-a", "openai");
  add("hosted-b", "anthropic");
  add("hosted-c", "gemini");
  if (has("AZURE_RESOURCE_NAME")) {
    add("cloud-d", "azure", { resourceName: "env:AZURE_RESOURCE_NAME" });
  }
  if (has("OLLAMA_HOST")) add("local-e", "ollama");
  return profiles;
}

/** Builds the default config for a first start, given the environment. */
export function defaultConfig(lookup: EnvLookup): ServiceConfigInput {
  const detected = detectedProfiles(lookup);
  return {
    $schema: `./${SCHEMA_FILE_NAME}`,
    version: 1,
    activeWorkspaceId: "playground",
    llms: [
      {
        id: "demo",
        name: "Demo model (no API key)",
        provider: "compatible-api",
        model: "demo",
        baseURL: DEMO_MARKER,
      },
      ...detected,
    ],
    mcpServers: [
      { id: "demo", name: "Demo tools", transport: "stdio", command: DEMO_MARKER },
    ],
    skills: [],
    agents: [],
    catalogs: [],
    workspaces: [
      {
        id: "playground",
        name: "Playground",
        llmId: "demo",
        mcpServerIds: ["demo"],
        skillIds: [],
        systemPrompt: "You are a helpful assistant. Use the tools when they help.",
        starterPrompts: [
          "What tools do you have?",
          "Add 2 and 3 with a tool",
          "Show me a small form as UI",
        ],
      },
    ],
  };
}
