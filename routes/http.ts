/** HTTP helpers: JSON responses, the contract's error body, and the error boundary's mapping. */
import { type ErrorCode } from "../wire/errors.ts";
import { LassError } from "../core/errors.ts";

/** The status of each contract error code. */
export const STATUS_OF: Readonly<Record<ErrorCode, number>> = {
  "invalid-json": 400,
  "invalid-request": 400,
  "invalid-config": 400,
  "unauthorized": 401,
  "forbidden-host": 403,
  "forbidden-origin": 403,
  "forbidden-tool": 403,
  "not-found": 404,
  "method-not-allowed": 405,
  "conflict": 409,
  "precondition-failed": 412,
  "too-large": 413,
  "upstream-error": 502,
  "timeout": 504,
  "internal": 500,
};

/** Headers of pages a browser shows: no framing, no referrer (the token is in page URLs), no cache. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

/** Options of {@link respond}. */
export interface RespondInit {
  status?: number;
  /** The content type; default JSON. */
  type?: string;
  headers?: Record<string, string>;
}

/**
 * A response with its content type and `x-content-type-options: nosniff`, headers set at
 * construction: each header added to a finished response costs Deno.serve measurably more.
 */
export function respond(body: BodyInit | null, init: RespondInit = {}): Response {
  const headers: Record<string, string> = {
    "content-type": init.type ?? "application/json; charset=utf-8",
    "x-content-type-options": "nosniff",
  };
  if (init.headers) Object.assign(headers, init.headers);
  return new Response(body, { status: init.status, headers });
}

/** A JSON response. */
export function json(body: unknown, init: RespondInit = {}): Response {
  return respond(JSON.stringify(body), init);
}

/** The contract's error response for a {@link LassError}. */
export function errorResponse(error: LassError, headers?: Record<string, string>): Response {
  const body = {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details && { details: error.details }),
    },
  };
  return json(body, { status: STATUS_OF[error.code], headers });
}

/**
 * The error boundary's mapping: a {@link LassError} keeps its code; anything else becomes a
 * 500 `internal` whose message never carries a stack. Only 5xx are logged.
 */
export function responseForError(error: unknown, log: (message: string) => void): Response {
  if (error instanceof LassError) {
    if (STATUS_OF[error.code] >= 500) log(`${error.code}: ${error.message}`);
    return errorResponse(error);
  }
  log(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const message = error instanceof Error && error.message ? error.message : String(error);
  return errorResponse(new LassError("internal", `unexpected error: ${message}`));
}
