/** A Blob URL for a generated file, so a plain `<a download>` saves it under its name. */

/** The media type of a generated file, by its name. */
export function mediaTypeOf(filename: string): string {
  if (filename.endsWith(".json")) return "application/json";
  if (filename.endsWith(".ts")) return "text/typescript;charset=utf-8";
  return "text/plain;charset=utf-8";
}

/** A URL of `text` as a file; revoke it with `URL.revokeObjectURL` when it is no longer shown. */
export function fileUrl(text: string, filename: string): string {
  return URL.createObjectURL(new Blob([text], { type: mediaTypeOf(filename) }));
}
