/** Resolving the environment references in config values: `env:NAME` and `${NAME}`. */
import { INTERPOLATED_ENV_REF, WHOLE_ENV_REF } from "../../wire/config/env_refs.ts";

/** Reads one environment variable; `undefined` when it is not set. */
export type EnvLookup = (name: string) => string | undefined;

/** Resolves the references in one string; a missing variable becomes an empty string. */
export function resolveEnvRef(value: string, lookup: EnvLookup): string {
  const whole = WHOLE_ENV_REF.exec(value);
  if (whole) return lookup(whole[1]) ?? "";
  return value.replace(INTERPOLATED_ENV_REF, (_, name: string) => lookup(name) ?? "");
}

/** Resolves every string inside a JSON-like value, returning a new value; the input is untouched. */
export function resolveEnvRefs<T>(value: T, lookup: EnvLookup): T {
  if (typeof value === "string") return resolveEnvRef(value, lookup) as T;
  if (Array.isArray(value)) return value.map((item) => resolveEnvRefs(item, lookup)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveEnvRefs(item, lookup);
    return out as T;
  }
  return value;
}

/** The names of the variables a value refers to (`env:NAME` or each `${NAME}`), in order. */
export function envRefNames(value: string): string[] {
  const whole = WHOLE_ENV_REF.exec(value);
  if (whole) return [whole[1]];
  return [...value.matchAll(INTERPOLATED_ENV_REF)].map((match) => match[1]);
}
