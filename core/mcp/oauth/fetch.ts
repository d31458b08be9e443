/** The fetch of an OAuth-enabled transport: one refresh in flight per token, stale tokens retried. */

/** The fetch signature the MCP SDK's transports take. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A response read to the end, so that each waiter gets its own copy. */
interface Snapshot {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Uint8Array;
}

/** How long a finished refresh (or grant) answers repeats of the same request. */
const SETTLED_MS = 30_000;

/**
 * Coalesces token refreshes: requests that present the same refresh token while one is in flight,
 * or shortly after it finished, get a copy of that one answer instead of a request of their own.
 * This keeps concurrent 401s from starting a refresh each, and keeps a late duplicate from
 * presenting a refresh token the authorization server has just rotated (which would fail and
 * throw the new tokens away). Machine-to-machine grants that would replace the same access token
 * share one answer the same way (see {@link AuthFetchOptions.grantKey}).
 */
export class RefreshCoalescer {
  readonly #entries = new Map<string, { result: Promise<Snapshot>; settledAt?: number }>();
  readonly #now: () => number;
  /** Refresh requests actually sent (for tests and diagnostics). */
  sent = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Sends `request` once per key (a refresh token), answering every caller with a copy of its
   * response. An answer that `keep` refuses serves only the callers already waiting.
   */
  async run(
    key: string,
    request: () => Promise<Response>,
    keep: (status: number) => boolean = () => true,
  ): Promise<Response> {
    this.#prune();
    let entry = this.#entries.get(key);
    if (!entry) {
      this.sent++;
      const result = request().then(snapshot);
      entry = { result };
      this.#entries.set(key, entry);
      const settled = entry;
      const forget = () => {
        if (this.#entries.get(key) === settled) this.#entries.delete(key);
      };
      result.then(
        (answer) => keep(answer.status) ? settled.settledAt = this.#now() : forget(),
        forget,
      );
    }
    const copy = await entry.result;
    const bodyless = [101, 103, 204, 205, 304].includes(copy.status);
    return new Response(bodyless ? null : copy.body.slice(), {
      status: copy.status,
      statusText: copy.statusText,
      headers: copy.headers,
    });
  }

  /** Drops every remembered answer (sign-out). */
  clear(): void {
    this.#entries.clear();
  }

  #prune(): void {
    const oldest = this.#now() - SETTLED_MS;
    for (const [key, entry] of this.#entries) {
      if (entry.settledAt !== undefined && entry.settledAt < oldest) this.#entries.delete(key);
    }
  }
}

/** How long a 401 waits for another request's `auth()` before it runs one of its own. */
const HANDOVER_MS = 10_000;

/**
 * Concurrent 401s for one access token, on one connection: the first goes back to the SDK, whose
 * `auth()` refreshes (or asks for a sign-in); the others wait until that `auth()` ends and are
 * then retried with the new token, so they start no `auth()`, and no refresh, of their own.
 * Without this, a 401 that arrives while the refresh is in flight would run `auth()` too, and if
 * that read the stored tokens after the refresh saved them, it would refresh again.
 */
export class TokenHandover {
  readonly #waits = new Map<string, { since: number; done: Promise<void>; end(): void }>();
  readonly #now: () => number;
  #ends = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** How many times an `auth()` ended (a 401 compares it before and after reading the token). */
  get ends(): number {
    return this.#ends;
  }

  /**
   * `undefined` for the first 401 of `token` (it leads: the SDK runs `auth()` for it); for the
   * others, a promise settled when that `auth()` ends, or after {@link HANDOVER_MS} (an `auth()`
   * that failed before reaching the provider reports no end; the next 401 then leads again).
   */
  follow(token: string): Promise<void> | undefined {
    const wait = this.#waits.get(token);
    if (wait && this.#now() - wait.since < HANDOVER_MS) return withTimeout(wait.done, HANDOVER_MS);
    let end = () => {};
    const done = new Promise<void>((resolve) => end = resolve);
    this.#waits.set(token, { since: this.#now(), done, end });
    return undefined;
  }

  /** An `auth()` ended: new tokens saved, a sign-in asked for, credentials dropped, or a grant failed. */
  ended(): void {
    this.#ends++;
    for (const wait of this.#waits.values()) wait.end();
    this.#waits.clear();
  }
}

/** `promise`, or nothing after `ms`, with no timer left behind. */
async function withTimeout(promise: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([promise, new Promise<void>((resolve) => timer = setTimeout(resolve, ms))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Options of {@link createAuthFetch}. */
export interface AuthFetchOptions {
  /** The access token a request would carry now. */
  currentToken(): Promise<string | undefined>;
  /** A 403 with `insufficient_scope` arrived: the next authorization must ask the user again. */
  insufficientScope(): void;
  /**
   * The server refused the current access token (401): the next authorization discovers the
   * authorization server afresh, as the resource may have moved to another one (SEP-2352).
   */
  tokenRejected?(): void;
  /** Every 401's `WWW-Authenticate` header (or `null`). */
  challenge?(header: string | null): void;
  /**
   * Machine-to-machine sign-in: the key of a `client_credentials` grant, naming the server, the
   * client and the access token it would replace. Grants with one key share one answer (a 2xx
   * one for 30 s), so concurrent 401s run one grant.
   */
  grantKey?(): Promise<string>;
  refreshes: RefreshCoalescer;
  /** The connection's 401s waiting for one `auth()`; its provider reports each `auth()`'s end. */
  handover?: TokenHandover;
  base?: FetchLike;
}

/**
 * Wraps the transport's fetch. The SDK calls `auth()` on every 401; with this wrapper:
 * - a refresh (`grant_type=refresh_token`) goes through the {@link RefreshCoalescer}, and so does
 *   a `client_credentials` grant where {@link AuthFetchOptions.grantKey} is given;
 * - a 401 for a request that carried an access token which has since been replaced (another
 *   request refreshed meanwhile) is retried once with the current token instead of starting
 *   another refresh; one that arrives while another 401's `auth()` runs waits for it first
 *   (see {@link TokenHandover});
 * - a 403 `insufficient_scope` is reported, so step-up asks for consent instead of refreshing.
 */
export function createAuthFetch(options: AuthFetchOptions): FetchLike {
  const base: FetchLike = options.base ?? ((url, init) => fetch(url, init));
  const handover = options.handover ?? new TokenHandover();
  /** A token request: a failed answer ends the `auth()` that sent it. */
  const grantFailing = async (answer: Promise<Response>) => {
    try {
      const response = await answer;
      if (!response.ok) handover.ended();
      return response;
    } catch (error) {
      handover.ended();
      throw error;
    }
  };
  /** The token to retry a 401 with: one that replaced `sent`, after any `auth()` running for it. */
  const replacement = async (sent: string): Promise<string | undefined> => {
    for (;;) {
      const ends = handover.ends;
      const current = await options.currentToken();
      if (current !== undefined && current !== sent) return current;
      if (handover.ends !== ends) continue;
      const running = handover.follow(sent);
      if (!running) return undefined;
      await running;
      const after = await options.currentToken();
      return after !== undefined && after !== sent ? after : undefined;
    }
  };
  return async (url, init) => {
    const grant = tokenRequestOf(init);
    if (grant?.get("grant_type") === "refresh_token" && grant.has("refresh_token")) {
      const key = grant.get("refresh_token")!;
      return await grantFailing(options.refreshes.run(key, () => base(url, init)));
    }
    if (grant?.get("grant_type") === "client_credentials" && options.grantKey) {
      const key = `client_credentials\n${await options.grantKey()}`;
      return await grantFailing(
        options.refreshes.run(key, () => base(url, init), (status) => status < 300),
      );
    }
    const sent = bearerOf(init?.headers);
    const response = await base(url, init);
    if (response.status === 401 && sent !== undefined && replayable(init)) {
      const current = await replacement(sent);
      if (current !== undefined) {
        await response.body?.cancel();
        const headers = new Headers(init?.headers);
        headers.set("authorization", `Bearer ${current}`);
        return await base(url, { ...init, headers });
      }
    }
    if (response.status === 401) {
      options.challenge?.(response.headers.get("www-authenticate"));
      if (tokenOf(init?.headers) !== undefined) options.tokenRejected?.();
    }
    if (
      response.status === 403 &&
      /error\s*=\s*"?insufficient_scope/i.test(response.headers.get("www-authenticate") ?? "")
    ) {
      options.insufficientScope();
    }
    return response;
  };
}

/** The form of a token request (a POST with `grant_type`), or `undefined` for any other request. */
function tokenRequestOf(init: RequestInit | undefined): URLSearchParams | undefined {
  if (init?.method?.toUpperCase() !== "POST") return undefined;
  const body = init.body;
  const form = /^application\/x-www-form-urlencoded/i.test(
    new Headers(init.headers).get("content-type") ?? "",
  );
  const params = body instanceof URLSearchParams
    ? body
    : typeof body === "string" && form
    ? new URLSearchParams(body)
    : undefined;
  return params?.has("grant_type") ? params : undefined;
}

/** The bearer token of request headers. */
function bearerOf(headers: HeadersInit | undefined): string | undefined {
  if (!headers) return undefined;
  const value = new Headers(headers).get("authorization");
  const match = value ? /^Bearer\s+(.+)$/i.exec(value) : null;
  return match ? match[1] : undefined;
}

/** The access token of request headers, in either scheme (`Bearer` or `DPoP`). */
function tokenOf(headers: HeadersInit | undefined): string | undefined {
  if (!headers) return undefined;
  const value = new Headers(headers).get("authorization");
  const match = value ? /^(?:Bearer|DPoP)\s+(.+)$/i.exec(value) : null;
  return match ? match[1] : undefined;
}

/** Whether a request can be sent again as it is (no one-shot stream body). */
function replayable(init: RequestInit | undefined): boolean {
  const body = init?.body;
  return body === undefined || body === null || typeof body === "string";
}

async function snapshot(response: Response): Promise<Snapshot> {
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers],
    body: new Uint8Array(await response.arrayBuffer()),
  };
}
