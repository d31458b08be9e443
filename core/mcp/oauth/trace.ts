/**
 * The sign-in trace: the real HTTP exchanges of each remote server's last OAuth sign-in attempt,
 * recorded by a fetch under the SDK's `auth()` (every discovery, registration and token request
 * it makes) and the transport's MCP requests, plus the two steps that happen in the browser (the
 * authorization request, the callback). Kept in memory, one attempt per server, secrets masked
 * as they are recorded. {@link describeAttempt} turns an attempt into steps with their rules.
 */
import type { SignInExchange, SignInStepName, SignInTrace } from "../../../wire/oauth_trace.ts";
import type { FetchLike } from "./fetch.ts";
import { maskBody, maskHeaders, maskParams, maskUrl, SecretValues } from "./trace_mask.ts";
import { describeAttempt } from "./trace_steps.ts";
import {
  type Attempt,
  jsonOf,
  lastMetadata,
  type RecordedProblem,
  type TraceEntry,
  type TraceSettings,
} from "./trace_attempt.ts";

/** How long an attempt waits for its callback before a new challenge starts another (a flow's life). */
const WAIT_MS = 10 * 60_000;

/** The most entries one attempt keeps (a server in a loop of 401s must not grow it without end). */
const MAX_ENTRIES = 60;

/** The last sign-in attempt of every remote server. */
export class SignInTraces {
  readonly #attempts = new Map<string, Attempt>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * A fetch for one connection that records the sign-in exchanges of `settings`' server, then
   * answers as `base`. The connection's first 401 to a request without a token begins a new
   * attempt, unless the last one still waits for its callback.
   */
  fetch(settings: TraceSettings, base?: FetchLike): FetchLike {
    const send: FetchLike = base ?? ((url, init) => fetch(url, init));
    // One fetch serves one connection: its first challenge may begin an attempt, later ones
    // (the probes of one connect) belong to it.
    const connection = { challenged: false };
    return async (url, init) => {
      const href = url instanceof URL ? url.href : String(url);
      const purpose = purposeOf(href, init, this.#attempts.get(settings.serverId));
      if (purpose === "other") return await send(url, init);
      const at = new Date(this.#now()).toISOString();
      const started = performance.now();
      let response: Response;
      try {
        response = await send(url, init);
      } catch (error) {
        if (purpose !== "mcp") {
          const attempt = this.#attemptFor(settings, false);
          this.#push(attempt, {
            step: purpose,
            exchange: {
              ...requestOf(href, init, at, attempt.secrets),
              error: attempt.secrets.scrub(String((error as Error)?.message ?? error)),
            },
          });
        }
        throw error;
      }
      const ms = Math.round(performance.now() - started);
      if (purpose === "mcp") {
        this.#mcpExchange(settings, connection, href, init, response, at, ms);
        return response;
      }
      const attempt = this.#attemptFor(settings, false);
      const exchange: SignInExchange = { ...requestOf(href, init, at, attempt.secrets), ms };
      await respondInto(exchange, response, attempt.secrets);
      this.#push(attempt, { step: purpose, exchange });
      const answer = response.ok ? jsonOf(exchange.response?.body) : undefined;
      if (purpose === "authorization-server-metadata" && answer) attempt.metadata = answer;
      if (purpose === "token" && typeof answer?.access_token === "string") attempt.granted = true;
      return response;
    };
  }

  /** The authorization URL handed to the user (the browser opens it; Lass does not send it). */
  authorization(serverId: string, url: string): void {
    const attempt = this.#attempts.get(serverId);
    if (!attempt) return;
    attempt.waitingSince = this.#now();
    this.#push(attempt, {
      step: "authorization",
      exchange: {
        at: new Date(this.#now()).toISOString(),
        by: "browser",
        method: "GET",
        url: maskUrl(url, attempt.secrets),
        request: { headers: {} },
      },
    });
  }

  /** The browser came back to `/oauth/callback` for a flow of `serverId`; `problem` if refused. */
  callback(
    serverId: string,
    callbackUrl: string,
    params: URLSearchParams,
    problem?: RecordedProblem,
  ) {
    const attempt = this.#attempts.get(serverId);
    if (!attempt) return;
    attempt.waitingSince = undefined;
    const query = new URLSearchParams(params);
    maskParams(query, attempt.secrets);
    this.#push(attempt, {
      step: "callback",
      exchange: {
        at: new Date(this.#now()).toISOString(),
        by: "callback",
        method: "GET",
        url: attempt.secrets.scrub(`${callbackUrl}?${query}`),
        request: { headers: {} },
      },
      ...(problem && { problem }),
    });
  }

  /** The sign-in failed with this error (the SDK's or the callback's words). */
  failed(serverId: string, message: string): void {
    const attempt = this.#attempts.get(serverId);
    if (attempt) attempt.error = attempt.secrets.scrub(message);
  }

  /** Forgets a server's attempt: the next challenge starts a new one. */
  reset(serverId: string): void {
    this.#attempts.delete(serverId);
  }

  /** The steps of a server's last attempt. */
  trace(serverId: string): SignInTrace {
    const attempt = this.#attempts.get(serverId);
    return attempt ? describeAttempt(attempt) : { serverId, steps: [] };
  }

  /** An MCP request: recorded when it starts a sign-in or shows where one stands. */
  #mcpExchange(
    settings: TraceSettings,
    connection: { challenged: boolean },
    href: string,
    init: RequestInit | undefined,
    response: Response,
    at: string,
    ms: number,
  ): void {
    const withToken = /^(Bearer|DPoP)\s/i.test(
      new Headers(init?.headers).get("authorization") ?? "",
    );
    let attempt = this.#attempts.get(settings.serverId);
    let entry: Omit<TraceEntry, "exchange"> | undefined;
    if (response.status === 401 && !withToken) {
      attempt = this.#attemptFor(settings, !connection.challenged && !this.#waiting(attempt));
      connection.challenged = true;
      entry = { step: "protected-resource-metadata", challenge: true };
    } else if (response.status === 401 && (!attempt || attempt.authorized)) {
      // An expired or refused token: the refresh step (an attempt of its own if none was seen).
      attempt = this.#attemptFor(settings, false);
      attempt.retryAfterRefresh = true;
      entry = { step: "refresh" };
    } else if (attempt && withToken && !attempt.authorized && attempt.granted) {
      attempt.authorized = response.ok;
      entry = { step: "authorized-request" };
    } else if (attempt?.retryAfterRefresh && withToken && attempt.entries.some(isRefreshGrant)) {
      attempt.retryAfterRefresh = false;
      entry = { step: "refresh" };
    }
    if (!attempt || !entry) return;
    const exchange: SignInExchange = { ...requestOf(href, init, at, attempt.secrets), ms };
    const type = response.headers.get("content-type") ?? "";
    exchange.response = {
      status: response.status,
      headers: maskHeaders(response.headers, attempt.secrets),
    };
    // An event stream may never end: its body is not read. JSON is read from a copy.
    if (!/event-stream/i.test(type) && response.body) {
      const secrets = attempt.secrets;
      response.clone().text().then((text) => {
        if (text && exchange.response) exchange.response.body = maskBody(text, type, secrets);
      }).catch(() => {});
    }
    this.#push(attempt, { ...entry, exchange });
  }

  #waiting(attempt: Attempt | undefined): boolean {
    return attempt?.waitingSince !== undefined && this.#now() - attempt.waitingSince < WAIT_MS;
  }

  /** The server's attempt; a new one when `fresh` or when there is none. */
  #attemptFor(settings: TraceSettings, fresh: boolean): Attempt {
    let attempt = this.#attempts.get(settings.serverId);
    if (!attempt || fresh) {
      const secrets = new SecretValues();
      secrets.add(settings.clientSecret);
      attempt = {
        settings,
        startedAt: new Date(this.#now()).toISOString(),
        entries: [],
        secrets,
      };
      this.#attempts.set(settings.serverId, attempt);
    }
    return attempt;
  }

  #push(attempt: Attempt, entry: TraceEntry): void {
    if (attempt.entries.length < MAX_ENTRIES) attempt.entries.push(entry);
  }
}

/** What a request is for: a step of the sign-in, an MCP request, or (revocation) nothing. */
function purposeOf(
  href: string,
  init: RequestInit | undefined,
  attempt: Attempt | undefined,
): SignInStepName | "mcp" | "other" {
  const url = URL.parse(href);
  const path = url?.pathname ?? "";
  if (path.includes("/.well-known/oauth-protected-resource")) return "protected-resource-metadata";
  if (
    path.includes("/.well-known/oauth-authorization-server") ||
    path.includes("/.well-known/openid-configuration")
  ) return "authorization-server-metadata";
  const metadata = attempt && lastMetadata(attempt);
  if (metadata?.revocation_endpoint === href) return "other";
  const method = init?.method?.toUpperCase() ?? "GET";
  if (method === "POST") {
    const grant = formOf(init)?.get("grant_type");
    if (grant === "refresh_token") return "refresh";
    if (grant) return "token";
    if (metadata?.registration_endpoint === href || registrationBody(init)) return "registration";
  }
  return "mcp";
}

function formOf(init: RequestInit | undefined): URLSearchParams | undefined {
  const body = init?.body;
  if (body instanceof URLSearchParams) return body;
  const form = /x-www-form-urlencoded/i.test(new Headers(init?.headers).get("content-type") ?? "");
  return typeof body === "string" && form ? new URLSearchParams(body) : undefined;
}

function registrationBody(init: RequestInit | undefined): boolean {
  return typeof init?.body === "string" && /"redirect_uris"\s*:/.test(init.body);
}

function isRefreshGrant(entry: TraceEntry): boolean {
  return entry.step === "refresh" && entry.exchange.method === "POST";
}

/** The request half of an exchange Lass sent, masked. */
function requestOf(
  href: string,
  init: RequestInit | undefined,
  at: string,
  secrets: SecretValues,
): SignInExchange {
  const headers = new Headers(init?.headers);
  const raw = init?.body instanceof URLSearchParams
    ? init.body.toString()
    : typeof init?.body === "string"
    ? init.body
    : undefined;
  const type = init?.body instanceof URLSearchParams
    ? "application/x-www-form-urlencoded"
    : headers.get("content-type");
  const masked = maskHeaders(headers, secrets);
  const body = raw === undefined ? undefined : maskBody(raw, type, secrets);
  return {
    at,
    by: "lass",
    method: init?.method?.toUpperCase() ?? "GET",
    url: maskUrl(href, secrets),
    request: { headers: masked, ...(body !== undefined && { body }) },
  };
}

/** Reads an auth endpoint's answer (small JSON) from a copy into the exchange, masked. */
async function respondInto(
  exchange: SignInExchange,
  response: Response,
  secrets: SecretValues,
): Promise<void> {
  const text = await response.clone().text().catch(() => "");
  exchange.response = {
    status: response.status,
    headers: maskHeaders(response.headers, secrets),
    ...(text && { body: maskBody(text, response.headers.get("content-type"), secrets) }),
  };
}
