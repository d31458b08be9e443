/**
 * Canonical params of a request (what replay matches on) and how far apart two values are (what
 * "closest" means for `match: "tool"` and for the error of an unmatched request).
 */

/** The JSON text of a value with object keys sorted, so equal values have equal texts. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const item = (value as Record<string, unknown>)[key];
    if (item !== undefined) out[key] = sorted(item);
  }
  return out;
}

/**
 * A request's params without what changes from one client or run to the next: `_meta` (progress
 * tokens, the 2026 envelope, trace context) at the top and in `arguments`.
 */
export function canonicalParams(params: unknown): Record<string, unknown> {
  if (params === null || typeof params !== "object" || Array.isArray(params)) return {};
  const { _meta: _, ...rest } = params as Record<string, unknown>;
  return rest;
}

/** The key a request is matched by: its method and canonical params. */
export function requestKey(method: string, params: unknown): string {
  return `${method} ${canonicalJson(canonicalParams(params))}`;
}

/** The leaves of a value as `pointer → JSON text`; an empty object or array is a leaf. */
export function leaves(value: unknown, prefix = "", out = new Map<string, string>()) {
  if (value !== null && typeof value === "object") {
    const entries = Array.isArray(value)
      ? value.map((item, index) => [String(index), item] as const)
      : Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) out.set(prefix, JSON.stringify(value));
    for (const [key, item] of entries) leaves(item, `${prefix}/${escapePointer(key)}`, out);
  } else {
    out.set(prefix, JSON.stringify(value));
  }
  return out;
}

/** A JSON pointer segment (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** How many leaves differ between two values (missing on one side, or different): 0 when equal. */
export function distance(a: unknown, b: unknown): number {
  const left = leaves(a);
  const right = leaves(b);
  let count = 0;
  for (const [path, text] of left) if (right.get(path) !== text) count++;
  for (const path of right.keys()) if (!left.has(path)) count++;
  return count;
}
