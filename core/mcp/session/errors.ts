/** What the SDK's errors mean for Lass: timeouts, lost sessions, sign-in, not found, URL elicitation. */
import {
  type DiscoverResult,
  type ElicitRequestURLParams,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SseError,
  UnauthorizedError,
} from "@modelcontextprotocol/client";
import { isNetworkFailure as isFetchFailure } from "../../errors.ts";

/** A record's `protocolEra`. */
export type EraSetting = "auto" | "legacy" | "modern";

/** A kept era verdict: a modern server's `server/discover` answer, or "legacy". */
export type EraVerdict = { kind: "modern"; discover: DiscoverResult } | { kind: "legacy" };

/** The JSON-RPC code of "the user must visit a URL first" (2025 URL elicitation). */
const URL_ELICITATION_REQUIRED = -32042;
/** "Resource not found" in the 2025 era (2026 uses -32602). */
const RESOURCE_NOT_FOUND_2025 = -32002;
const INVALID_PARAMS = -32602;

/** Whether an error is the SDK's request timeout. */
export function isTimeout(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
}

/** Whether the server needs sign-in (401), refused us (403), or the OAuth flow failed. */
export function isAuthFailure(error: unknown): boolean {
  if (error instanceof UnauthorizedError) return true;
  if (error instanceof SdkHttpError) return error.status === 401 || error.status === 403;
  if (error instanceof SseError) return error.code === 401 || error.code === 403;
  return /\b401\b|unauthorized/i.test((error as Error)?.message ?? "");
}

/** Whether a server could not be reached at all (refused, reset, DNS). */
export function isNetworkFailure(error: unknown): boolean {
  return isFetchFailure(error);
}

/**
 * Whether a Streamable HTTP server no longer knows our session: 404, or a 400 that names the
 * session (servers differ). The spec says the client must then start a new session.
 */
export function isSessionGone(error: unknown): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  if (error.status === 404) return true;
  return error.status === 400 && /session/i.test(error.message);
}

/** Whether a server answered that the prompt, resource or template does not exist. */
export function isNotFound(error: unknown): boolean {
  if (!(error instanceof ProtocolError)) return false;
  if (error.code === RESOURCE_NOT_FOUND_2025) return true;
  return error.code === INVALID_PARAMS &&
    /not found|unknown|no such|does not exist/i.test(error.message);
}

/** The URL elicitations a 2025 server asks for before it can answer (-32042), if that is the error. */
export function urlElicitationsOf(error: unknown): ElicitRequestURLParams[] | undefined {
  if (!(error instanceof ProtocolError) || error.code !== URL_ELICITATION_REQUIRED) {
    return undefined;
  }
  const list = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(list) || list.length === 0) return undefined;
  return list
    .filter((item): item is Record<string, unknown> =>
      typeof item === "object" && item !== null && typeof item.url === "string"
    )
    .map((item) => ({
      mode: "url" as const,
      url: item.url as string,
      message: typeof item.message === "string" ? item.message : "",
      elicitationId: typeof item.elicitationId === "string" ? item.elicitationId : "",
    }));
}
