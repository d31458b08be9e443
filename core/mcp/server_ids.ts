/** Ids for new tool-server records (import, the registry): a slug of a name, made unique. */

/** The id for a name: lowercase, runs of other characters as `-`, at most 64 long. */
export function slugId(key: string): string {
  const slug = key.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9_-]+/g, "-").replace(/^[-_]+/, "").slice(0, 64).replace(/[-_]+$/, "");
  return slug || "server";
}

/**
 * `base`, or `base-2`, `base-3`... (still at most 64 long), whichever is not in `taken`
 * (lowercased ids).
 */
export function uniqueId(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2;; n++) {
    const suffix = `-${n}`;
    const id = base.slice(0, 64 - suffix.length).replace(/[-_]+$/, "") + suffix;
    if (!taken.has(id)) return id;
  }
}
