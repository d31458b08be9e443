/** The one error type of Lass: a contract error code, a sentence, and optional per-field details. */
import type { ErrorCode, ErrorDetail } from "../wire/errors.ts";

/** An expected failure that the HTTP boundary turns into `{"error": {code, message, details?}}`. */
export class LassError extends Error {
  readonly code: ErrorCode;
  readonly details?: ErrorDetail[];

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[]) {
    super(message);
    this.name = "LassError";
    this.code = code;
    this.details = details;
  }
}

/** Turns zod-style issues into dotted-path details; an unknown field gets its own path. */
export function detailsFromIssues(
  issues: readonly {
    path: readonly PropertyKey[];
    message: string;
    code?: string;
    keys?: string[];
  }[],
  prefix = "",
): ErrorDetail[] {
  const at = (path: readonly PropertyKey[]) =>
    [prefix, ...path.map(String)].filter((part) => part !== "").join(".");
  return issues.flatMap((issue) =>
    issue.code === "unrecognized_keys" && issue.keys?.length
      ? issue.keys.map((key) => ({
        path: at([...issue.path, key]),
        message: "is not a known field",
      }))
      : [{ path: at(issue.path), message: issue.message }]
  );
}

/** Shortens a text for a message or an event, marking the cut with `…`. */
export function clip(text: string, max = 2000): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Whether an error (or its cause) means a server could not be reached at all. */
export function isNetworkFailure(error: unknown): boolean {
  const cause = (error as { cause?: Error })?.cause?.message ?? "";
  const text = `${(error as Error)?.name ?? ""} ${(error as Error)?.message ?? ""} ${cause}`;
  return /fetch failed|failed to fetch|error sending request|connection refused|ECONNREFUSED|ECONNRESET|ENOTFOUND|dns error/i
    .test(text);
}
