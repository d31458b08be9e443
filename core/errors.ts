/** The one error type of Lass: a contract error code, a sentence, and optional per-field details. */

/** Error codes of the HTTP contract (DESIGN.md section 3). */
export type ErrorCode =
  | "invalid-json"
  | "invalid-request"
  | "invalid-config"
  | "unauthorized"
  | "forbidden-host"
  | "forbidden-origin"
  | "not-found"
  | "method-not-allowed"
  | "conflict"
  | "too-large"
  | "upstream-error"
  | "timeout"
  | "internal";

/** One problem of a rejected input, at a dotted path such as `llms.0.provider`. */
export interface ErrorDetail {
  path: string;
  message: string;
}

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

/** Turns zod-style issues (`{path: PropertyKey[], message}`) into dotted-path details. */
export function detailsFromIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix = "",
): ErrorDetail[] {
  return issues.map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter((part) => part !== "").join(".");
    return { path, message: issue.message };
  });
}
