/** One sentence a person understands for a failed model call or model list. */
import { APICallError, JSONParseError, TypeValidationError } from "@ai-sdk/provider";
import type { Provider } from "../../wire/config/llm_profile_schema.ts";
import { scrubSecrets } from "../config/secrets.ts";
import { clip, isNetworkFailure } from "../errors.ts";

/** What a failure message may mention. */
export interface FailureContext {
  provider: Provider;
  endpoint: string;
  model?: string;
  timeoutMs: number;
  /** The profile's secrets (key, header values, URL credentials): scrubbed from every sentence. */
  secrets?: readonly string[];
}

const MAX_DETAIL = 300;

/** The vendor's own error message from a response body (OpenAI, Anthropic, Gemini, Ollama shapes). */
export function vendorMessage(body: string | undefined): string | undefined {
  if (!body) return undefined;
  let text: string | undefined;
  try {
    const parsed = JSON.parse(body);
    const error = parsed?.error;
    text = typeof error === "string" ? error : error?.message ?? parsed?.message;
  } catch {
    text = body;
  }
  const line = typeof text === "string" ? text.replace(/\s+/g, " ").trim() : "";
  if (line === "") return undefined;
  return clip(line, MAX_DETAIL);
}

/** A sentence for an HTTP error status of a provider. */
export function describeHttpStatus(
  status: number,
  detail: string | undefined,
  context: FailureContext,
): string {
  // A vendor may quote the key it got ("Incorrect API key provided: sk-...").
  const shown = detail && scrubSecrets(detail, context.secrets ?? []);
  const suffix = shown ? `: ${shown}` : "";
  if (status === 401) return `the provider rejected the API key (401)${suffix}`;
  if (status === 403) return `the provider refused access with this API key (403)${suffix}`;
  if (status === 404) {
    const model = context.model ? `the model "${context.model}" or ` : "";
    return `not found (404): ${model}the endpoint ${context.endpoint} does not exist${suffix}`;
  }
  if (status === 429) return `rate limited or out of quota (429)${suffix}`;
  if (status >= 500) return `the provider failed (${status})${suffix}`;
  if (status >= 400) return `the provider refused the request (${status})${suffix}`;
  return `the provider answered with status ${status}${suffix}`;
}

/** The sentence for an endpoint that cannot be reached at all. */
export function describeUnreachable(context: FailureContext): string {
  const hint = context.provider === "local-e" ? " - is Ollama running?" : "";
  return `cannot reach ${context.endpoint}${hint}`;
}

/** The sentence for a call that ran out of time. */
export function describeTimeout(context: FailureContext): string {
  const ms = context.timeoutMs;
  const limit = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
  return `no answer from ${context.endpoint} within ${limit}`;
}

/** The vendor API an endpoint URL belongs to, by its path. */
function apiOf(url: string | undefined): string {
  const path = url ? url.split("?")[0] : "";
  if (/\/chat\/completions$/.test(path)) return "Chat Completions";
  if (/\/responses$/.test(path)) return "Responses";
  if (/\/messages$/.test(path)) return "Messages";
  if (/:(stream)?generateContent$/i.test(path)) return "generateContent";
  if (/\/api\/chat$/.test(path)) return "Ollama chat";
  return "model";
}

interface SchemaIssue {
  path?: PropertyKey[];
  message?: string;
  errors?: SchemaIssue[][];
}

/** The first schema problem of a validation error, as `path: message`. */
function firstIssue(error: unknown): string | undefined {
  let issue = (error as { issues?: SchemaIssue[] })?.issues?.[0];
  // A union (an answer or an error chunk) reports one list per branch: the first is the answer.
  while (issue?.errors?.[0]?.[0]) issue = issue.errors[0][0];
  if (!issue?.message) return undefined;
  const path = (issue.path ?? []).map(String).join(".");
  return path === "" ? issue.message : `${path}: ${issue.message}`;
}

/**
 * The sentence for an answer that the SDK could not read: a 2xx body of the endpoint at `url`, or
 * (no `url`) a streamed chunk; `undefined` when the error is not one.
 */
function describeUnreadable(error: unknown, url?: string): string | undefined {
  if (TypeValidationError.isInstance(error)) {
    const problem = firstIssue(error.cause) ?? clip(String(error.cause ?? ""), MAX_DETAIL);
    if (url === undefined) return `a chunk of the streamed answer is not valid: ${problem}`;
    return `the answer is not a valid ${apiOf(url)} response: ${problem}`;
  }
  if (JSONParseError.isInstance(error)) {
    return `the answer is not JSON: ${clip(error.text.replace(/\s+/g, " ").trim(), 100)}`;
  }
  return undefined;
}

/**
 * Describes any error of an AI SDK call; `timedOut` says the caller's own deadline passed. The
 * profile's secrets never show, even when the vendor's message or the error quotes them.
 */
export function describeModelError(
  error: unknown,
  context: FailureContext,
  timedOut = false,
): string {
  return scrubSecrets(describeAnyError(error, context, timedOut), context.secrets ?? []);
}

function describeAnyError(error: unknown, context: FailureContext, timedOut: boolean): string {
  if (timedOut) return describeTimeout(context);
  // A retry error wraps the last attempt's error.
  const last = (error as { lastError?: unknown })?.lastError ?? error;
  if (APICallError.isInstance(last)) {
    // A 2xx answer the SDK rejected: the cause says what was wrong with it, the status nothing.
    const unreadable = last.statusCode !== undefined && last.statusCode < 300
      ? describeUnreadable(last.cause, last.url)
      : undefined;
    if (unreadable) return unreadable;
    if (last.statusCode !== undefined) {
      return describeHttpStatus(last.statusCode, vendorMessage(last.responseBody), context);
    }
    if (isNetworkFailure(last.cause ?? last)) return describeUnreachable(context);
  }
  if (isNetworkFailure(last)) return describeUnreachable(context);
  const unreadable = describeUnreadable(last);
  if (unreadable) return unreadable;
  const message = (last as Error)?.message ?? String(last);
  return clip(message, MAX_DETAIL);
}
