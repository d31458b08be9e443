/** Where a model profile's requests go and how they authenticate; env references resolve here. */
import { DEMO_MARKER } from "../config/defaults.ts";
import { type EnvLookup, envRefNames, resolveEnvRef, resolveEnvRefs } from "../config/env_refs.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import { redactUrl } from "../config/redact.ts";
import { scrubSecrets, secretValues } from "../config/secrets.ts";
import { PROVIDER_PRESETS } from "./presets.ts";

/** Azure API versions named by date (`2024-10-21`) use the classic deployment URLs. */
const DATED_API_VERSION = /^\d{4}-\d{2}-\d{2}/;

/** Ollama's address from `OLLAMA_HOST` (`host`, `host:port` or a URL), as the provider's base URL. */
export function ollamaBaseUrl(host: string | undefined): string {
  if (!host) return PROVIDER_PRESETS["local-e"].baseURL!;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host : `http://${host}`;
  const url = new URL(withScheme);
  const authority = withScheme.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split("/")[0];
  if (!/:\d+$/.test(authority)) url.port = "11434";
  if (url.hostname === "0.0.0.0") url.hostname = "127.0.0.1";
  return `${url.origin}/api`;
}

/** The key a profile uses: its own `apiKey` (references resolved) or the provider's variable. */
function apiKeyOf(profile: LlmProfile, env: EnvLookup): { key: string; source: string } {
  if (profile.apiKey !== undefined) {
    return { key: resolveEnvRef(profile.apiKey, env), source: describeKeySource(profile.apiKey) };
  }
  const variables = PROVIDER_PRESETS[profile.provider].keyEnv ?? [];
  const found = variables.find((name) => (env(name) ?? "") !== "");
  return {
    key: found ? env(found)! : "",
    source: variables.length ? variables.join(" or ") : "apiKey",
  };
}

function describeKeySource(value: string): string {
  const names = envRefNames(value);
  return names.length ? names.join(", ") : "apiKey";
}

/** Where a profile's requests go and how they authenticate, env references resolved. */
export interface Connection {
  /** Base URL of the provider's API, resolved: what the SDK calls. */
  endpoint: string;
  /** The endpoint as messages may show it: credentials in the URL redacted. */
  shownEndpoint: string;
  apiKey: string;
  headers: Record<string, string>;
  /** The profile's secrets (its key, header values, URL credentials): scrubbed from error texts. */
  secrets: string[];
  /**
   * Why the profile cannot be used as it stands, found without a request: a key it needs did not
   * resolve (`no API key: OPENAI_API_KEY is not set`), an empty base URL, a bad `OLLAMA_HOST`.
   */
  problem?: string;
  /** The profile is the in-process demo model (no network). */
  demo: boolean;
}

/** Resolves a profile's endpoint, key and headers (the only place env references are read). */
export function connectionOf(profile: LlmProfile, env: EnvLookup): Connection {
  const baseURL = profile.baseURL === undefined ? "" : resolveEnvRef(profile.baseURL, env);
  const headers = profile.headers ? resolveEnvRefs(profile.headers, env) : {};
  if (profile.provider === "compatible-api" && baseURL === DEMO_MARKER) {
    const secrets = profileSecrets(profile, env, "", "");
    return {
      endpoint: DEMO_MARKER,
      shownEndpoint: DEMO_MARKER,
      apiKey: "",
      headers,
      secrets,
      demo: true,
    };
  }
  const { key, source } = apiKeyOf(profile, env);
  // A provider that needs a key, or a profile that names one, must end up with one.
  const needsKey = PROVIDER_PRESETS[profile.provider].keyEnv !== undefined ||
    profile.apiKey !== undefined;
  let problem = needsKey && key === "" ? `no API key: ${source} is not set` : undefined;
  if (profile.baseURL !== undefined && baseURL === "") {
    problem ??= `the base URL is empty: ${describeKeySource(profile.baseURL)} is not set`;
  }
  const preset = PROVIDER_PRESETS[profile.provider].baseURL;
  let endpoint = "";
  try {
    endpoint = baseURL || {
      "hosted-a": () => env("OPENAI_BASE_URL") || preset!,
      "hosted-b": () => env("ANTHROPIC_BASE_URL") || preset!,
      "hosted-c": () => preset!,
      "cloud-d": () =>
        `https://${resolveEnvRef(profile.resourceName ?? "", env)}.openai.azure.com/openai`,
      "local-e": () => ollamaBaseUrl(env("OLLAMA_HOST")),
      "compatible-api": () => "",
    }[profile.provider]();
  } catch (error) {
    problem ??= `OLLAMA_HOST is not a valid address: ${(error as Error).message}`;
  }
  endpoint = endpoint.replace(/\/+$/, "");
  const secrets = profileSecrets(profile, env, key, endpoint);
  return {
    endpoint,
    shownEndpoint: String(redactUrl(endpoint)),
    apiKey: key,
    headers,
    secrets,
    // A problem may quote a value it could not use (a bad `OLLAMA_HOST`).
    problem: problem === undefined ? undefined : scrubSecrets(problem, secrets),
    demo: false,
  };
}

/**
 * The secrets of a profile: the key it sends (its own `apiKey` or the provider's variable), what
 * its env references resolve to, its header values and the credentials of its endpoint.
 */
function profileSecrets(
  profile: LlmProfile,
  env: EnvLookup,
  key: string,
  endpoint: string,
): string[] {
  return secretValues({
    references: [profile.baseURL, profile.resourceName],
    values: [key, profile.apiKey, ...Object.values(profile.headers ?? {})],
    urls: [profile.baseURL, endpoint],
  }, env);
}

/** Whether an Azure profile uses the classic deployment URLs (an API version named by date). */
export function usesAzureDeployments(profile: LlmProfile): boolean {
  return profile.apiVersion !== undefined && DATED_API_VERSION.test(profile.apiVersion);
}
