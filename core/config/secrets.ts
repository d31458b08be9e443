/**
 * The secret values a config record brings with it (resolved env references, literal keys and
 * header values, URL credentials), so error texts from a provider or a tool server never show them.
 */
import { type EnvLookup, envRefNames, resolveEnvRef } from "./env_refs.ts";
import { REDACTED } from "./redact.ts";

/** Values shorter than this are not scrubbed: they would blank out ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** Names (of variables, query parameters) that hold a secret: `GITHUB_TOKEN`, `api_key`; not `LANG`. */
const SECRET_NAME = /key|token|secret|passw|auth|credential|sig|cookie/i;

/** Where a record's secrets are. Every value may hold env references; they are resolved here. */
export interface SecretSources {
  /** Config values whose env references resolve to secrets (the literal text stays shown). */
  references?: readonly (string | undefined)[];
  /** Values that are secret as they stand once resolved: an `apiKey`, a header value. */
  values?: readonly (string | undefined)[];
  /** URLs whose user info and secret-named query values are secret. */
  urls?: readonly (string | undefined)[];
  /** Variables whose values are secret (those named like keys are picked by the caller). */
  variables?: readonly string[];
}

/** Whether a variable or parameter name looks like it holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** The credentials of one URL: user name, password, secret-named query values (raw and decoded). */
function urlSecrets(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL the platform reads: take the user info by hand.
    const userInfo = /^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i.exec(url)?.[1];
    return userInfo ? [userInfo, ...userInfo.split(":")] : [];
  }
  const user = safeDecode(parsed.username);
  const password = safeDecode(parsed.password);
  // A client sends user info as `Authorization: Basic <base64>`, which a server may echo.
  const basic = user || password ? [basicCredential(`${user}:${password}`)] : [];
  const found = [parsed.username, parsed.password, ...basic];
  for (const [name, value] of parsed.searchParams) {
    if (isSecretName(name)) found.push(value, encodeURIComponent(value));
  }
  return found.flatMap((value) => [value, safeDecode(value)]);
}

function basicCredential(userAndPassword: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(userAndPassword)));
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** A header or key value and, for `Bearer xyz` / `Basic xyz`, the credential after the scheme. */
function valueSecrets(value: string): string[] {
  const scheme = /^\s*(?:bearer|basic|token|apikey|api-key|key|digest)\s+(\S.*)$/i.exec(value);
  return scheme ? [value, scheme[1].trim()] : [value];
}

/** Every secret value the sources name, longest first, each once. */
export function secretValues(sources: SecretSources, env: EnvLookup): string[] {
  const strings = (list?: readonly (string | undefined)[]) =>
    (list ?? []).filter((value): value is string => typeof value === "string");
  const references = [...strings(sources.references), ...strings(sources.values)];
  const names = [...references.flatMap(envRefNames), ...(sources.variables ?? [])];
  const found = [
    ...names.map((name) => env(name) ?? ""),
    ...strings(sources.values).flatMap((value) => valueSecrets(resolveEnvRef(value, env))),
    ...strings(sources.urls).flatMap((url) => urlSecrets(resolveEnvRef(url, env))),
  ];
  return [...new Set(found.filter((value) => value.length >= MIN_SECRET_LENGTH))]
    .sort((a, b) => b.length - a.length);
}

/**
 * Replaces each secret in a text by `<redacted>` (longest first, so no part of one is left), and
 * the start of one that a clipped text (ending in `…`) cut off.
 */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  const sorted = [...secrets].sort((a, b) => b.length - a.length);
  let out = text;
  for (const secret of sorted) out = out.split(secret).join(REDACTED);
  if (!out.endsWith("…")) return out;
  const body = out.slice(0, -1);
  for (const secret of sorted) {
    for (let length = secret.length - 1; length >= MIN_SECRET_LENGTH; length--) {
      if (body.endsWith(secret.slice(0, length))) return `${body.slice(0, -length)}${REDACTED}…`;
    }
  }
  return out;
}
