/** The building blocks of the config's records: ids, names, secrets and URLs. */
import { z } from "zod";
import { hasEnvRef } from "./env_refs.ts";

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A record id: what other records and tool names refer to it by. */
export const Id = z.string().regex(ID_PATTERN, {
  message: "must be 1-64 letters, digits, '_' or '-', starting with a letter or digit",
});

/** A display name: trimmed, not empty. */
export const Name = z.string().trim().min(1, { message: "must not be empty" });

/** A string that may be a literal, `env:NAME` or contain `${NAME}`; resolved only when used. */
export const Secretish = z.string().meta({
  description: "A literal value, `env:NAME` (the whole value from the environment) or a string " +
    "with `${NAME}` references. A missing variable resolves to an empty string.",
});

/** Headers or environment variables: names to secret-ish values. */
export const StringMap = z.record(z.string(), Secretish);

/** Whether a value is an http(s) URL, or refers to the environment (checked when resolved). */
export function isHttpUrlOrRef(value: string): boolean {
  if (hasEnvRef(value)) return true;
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** An http or https URL, or an env reference to one. */
export const HttpUrl = Secretish.refine(isHttpUrlOrRef, {
  message: "must be an http or https URL (or an env reference)",
});
