/** Errors on the wire: `{"error": {code, message, details?}}` (DESIGN.md section 3). */

/** Error codes of the HTTP contract. */
export type ErrorCode =
  | "invalid-json"
  | "invalid-request"
  | "invalid-config"
  | "unauthorized"
  | "forbidden-host"
  | "forbidden-origin"
  | "forbidden-tool"
  | "not-found"
  | "method-not-allowed"
  | "conflict"
  | "precondition-failed"
  | "too-large"
  | "upstream-error"
  | "timeout"
  | "internal";

/** One problem of a rejected input, at a dotted path such as `llms.0.provider`. */
export interface ErrorDetail {
  path: string;
  message: string;
}

/** The body of every error response. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
}
