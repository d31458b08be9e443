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

/** How long a finished refresh answers repeats of the same request. */
const SETTLED_MS = 30_000;

/**
 * Coalesces token refreshes: requests that present the same refresh token while one is in flight,
 * or shortly after it finished, get a copy of that one answer instead of a request of their own.
 * This keeps concurrent 401s from starting a refresh each, and keeps a late duplicate from
 * presenting a refresh token the authorization server has just rotated (which would fail and
 * throw the new tokens away).
 */
export class RefreshCoalescer {
  readonly #entries = new Map<string, { result: Promise<Snapshot>; settledAt?: number }>();
  readonly #now: () => number;
  /** Refresh requests actually sent (for tests and diagnostics). */
  sent = 0;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Sends `request` once per refresh token, answering every caller with a copy of its response. */
  async run(refreshToken: string, request: () => Promise<Response>): Promise<Response> {
    this.#prune();
    let entry = this.#entries.get(refreshToken);
    if (!entry) {
      this.sent++;
      const result = request().then(snapshot);
      entry = { result };
      this.#entries.set(refreshToken, entry);
      const settled = entry;
      result.then(
        () => settled.settledAt = this.#now(),
        () => this.#entries.delete(refreshToken),
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

/** Options of {@link createAuthFetch}. */
export interface AuthFetchOptions {
  /** The access token a request would carry now. */
  currentToken(): Promise<string | undefined>;
  /** A 403 with `insufficient_scope` arrived: the next authorization must ask the user again. */
  insufficientScope(): void;
  refreshes: RefreshCoalescer;
  base?: FetchLike;
}

/**
 * Wraps the transport's fetch. The SDK calls `auth()` on every 401; with this wrapper:
 * - a refresh (`grant_type=refresh_token`) goes through the {@link RefreshCoalescer};
 * - a 401 for a request that carried an access token which has since been replaced (another
 *   request refreshed meanwhile) is retried once with the current token instead of starting
 *   another refresh;
 * - a 403 `insufficient_scope` is reported, so step-up asks for consent instead of refreshing.
 */
export function createAuthFetch(options: AuthFetchOptions): FetchLike {
  const base: FetchLike = options.base ?? ((url, init) => fetch(url, init));
  return async (url, init) => {
    const refreshToken = refreshTokenOf(init);
    if (refreshToken !== undefined) {
      return await options.refreshes.run(refreshToken, () => base(url, init));
    }
    const sent = bearerOf(init?.headers);
    const response = await base(url, init);
    if (response.status === 401 && sent !== undefined && replayable(init)) {
      const current = await options.currentToken();
      if (current !== undefined && current !== sent) {
        await response.body?.cancel();
        const headers = new Headers(init?.headers);
        headers.set("authorization", `Bearer ${current}`);
        return await base(url, { ...init, headers });
      }
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

/** The refresh token of a token request, or `undefined` for any other request. */
function refreshTokenOf(init: RequestInit | undefined): string | undefined {
  if (init?.method?.toUpperCase() !== "POST") return undefined;
  const body = init.body;
  const params = body instanceof URLSearchParams
    ? body
    : typeof body === "string" && /(^|&)grant_type=refresh_token(&|$)/.test(body)
    ? new URLSearchParams(body)
    : undefined;
  if (params?.get("grant_type") !== "refresh_token") return undefined;
  return params.get("refresh_token") ?? undefined;
}

/** The bearer token of request headers. */
function bearerOf(headers: HeadersInit | undefined): string | undefined {
  if (!headers) return undefined;
  const value = new Headers(headers).get("authorization");
  const match = value ? /^Bearer\s+(.+)$/i.exec(value) : null;
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
