/**
 * Masking for the sign-in trace: tokens, client secrets, codes, verifiers, assertions and `state`
 * are replaced by `[masked #abcd]` (a 16-bit fingerprint, so two places holding the same value
 * can be matched by eye) wherever they appear: headers, query parameters, forms, JSON bodies, and
 * any text that echoes a value seen before.
 */

/** Names (of JSON keys, form fields and query parameters) whose values are secret. */
const SECRET_NAMES = new Set([
  "access_token",
  "refresh_token",
  "id_token",
  "client_secret",
  "registration_access_token",
  "code",
  "code_verifier",
  "assertion",
  "client_assertion",
  "subject_token",
  "actor_token",
  "token",
  "device_code",
  "password",
  "state",
]);

/** Header names whose values are secret. */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie|dpop)$|token|secret|api[-_]?key|password/i;

/** The most characters of a body the trace keeps. */
export const MAX_BODY_CHARS = 8192;

/** `[masked #abcd]`: FNV-1a of the value, 16 bits. */
export function maskValue(value: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `[masked #${((hash ^ (hash >>> 16)) & 0xffff).toString(16).padStart(4, "0")}]`;
}

/** The secret values one attempt has seen, to take out of any text that echoes them. */
export class SecretValues {
  readonly #values = new Set<string>();

  /** Remembers a value (short ones are not secrets worth matching in free text). */
  add(value: string | undefined | null): void {
    if (value && value.length >= 8) this.#values.add(value);
  }

  /** The text with every remembered value masked. */
  scrub(text: string): string {
    let out = text;
    for (const value of this.#values) {
      if (out.includes(value)) out = out.split(value).join(maskValue(value));
    }
    return out;
  }
}

/** Headers as a plain record, secret values masked (an auth scheme is kept: `Bearer [masked …]`). */
export function maskHeaders(
  headers: HeadersInit | undefined,
  secrets: SecretValues,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of new Headers(headers ?? {})) {
    if (!SECRET_HEADER.test(name)) {
      out[name] = secrets.scrub(value);
      continue;
    }
    const scheme = /^(Bearer|DPoP|Basic)\s+(.+)$/i.exec(value);
    const secret = scheme ? scheme[2] : value;
    secrets.add(secret);
    out[name] = scheme ? `${scheme[1]} ${maskValue(secret)}` : maskValue(secret);
  }
  return out;
}

/** A URL with its secret query parameters masked. */
export function maskUrl(url: string, secrets: SecretValues): string {
  const parsed = URL.parse(url);
  if (!parsed) return secrets.scrub(url);
  maskParams(parsed.searchParams, secrets);
  return secrets.scrub(parsed.href);
}

/** Masks the secret parameters of a query or form in place (remembering their values). */
export function maskParams(params: URLSearchParams, secrets: SecretValues): void {
  for (const name of new Set(params.keys())) {
    if (!SECRET_NAMES.has(name)) continue;
    const values = params.getAll(name);
    params.delete(name);
    for (const value of values) {
      secrets.add(value);
      params.append(name, maskValue(value));
    }
  }
}

/**
 * A body as the trace keeps it: a form or JSON with its secret fields masked, any other text
 * scrubbed of known secrets; clipped to {@link MAX_BODY_CHARS}.
 */
export function maskBody(text: string, contentType: string | null, secrets: SecretValues): string {
  let out = text;
  if (/application\/x-www-form-urlencoded/i.test(contentType ?? "")) {
    const form = new URLSearchParams(text);
    maskParams(form, secrets);
    out = form.toString();
  } else if (/json/i.test(contentType ?? "") || /^\s*[{[]/.test(text)) {
    try {
      out = JSON.stringify(maskJson(JSON.parse(text), secrets), null, 2);
    } catch {
      // Not JSON after all: kept as text.
    }
  }
  out = secrets.scrub(out);
  return out.length > MAX_BODY_CHARS
    ? `${out.slice(0, MAX_BODY_CHARS)}\n… (${out.length - MAX_BODY_CHARS} more characters)`
    : out;
}

function maskJson(value: unknown, secrets: SecretValues): unknown {
  if (Array.isArray(value)) return value.map((item) => maskJson(item, secrets));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (SECRET_NAMES.has(key) && typeof item === "string") {
      secrets.add(item);
      out[key] = maskValue(item);
    } else {
      out[key] = maskJson(item, secrets);
    }
  }
  return out;
}
