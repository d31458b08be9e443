/**
 * Literal secrets in imported tool-server records (`env` values, `headers`), each with the
 * environment reference that could hold it instead, so the import can warn and offer to keep
 * secrets out of `service.json`.
 */
import type { ImportSecret } from "../../../wire/tool_servers.ts";

/** Words of a name that mark a secret: `GITHUB_TOKEN`, `x-api-key`, `clientSecret`. */
const SECRET_WORDS = new Set([
  "key",
  "apikey",
  "token",
  "secret",
  "password",
  "passwd",
  "pat",
  "credential",
  "credentials",
  "auth",
  "authorization",
  "cookie",
  "bearer",
]);

/** Values that are secrets whatever their name: well-known key and token formats. */
const SECRET_VALUE =
  /^(?:sk-|sk_(?:live|test)_|rk_(?:live|test)_|gh[pousr]_|github_pat_|glpat-|xox[abpr]-|xapp-|hf_|lin_api_|ntn_|pplx-|gsk_|r8_|AIza|AKIA[0-9A-Z]{12})/;

/** The words of a name, split at non-letters and at camelCase humps, lowercased. */
function wordsOf(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** Whether a value is written out (no `${VAR}`, no `env:NAME`) and not a path or a URL. */
function isLiteral(value: string): boolean {
  const text = value.trim();
  return text !== "" && !text.includes("${") && !text.startsWith("env:") &&
    !/^(?:[/~.]|[A-Za-z]:\\|https?:\/\/)/.test(text);
}

/** Whether `value` under `name` is a literal secret. */
function isSecret(name: string, value: string): boolean {
  if (!isLiteral(value)) return false;
  return SECRET_VALUE.test(value.trim()) || wordsOf(name).some((word) => SECRET_WORDS.has(word));
}

/** A variable name from any text: `x-api-key` → `X_API_KEY`. */
function variableOf(text: string): string {
  const name = text.toUpperCase().replace(/[^A-Z0-9_]+/g, "_").replace(/^_+|_+$/g, "");
  return /^[0-9]/.test(name) ? `_${name}` : name || "SECRET";
}

/** The record's fields that may hold literal secrets. */
interface SecretFields {
  id: string;
  env?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * Finds the literal secrets of one record. `proposed` holds the variables proposed so far with
 * their values: a name already proposed for another value gets the server's id in front.
 */
export function literalSecrets(
  server: SecretFields,
  proposed: Map<string, string>,
): Omit<ImportSecret, "warning">[] {
  const prefix = variableOf(server.id);
  const found: Omit<ImportSecret, "warning">[] = [];
  const propose = (wanted: string, value: string): string => {
    let name = wanted;
    if (proposed.has(name) && proposed.get(name) !== value) name = `${prefix}_${wanted}`;
    for (let n = 2; proposed.has(name) && proposed.get(name) !== value; n++) {
      name = `${prefix}_${wanted}_${n}`;
    }
    proposed.set(name, value);
    return name;
  };
  for (const [key, value] of Object.entries(server.env ?? {})) {
    if (!isSecret(key, value)) continue;
    const variable = propose(/^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : variableOf(key), value);
    found.push({ serverId: server.id, field: "env", key, variable, reference: `env:${variable}` });
  }
  for (const [key, value] of Object.entries(server.headers ?? {})) {
    const lower = key.toLowerCase();
    if (lower === "authorization" || lower === "proxy-authorization") {
      // `Bearer <token>`: the scheme stays, the credential moves to a variable.
      const scheme = /^(\S+)\s+(\S.*)$/.exec(value.trim());
      const credential = scheme ? scheme[2] : value.trim();
      if (!isLiteral(credential)) continue;
      const variable = propose(`${prefix}_TOKEN`, credential);
      const reference = scheme ? `${scheme[1]} \${${variable}}` : `\${${variable}}`;
      found.push({ serverId: server.id, field: "headers", key, variable, reference });
      continue;
    }
    if (!isSecret(key, value)) continue;
    const own = variableOf(key);
    const wanted = own.startsWith(`${prefix}_`) ? own : `${prefix}_${own}`;
    const variable = propose(wanted, value);
    found.push({
      serverId: server.id,
      field: "headers",
      key,
      variable,
      reference: `\${${variable}}`,
    });
  }
  return found;
}

/** The warning about one literal secret (without the server's key in front). */
export function secretWarning(secret: Omit<ImportSecret, "warning">): string {
  const where = secret.field === "env" ? `env ${secret.key}` : `header ${secret.key}`;
  return `${where} holds a literal secret, which would be copied into the config; ` +
    `${
      JSON.stringify(secret.reference)
    } reads it from ${secret.variable} in Lass's environment instead`;
}
