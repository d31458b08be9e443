/** Redaction of literal secrets in a stored config, for `GET /api/config/export?redact=1`. */
import { hasEnvRef } from "../../wire/config/env_refs.ts";

/** The marker that replaces a redacted value. */
export const REDACTED = "<redacted>";

const SECRET_QUERY_NAME = /key|token|secret|passw|auth|sig|credential/i;

type Json = Record<string, unknown>;

const REF = /\$\{[A-Za-z_][A-Za-z0-9_]*\}/g;
const PURE_REF = /^(env:[A-Za-z_][A-Za-z0-9_]*|(\$\{[A-Za-z_][A-Za-z0-9_]*\})+)$/;
/** What may stand beside references in a header without being a secret: an auth scheme. */
const AUTH_SCHEME = /^\s*(bearer|basic|token|apikey)?\s*$/i;

/** Whether a value holds no literal secret: only env references, at most after an auth scheme. */
function isReferenceOnly(value: string): boolean {
  return PURE_REF.test(value) || (hasEnvRef(value) && AUTH_SCHEME.test(value.replace(REF, "")));
}

/** A value with a literal secret in it becomes `<redacted>`; references stay as written. */
function redactValue(value: unknown): unknown {
  return typeof value === "string" && value !== "" && !isReferenceOnly(value) ? REDACTED : value;
}

function redactMap(map: unknown): unknown {
  if (map === null || typeof map !== "object" || Array.isArray(map)) return map;
  return Object.fromEntries(Object.entries(map).map(([key, value]) => [key, redactValue(value)]));
}

/**
 * Redacts the user info and secret-looking query values of a URL (literal or with references);
 * parts made only of references stay, and so does everything else.
 */
export function redactUrl(value: unknown): unknown {
  if (typeof value !== "string" || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  const hashAt = value.indexOf("#");
  const hash = hashAt < 0 ? "" : value.slice(hashAt);
  const beforeHash = hashAt < 0 ? value : value.slice(0, hashAt);
  const queryAt = beforeHash.indexOf("?");
  const base = (queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt)).replace(
    /^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i,
    (whole, scheme: string, userInfo: string) =>
      userInfo.split(":").every((part) => part === "" || PURE_REF.test(part))
        ? whole
        : `${scheme}${REDACTED}@`,
  );
  if (queryAt < 0) return base + hash;
  const query = beforeHash.slice(queryAt + 1).split("&").map((pair) => {
    const [name, ...rest] = pair.split("=");
    const param = rest.join("=");
    const secret = rest.length > 0 && SECRET_QUERY_NAME.test(name) && !PURE_REF.test(param);
    return secret ? `${name}=${REDACTED}` : pair;
  });
  return `${base}?${query.join("&")}${hash}`;
}

/** A command-line flag whose value is a secret: `--api-key`, `--token`, `-password`... */
const SECRET_FLAG = /^--?[\w.-]*(key|token|secret|passw|auth|credential)[\w.-]*$/i;

/** One command-line argument, read as the value of the flag before it or in it. */
export interface ArgReading {
  /** The flag: `--token` of `--token=abc`, else the argument before (or ""). */
  flag: string;
  /** The part after `=` of `--token=abc`, else the whole argument. */
  value: string;
  /** Flag and value are one argument (`--token=abc`). */
  inline: boolean;
  /** The value is a secret flag's (`--token abc`, `--token=abc`; not `--token --verbose`). */
  secret: boolean;
}

/**
 * Reads argument `index` of a command line. The one rule for secrets in `args`, shared by the
 * redacted config export and the export targets.
 */
export function readArg(args: readonly string[], index: number): ArgReading {
  const arg = args[index];
  const inline = /^(--?[\w.-]+)=(.*)$/s.exec(arg);
  const flag = inline?.[1] ?? (index > 0 ? args[index - 1] : "");
  const value = inline ? inline[2] : arg;
  const secret = SECRET_FLAG.test(flag) && !(inline === null && value.startsWith("-"));
  return { flag, value, inline: inline !== null, secret };
}

/** Command-line arguments with secret flags' literal values and URL credentials redacted. */
function redactArgs(args: unknown): unknown {
  if (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")) return args;
  return args.map((arg, index) => {
    const reading = readArg(args, index);
    if (!reading.secret) return redactUrl(arg);
    const value = redactValue(reading.value);
    return reading.inline ? `${reading.flag}=${value}` : value;
  });
}

function mapRecords(list: unknown, fn: (record: Json) => Json): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((record) =>
    record !== null && typeof record === "object" ? fn({ ...record as Json }) : record
  );
}

/** An `oauth` object with its literal client secrets (its own, its identity provider's) redacted. */
function redactOAuth(oauth: Json): Json {
  const idp = oauth.identityProvider;
  return {
    ...oauth,
    ...("clientSecret" in oauth && { clientSecret: redactValue(oauth.clientSecret) }),
    ...(idp !== null && typeof idp === "object" && "clientSecret" in idp && {
      identityProvider: { ...idp as Json, clientSecret: redactValue((idp as Json).clientSecret) },
    }),
  };
}

/**
 * Returns a copy of a stored config with literal API keys, header values (telemetry's too), env
 * values, secret flags' values in `args`, OAuth client secrets and URL credentials replaced by
 * `<redacted>`.
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
      ...("args" in server && { args: redactArgs(server.args) }),
      ...("url" in server && { url: redactUrl(server.url) }),
      ...(oauth !== null && typeof oauth === "object" && { oauth: redactOAuth(oauth as Json) }),
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
  const otlp = (config.telemetry as Json | undefined)?.otlp;
  if (otlp !== null && typeof otlp === "object") {
    const record = otlp as Json;
    out.telemetry = {
      ...config.telemetry as Json,
      otlp: {
        ...record,
        ...("endpoint" in record && { endpoint: redactUrl(record.endpoint) }),
        ...("headers" in record && { headers: redactMap(record.headers) }),
      },
    };
  }
  return out;
}
