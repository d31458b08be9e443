/**
 * A tool server's roots as the forms edit them: the rows typed, the list stored from them, and the
 * save's errors by row.
 */
import type { FieldErrors, RecordDraft } from "./form.tsx";

/** One root as the config holds it. */
export interface Root {
  uri: string;
  name?: string;
}

/** The roots of a record as stored (none when it has no list). */
export function rootsOf(record: RecordDraft): Root[] {
  return Array.isArray(record.roots) ? record.roots as Root[] : [];
}

/**
 * A root's URI as typed, trimmed; an absolute path (`/home/me/my project`) becomes its `file://`
 * URI (`file:///home/me/my%20project`), escaped as `encodeURI` does plus `?` and `#`, which
 * would end the path. Anything else stays as typed, for the server to check.
 */
export function asRootUri(text: string): string {
  const trimmed = text.trim();
  if (!/^\/(?!\/)/.test(trimmed)) return trimmed;
  return `file://${encodeURI(trimmed).replace(/[?#]/g, (c) => encodeURIComponent(c))}`;
}

/** The roots to store: rows with a URI (see {@link asRootUri}), names trimmed and left out when empty. */
export function cleanRoots(rows: Root[]): Root[] {
  return rows.filter((row) => row.uri.trim() !== "").map(({ uri, name }) => ({
    uri: asRootUri(uri),
    ...(name?.trim() && { name: name.trim() }),
  }));
}

/**
 * The errors at `roots.<k>` and under it (`errors` by path in the record), by the row that stored
 * root `k` came from: rows without a URI are not stored, so the indexes can differ.
 */
export function errorsByRow(errors: FieldErrors, rows: Root[]): Map<number, string> {
  const stored = rows.flatMap((row, i) => row.uri.trim() === "" ? [] : [i]);
  const byRow = new Map<number, string>();
  for (const [path, message] of Object.entries(errors)) {
    const match = /^roots\.(\d+)(?:\.(.+))?$/.exec(path);
    const row = match ? stored[Number(match[1])] : undefined;
    if (!match || row === undefined) continue;
    const under = match[2];
    const text = under && under !== "uri" ? `${under}: ${message}` : message;
    byRow.set(row, byRow.has(row) ? `${byRow.get(row)}; ${text}` : text);
  }
  return byRow;
}
