/**
 * An error part of a model's stream as the AI SDK reports it (its normalizer is not exported):
 * an error as it is; a provider's error payload with a message (at its top, under `error`, or
 * under `response.error`) as a `StreamProviderError` with the payload's type, code and HTTP-like
 * status, retryable as the payload or the status says; anything else as it is.
 */
import { AISDKError } from "@ai-sdk/provider";
import { isProviderStreamError } from "@ai-sdk/provider-utils";
import { StreamProviderError } from "ai";

type Fields = Record<string, unknown>;

/** The error a stream's `error` part stands for. */
export function streamProviderError(error: unknown): unknown {
  if (isError(error) || AISDKError.isInstance(error) || !isRecord(error)) return error;
  const wrapped = isProviderStreamError(error);
  const details: Fields = wrapped
    ? error
    : recordAt(recordAt(error.response)?.error) ?? recordAt(error.error) ?? error;
  if (typeof details.message !== "string") return error;
  const first = <T>(read: (value: unknown) => T | undefined, ...values: unknown[]) => {
    for (const value of values) {
      const found = read(value);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const known = KNOWN_MESSAGES[details.message.trim().toLowerCase()];
  const statusCode = first(
    httpStatus,
    details.statusCode,
    error.statusCode,
    details.status_code,
    error.status_code,
    details.status,
    error.status,
    details.code,
    error.code,
  ) ?? known;
  const retryable = first(
    (value) => typeof value === "boolean" ? value : undefined,
    details.isRetryable,
    error.isRetryable,
    details.is_retryable,
    error.is_retryable,
  );
  return new StreamProviderError({
    message: details.message,
    type: first((value) => typeof value === "string" ? value : undefined, details.type, error.type),
    code: first(
      (value) => typeof value === "string" || typeof value === "number" ? value : undefined,
      details.code,
      error.code,
    ),
    statusCode,
    isRetryable: retryable ?? (known !== undefined || isRetryableStatus(statusCode)),
    data: wrapped ? (error as { data?: unknown }).data : error,
  });
}

/** Messages that say the status by themselves (all retryable). */
const KNOWN_MESSAGES: Record<string, number> = {
  "overloaded": 503,
  "overloaded error": 503,
  "model overloaded": 503,
  "internal server error": 500,
  "service unavailable": 503,
};

/** A 4xx or 5xx status given as a number or as three digits. */
function httpStatus(value: unknown): number | undefined {
  const status = typeof value === "string" && /^\d{3}$/.test(value) ? Number(value) : value;
  return typeof status === "number" && Number.isInteger(status) && status >= 400 && status < 600
    ? status
    : undefined;
}

function isRetryableStatus(status: number | undefined): boolean {
  return status === 408 || status === 409 || status === 429 || (status ?? 0) >= 500;
}

/** An `Error`, also one made in another realm (`instanceof` misses those). */
function isError(value: unknown): boolean {
  return value instanceof Error || Object.prototype.toString.call(value) === "[object Error]";
}

function isRecord(value: unknown): value is Fields {
  return typeof value === "object" && value !== null;
}

function recordAt(value: unknown): Fields | undefined {
  return isRecord(value) ? value : undefined;
}
