/** An agent's `url` with its env references resolved at use, or a sentence saying what is missing. */
import { type EnvLookup, envRefNames, resolveEnvRef } from "../config/env_refs.ts";
import { secretValues } from "../config/secrets.ts";
import type { AgentConfig } from "./types.ts";

/**
 * The agent record with `url` resolved (`env:NAME` or `${NAME}` inside it). Throws an `Error`
 * with one sentence when a variable it names is not set, or when the result is not an http(s)
 * URL; the config accepts references, so this is where they are checked.
 */
export function withResolvedUrl(agent: AgentConfig, env: EnvLookup): AgentConfig {
  const missing = envRefNames(agent.url).filter((name) => (env(name) ?? "") === "");
  if (missing.length > 0) {
    const names = missing.join(", ");
    throw new Error(
      `the URL of the agent ${agent.id} refers to ${
        missing.length > 1 ? "environment variables" : "the environment variable"
      } ${names}, which ${missing.length > 1 ? "are" : "is"} not set`,
    );
  }
  const url = resolveEnvRef(agent.url, env);
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
    throw new Error(`the URL of the agent ${agent.id} is not an http or https URL`);
  }
  return url === agent.url ? agent : { ...agent, url };
}

/**
 * The secrets an agent record can put into an error text: what its URL and headers resolve to,
 * header values, URL credentials. Agent errors are scrubbed with them, as model and tool-server
 * errors are.
 */
export function agentSecrets(agent: AgentConfig, env: EnvLookup): string[] {
  const headers = Object.values(agent.headers ?? {});
  return secretValues({ references: [agent.url], values: headers, urls: [agent.url] }, env);
}
