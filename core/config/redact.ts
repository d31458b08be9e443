/** Redaction of literal secrets in a stored config, for `GET /api/config/export?redact=1`. */
import { hasEnvRef } from "./env_refs.ts";

/** The marker that replaces a redacted value. */
export const REDACTED = "<redacted>";

const SECRET_QUERY_NAME = /key|token|secret|passw|auth|sig|credential/i;

type Json = Record<string, unknown>;

/** A literal secret becomes `<redacted>`; env references stay. */
function redactValue(value: unknown): unknown {
  return typeof value === "string" && !hasEnvRef(value) && value !== "" ? REDACTED : value;
}

function redactMap(map: unknown): unknown {
  if (map === null || typeof map !== "object" || Array.isArray(map)) return map;
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, redactValue(value)]));
}

/** Removes user info and secret-looking query values from a URL; anything else stays as written. */
export function redactUrl(value: unknown): unknown {
  if (typeof value !== "string" || hasEnvRef(value) || !URL.canParse(value)) return value;
  const hashAt = value.indexOf("#");
  const hash = hashAt < 0 ? "" : value.slice(hashAt);
  const beforeHash = hashAt < 0 ? value : value.slice(0, hashAt);
  const queryAt = beforeHash.indexOf("?");
  const base = (queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt))
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/?#]*@/i, `$1${REDACTED}@`);
  if (queryAt < 0) return base + hash;
  const query = beforeHash.slice(queryAt + 1).split("&").map((pair) => {
    const name = pair.split("=")[0];
    return pair.includes("=") && SECRET_QUERY_NAME.test(name) ? `${name}=${REDACTED}` : pair;
  });
  return `${base}?${query.join("&")}${hash}`;
}

function mapRecords(list: unknown, fn: (record: Json) => Json): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((record) =>
    record !== null && typeof record === "object" ? fn({ ...record as Json }) : record
  );
}

/**
 * Returns a copy of a stored config with literal API keys, header values, env values,
 * OAuth client secrets and URL credentials replaced by `<redacted>`.
 */
export function redactConfig(config: Json): Json {
  const out: Json = { ...config };
  out.llms = mapRecords(config.llms, (llm) => ({
    ...llm,
    ...("apiKey" in llm && { apiKey: redactValue(llm.apiKey) }),
    ...("headers" in llm && { headers: redactMap(llm.headers) }),
    ...("baseURL" in llm && { baseURL: redactUrl(llm.baseURL) }),
  }));
  out.mcpServers = mapRecords(config.mcpServers, (server) => {
    const oauth = server.oauth;
    return {
      ...server,
      ...("headers" in server && { headers: redactMap(server.headers) }),
      ...("env" in server && { env: redactMap(server.env) }),
      ...("url" in server && { url: redactUrl(server.url) }),
      ...(oauth !== null && typeof oauth === "object" && "clientSecret" in oauth &&
        { oauth: { ...oauth, clientSecret: redactValue(oauth.clientSecret) } }),
    };
  });
  out.agents = mapRecords(config.agents, (agent) => ({
    ...agent,
    ...("headers" in agent && { headers: redactMap(agent.headers) }),
    ...("url" in agent && { url: redactUrl(agent.url) }),
  }));
  out.catalogs = mapRecords(config.catalogs, (catalog) => ({
    ...catalog,
    ...("url" in catalog && { url: redactUrl(catalog.url) }),
  }));
  for (const key of ["llms", "mcpServers", "agents", "catalogs"]) {
    if (!(key in config)) delete out[key];
  }
  return out;
}
