/**
 * Discovery for a 2025-03-26 server, which has no protected-resource metadata (RFC 9728): its
 * authorization server is its own origin, whose metadata may name another issuer (a path under
 * it). The 2025-03-26 specification asks no issuer match there, but the SDK checks one (RFC 8414
 * §3.3) whenever it discovers by itself; so for such a server Lass discovers first, without that
 * check, and hands the SDK the result as the kept discovery state. A server with
 * protected-resource metadata (found, or named by its 401) is left to the SDK and its checks.
 */
import type { OAuthDiscoveryState } from "@modelcontextprotocol/client";
import type { FetchLike } from "./fetch.ts";

/** One connection's view of whether its server is a 2025-03-26 one. */
export class LegacyDiscovery {
  readonly #serverUrl: string;
  readonly #fetch?: FetchLike;
  #named = false;

  constructor(serverUrl: string, fetch?: FetchLike) {
    this.#serverUrl = serverUrl;
    this.#fetch = fetch;
  }

  /** Sees a 401's `WWW-Authenticate`: one naming `resource_metadata` is not a 2025-03-26 server. */
  challenge(header: string | null): void {
    if (header && /resource_metadata\s*=/i.test(header)) this.#named = true;
  }

  /**
   * The discovery state of a server without protected-resource metadata whose origin serves
   * authorization server metadata; `undefined` for any other server (the SDK discovers).
   */
  async state(): Promise<OAuthDiscoveryState | undefined> {
    if (this.#named) return undefined;
    const client = await import("@modelcontextprotocol/client");
    const fetchFn = this.#fetch ?? ((url, init) => fetch(url, init));
    try {
      await client.discoverOAuthProtectedResourceMetadata(this.#serverUrl, {}, fetchFn);
      return undefined;
    } catch (error) {
      // Not reachable at all: the SDK's own discovery reports that.
      if (error instanceof TypeError) return undefined;
    }
    const origin = new URL("/", this.#serverUrl).href;
    const metadata = await client.discoverAuthorizationServerMetadata(origin, {
      fetchFn,
      skipIssuerValidation: true,
    }).catch(() => undefined);
    return metadata
      ? { authorizationServerUrl: origin, authorizationServerMetadata: metadata }
      : undefined;
  }
}
