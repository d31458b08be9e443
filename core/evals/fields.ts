/**
 * Helpers about an eval file's fields as written: warnings for misspelt extra fields, and
 * problems sorted in the order of the document.
 */
import type { ErrorDetail } from "../../wire/errors.ts";
import { KNOWN_FIELDS } from "./file.ts";

/** The distance between two words: insertions, deletions, substitutions and swaps of two. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from(
    { length: a.length + 1 },
    (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
      }
    }
  }
  return rows[a.length][b.length];
}

/** Whether a value is a plain record. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The warnings of one object's keys: each unknown key close to a known one. */
function misspelt(value: unknown, known: string[], at: (key: string) => string): ErrorDetail[] {
  if (!isRecord(value)) return [];
  return Object.keys(value).flatMap((key) => {
    if (known.includes(key)) return [];
    const near = known
      .map((candidate) => ({ candidate, distance: editDistance(key, candidate) }))
      .filter((entry) => entry.distance <= 2)
      .sort((a, b) => a.distance - b.distance)[0];
    return near
      ? [{ path: at(key), message: `unknown field; did you mean ${near.candidate}?` }]
      : [];
  });
}

/**
 * Warnings about extra fields that look like misspelt known ones (within an edit distance of 2),
 * at the top level and in cases: extra fields are allowed, so `expects:` would otherwise be a
 * check that silently never runs.
 */
export function unknownFieldWarnings(value: unknown, prefix = ""): ErrorDetail[] {
  const at = (path: string) => [prefix, path].filter(Boolean).join(".");
  const cases = isRecord(value) && Array.isArray(value.cases) ? value.cases : [];
  return [
    ...misspelt(value, KNOWN_FIELDS.file, at),
    ...cases.flatMap((testCase, index) =>
      misspelt(testCase, KNOWN_FIELDS.case, (key) => at(`cases.${index}.${key}`))
    ),
  ];
}

/** The rank of one path part within `container`: an index as a number, a key by its place. */
function rank(container: unknown, part: string): number {
  if (Array.isArray(container) && /^\d+$/.test(part)) return Number(part);
  if (!isRecord(container)) return Number.MAX_SAFE_INTEGER;
  const place = Object.keys(container).indexOf(part);
  // A key the document does not have (e.g. a missing `prompt`) comes after those it has.
  return place === -1 ? Number.MAX_SAFE_INTEGER : place;
}

/** Compares two paths by where they point in `document` (parts under `prefix`). */
function compareIn(document: unknown, a: string[], b: string[]): number {
  let container = document;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return rank(container, a[i]) - rank(container, b[i]);
    container = Array.isArray(container) || isRecord(container)
      ? (container as Record<string, unknown>)[a[i]]
      : undefined;
  }
  return a.length - b.length;
}

/**
 * The problems in the order of the document they are about: `cases.1` before `cases.2` (indexes
 * compared as numbers), keys in the order written. Paths outside `prefix` (a request's own
 * fields) come after the document's, in their order.
 */
export function inDocumentOrder(
  problems: ErrorDetail[],
  options: { document: unknown; prefix?: string },
): ErrorDetail[] {
  const head = options.prefix ? options.prefix.split(".") : [];
  const inside = (detail: ErrorDetail) => {
    const parts = detail.path === "" ? [] : detail.path.split(".");
    return head.every((part, i) => parts[i] === part) ? parts.slice(head.length) : undefined;
  };
  const keyed = problems.map((detail, order) => ({ detail, order, parts: inside(detail) }));
  keyed.sort((a, b) => {
    if (a.parts === undefined || b.parts === undefined) {
      return a.parts === b.parts ? a.order - b.order : a.parts === undefined ? 1 : -1;
    }
    return compareIn(options.document, a.parts, b.parts) || a.order - b.order;
  });
  return keyed.map((entry) => entry.detail);
}
