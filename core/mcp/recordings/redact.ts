/**
 * Secrets out of a cassette: the values Lass knows to be secret (the record's resolved env
 * references, header and env values, OAuth tokens), the values of credential-named fields
 * (`authorization`, `token`, `apiKey`, ...) and bearer credentials in any text.
 */
import type { Cassette } from "../../../wire/cassette.ts";
import { REDACTED } from "../../config/redact.ts";
import { scrubSecrets } from "../../config/secrets.ts";

/** Field names whose string values are credentials; `progressToken` and `nextCursor` are not. */
const CREDENTIAL_FIELD =
  /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[-_]?key|access[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|secret|password|passwd|token|bearer|private[-_]?key)$/i;

/** `Bearer abc…` / `Basic abc…` in a text: the credential goes, the scheme stays. */
const AUTH_VALUE = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]{8,}=*/g;

/** Values shorter than this are not searched for: they would blank out ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** The cassette with every secret replaced by `<redacted>`. */
export function redactCassette(cassette: Cassette, secrets: readonly string[]): Cassette {
  const known = [...new Set(secrets.filter((value) => value.length >= MIN_SECRET_LENGTH))];
  return redactValue(cassette, known) as Cassette;
}

/** A JSON value with secrets replaced, in strings and in credential-named fields. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") {
    const scrubbed = secrets.length > 0 ? scrubSecrets(value, secrets) : value;
    return scrubbed.replace(AUTH_VALUE, (_, scheme) => `${scheme} ${REDACTED}`);
  }
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = typeof item === "string" && item !== "" && CREDENTIAL_FIELD.test(key)
      ? REDACTED
      : redactValue(item, secrets);
  }
  return out;
}
