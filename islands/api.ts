/**
 * The one API client of the web UI: every island talks to Lass through it, over HTTP only, with
 * the token in the `x-service-token` header. Wire types come from `wire/`, which the server
 * shares.
 */
import type { Bootstrap } from "../wire/bootstrap.ts";
import type { ChatChunk, ChatRequest, CompareChunk, CompareRequest } from "../wire/chat.ts";
import type { ErrorBody, ErrorCode, ErrorDetail } from "../wire/errors.ts";
import type { EventLine } from "../wire/events.ts";
import type { Interaction, InteractionAnswerBody } from "../wire/interactions.ts";
import type { SessionInput, SessionRecord, SessionSummary } from "../wire/sessions.ts";

/** A failed call: the contract's error (`code`, sentence, details), or `network` when Lass is gone. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | "network" | "bad-response",
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** A started chat turn: its run id (from the `x-run-id` header) and its chunks as they arrive. */
export interface ChatStream {
  runId: string | null;
  chunks: AsyncGenerator<ChatChunk>;
}

/** Options of {@link createApi}. */
export interface ApiOptions {
  /** Called on a 401: the token is wrong (Lass restarted with a new one). */
  onUnauthorized?: () => void;
  fetch?: typeof fetch;
}

/** Reads an NDJSON body line by line as it arrives. */
export async function* readNdjson<T>(body: ReadableStream<Uint8Array>): AsyncGenerator<T> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      buffered += decoder.decode(value, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line !== "") yield JSON.parse(line) as T;
        newline = buffered.indexOf("\n");
      }
    }
    const rest = (buffered + decoder.decode()).trim();
    if (rest !== "") yield JSON.parse(rest) as T;
  } finally {
    // Ending early (a `break`, an abort) cancels the body, which tells the server.
    await reader.cancel().catch(() => {});
  }
}

/** The API client. */
export function createApi(token: string, options: ApiOptions = {}) {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function call(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
    headers: Record<string, string> = {},
  ): Promise<Response> {
    let response: Response;
    try {
      response = await doFetch(path, {
        method,
        signal,
        headers: {
          ...headers,
          "x-service-token": token,
          ...(body !== undefined && { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, "network", "Lass cannot be reached. Is it still running?");
    }
    if (response.ok) return response;
    let parsed: Partial<ErrorBody> = {};
    try {
      parsed = await response.json();
    } catch {
      // Not the contract's error body.
    }
    const error = parsed.error;
    if (response.status === 401) options.onUnauthorized?.();
    throw new ApiError(
      response.status,
      error?.code ?? "bad-response",
      error?.message ?? `Lass answered ${response.status} ${response.statusText}`.trim(),
      error?.details ?? [],
    );
  }

  async function json<T>(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<T> {
    const response = await call(method, path, body, signal);
    return await response.json() as T;
  }

  const id = encodeURIComponent;

  return {
    /**
     * Any JSON route: `json("POST", "/api/llm/test", body)`; aborting `signal` abandons the
     * request (the server hears the client go away). Typed wrappers of a page's routes
     * live next to the page and go through this (one client, one token header, one error type).
     */
    json,

    bootstrap: () => json<Bootstrap>("GET", "/api/bootstrap"),

    /**
     * Replaces the whole config (`PUT /api/config`); a 400 carries `details` by field path. With
     * `etag` (the bootstrap's `configEtag`) only the config it names is replaced: after any other
     * change it is a 412.
     */
    putConfig: async (config: unknown, etag?: string) => {
      const headers: Record<string, string> = etag ? { "if-match": etag } : {};
      const response = await call("PUT", "/api/config", config, undefined, headers);
      return await response.json() as { ok: true; config: Record<string, unknown> };
    },

    sessions: {
      list: async () =>
        (await json<{ sessions: SessionSummary[] }>("GET", "/api/sessions")).sessions,
      get: (sessionId: string) => json<SessionRecord>("GET", `/api/sessions/${id(sessionId)}`),
      put: (sessionId: string, input: SessionInput) =>
        json<SessionRecord>("PUT", `/api/sessions/${id(sessionId)}`, input),
      remove: (sessionId: string) => json<{ ok: true }>("DELETE", `/api/sessions/${id(sessionId)}`),
      /** Goes on with another column of the compare turn at user message `index`. */
      pick: (sessionId: string, index: number, column: number) =>
        json<SessionRecord>(
          "POST",
          `/api/sessions/${id(sessionId)}/compares/${index}/pick`,
          { column },
        ),
    },

    interactions: {
      list: async () =>
        (await json<{ interactions: Interaction[] }>("GET", "/api/interactions")).interactions,
      answer: (
        interactionId: string,
        response: InteractionAnswerBody["response"],
      ) => json<{ ok: true }>("POST", `/api/interactions/${id(interactionId)}`, { response }),
    },

    /** Starts a chat turn; aborting `signal` stops it (the server stops the model and tools). */
    async chat(body: ChatRequest, signal: AbortSignal): Promise<ChatStream> {
      const response = await call("POST", "/api/chat", body, signal);
      if (!response.body) throw new ApiError(0, "bad-response", "the chat answer had no body");
      return {
        runId: response.headers.get("x-run-id"),
        chunks: readNdjson<ChatChunk>(response.body),
      };
    },

    /** Starts a compare turn: one turn per column, at once; aborting `signal` stops them all. */
    async compare(
      body: CompareRequest,
      signal: AbortSignal,
    ): Promise<AsyncGenerator<CompareChunk>> {
      const response = await call("POST", "/api/chat/compare", body, signal);
      if (!response.body) throw new ApiError(0, "bad-response", "the compare answer had no body");
      return readNdjson<CompareChunk>(response.body);
    },

    /** Any NDJSON route read line by line as it arrives (`GET`), until `signal` aborts. */
    async lines<T>(path: string, signal: AbortSignal): Promise<AsyncGenerator<T>> {
      const response = await call("GET", path, undefined, signal);
      if (!response.body) throw new ApiError(0, "bad-response", `${path} answered no body`);
      return readNdjson<T>(response.body);
    },

    /** Any NDJSON route that takes a JSON body (`POST`), read line by line until `signal` aborts. */
    async postLines<T>(
      path: string,
      body: unknown,
      signal: AbortSignal,
    ): Promise<AsyncGenerator<T>> {
      const response = await call("POST", path, body, signal);
      if (!response.body) throw new ApiError(0, "bad-response", `${path} answered no body`);
      return readNdjson<T>(response.body);
    },

    /** The event stream from `since` (all buffered events when absent) until `signal` aborts. */
    async events(
      since: number | undefined,
      signal: AbortSignal,
    ): Promise<AsyncGenerator<EventLine>> {
      const query = since === undefined ? "" : `?since=${since}`;
      const response = await call("GET", `/api/events${query}`, undefined, signal);
      if (!response.body) throw new ApiError(0, "bad-response", "the event stream had no body");
      return readNdjson<EventLine>(response.body);
    },
  };
}

/** The API client's type. */
export type Api = ReturnType<typeof createApi>;
