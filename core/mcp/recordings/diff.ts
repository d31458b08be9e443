/**
 * The structural differences between a recorded and a live answer, as JSON pointers, leaving out
 * the pointers the user ignores (`*` matches any one segment; a pointer covers what is under it).
 */
import type { VerifyDifference } from "../../../wire/cassette.ts";
import { escapePointer } from "./canonical.ts";

/** Whether a JSON pointer is ignored by one of `ignore` (itself or a parent; `*` any segment). */
export function isIgnored(path: string, ignore: readonly string[]): boolean {
  const segments = path.split("/").slice(1);
  return ignore.some((pattern) => {
    const wanted = pattern === "" ? [] : pattern.split("/").slice(1);
    if (wanted.length > segments.length) return false;
    return wanted.every((segment, index) => segment === "*" || segment === segments[index]);
  });
}

/** Every difference between two JSON values, depth first, keys in order. */
export function differences(
  recorded: unknown,
  live: unknown,
  ignore: readonly string[] = [],
  path = "",
): VerifyDifference[] {
  if (isIgnored(path, ignore) && path !== "") return [];
  const bothObjects = isContainer(recorded) && isContainer(live) &&
    Array.isArray(recorded) === Array.isArray(live);
  if (!bothObjects) {
    if (JSON.stringify(recorded) === JSON.stringify(live)) return [];
    return [{
      path: path || "/",
      ...(recorded !== undefined && { recorded }),
      ...(live !== undefined && { live }),
    }];
  }
  const keys = Array.isArray(recorded)
    ? [...Array(Math.max(recorded.length, (live as unknown[]).length)).keys()].map(String)
    : [...new Set([...Object.keys(recorded), ...Object.keys(live as object)])];
  const out: VerifyDifference[] = [];
  for (const key of keys) {
    const left = (recorded as Record<string, unknown>)[key];
    const right = (live as Record<string, unknown>)[key];
    out.push(...differences(left, right, ignore, `${path}/${escapePointer(key)}`));
  }
  return out;
}

function isContainer(value: unknown): value is object {
  return value !== null && typeof value === "object";
}

/** A difference as lines a person reads: the pointer, then the recorded and the live value. */
export function describeDifference(difference: VerifyDifference): string[] {
  const show = (value: unknown) =>
    value === undefined ? "(absent)" : clipped(JSON.stringify(value));
  return [
    difference.path,
    `  recorded: ${show(difference.recorded)}`,
    `  live:     ${show(difference.live)}`,
  ];
}

function clipped(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
