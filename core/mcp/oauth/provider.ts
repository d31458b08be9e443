/**
 * The MCP SDK's `OAuthClientProvider` for one tool server's browser sign-in (authorization code
 * with PKCE): Lass's store, flows and redirect URL. Also the contract with the session's opener ({@link SessionAuth}).
 */
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { SerialQueue } from "../../files.ts";
import { VERSION } from "../../version.ts";
import { createAuthFetch, type FetchLike, type RefreshCoalescer } from "./fetch.ts";
import type { PendingSignIns } from "./pending.ts";
import type { OAuthStore } from "./store.ts";
import { StoredParts } from "./_stored_parts.ts";
import { DpopKeys, type DpopSetting } from "./dpop.ts";
import { LegacyDiscovery } from "./legacy_discovery.ts";
import { isMetadataDocumentUrl } from "./client_kind.ts";
import type { SignInTraces } from "./trace.ts";

/**
 * OAuth for one remote transport, as the session's opener takes it: the SDK provider (the
 * transport's `authProvider`), the fetch to put under the transport, and where to hand the
 * transport's `finishAuth`.
 */
export interface SessionAuth {
  readonly provider: OAuthClientProvider;
  readonly fetch: FetchLike;
  /**
   * Receives the transport's `finishAuth(callbackParams)`, which completes a sign-in this
   * transport started: the SDK reads `code` and checks `iss` (RFC 9207) from the query.
   */
  attach(finishAuth: (params: URLSearchParams) => Promise<void>): void;
}

/** What one connection's sign-in tells its owner (browser or machine-to-machine). */
export interface ServerAuthProvider {
  readonly sessionAuth: SessionAuth;
  /** The authorization URL of the newest flow this provider started (never for a machine). */
  readonly authUrl?: string;
  /** Whether the SDK's `auth()` started and has neither stored tokens nor asked for sign-in yet. */
  readonly authRunning: boolean;
}

/** One server's sign-in settings, env references resolved. */
export interface ServerAuthSettings {
  serverId: string;
  /** The endpoint the transport talks to; the stored credentials are bound to it. */
  serverUrl: string;
  /** Lass's `/oauth/callback` at its real listening address. */
  redirectUrl: string;
  /** A pre-registered client, or (an https URL with a path) a client ID metadata document. */
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  /** `oauth.dpop`: DPoP-bound tokens always, never, or (unset) when the server offers them. */
  dpop?: DpopSetting;
}

/** What a provider shares with the rest of the sign-in machinery. */
export interface ProviderDeps {
  store: OAuthStore;
  pending: PendingSignIns;
  refreshes: RefreshCoalescer;
  /** The user must sign in: the authorization URL to open. */
  onRedirect(authUrl: string): void;
  now?: () => number;
  fetch?: FetchLike;
  /** Where the sign-in's exchanges are recorded (`GET /api/mcp/:id/oauth/trace`). */
  traces?: SignInTraces;
}

/**
 * The browser sign-in provider one connection (one transport) uses. Credentials come from and go
 * to the {@link OAuthStore} unchanged; a flow's `state` and PKCE verifier live in
 * {@link PendingSignIns} until the callback; `redirectToAuthorization` does not open a browser but
 * reports the URL. One credential set per server: the `ctx.issuer` of the SDK's calls is not a
 * key here (the SDK itself drops stored parts stamped with another issuer).
 */
export class BrowserAuthProvider implements OAuthClientProvider, ServerAuthProvider {
  readonly #settings: ServerAuthSettings;
  readonly #deps: ProviderDeps;
  readonly #stored: StoredParts;
  readonly #completions = new SerialQueue();
  readonly #dpop: DpopKeys;
  readonly #legacy: LegacyDiscovery;
  #finishAuth?: (params: URLSearchParams) => Promise<void>;
  #flow?: string;
  #verifier?: string;
  #stepUp = false;
  #phase: "idle" | "running" | "done" = "idle";
  /** The authorization URL of the newest flow this provider started. */
  authUrl?: string;
  /** What the transport needs: this provider, its fetch, and a way to hand over `finishAuth`. */
  readonly sessionAuth: SessionAuth;

  constructor(settings: ServerAuthSettings, deps: ProviderDeps) {
    this.#settings = settings;
    this.#deps = deps;
    this.#stored = new StoredParts(deps.store, settings, deps.now);
    this.#dpop = new DpopKeys(this.#stored, settings.dpop);
    const traced = deps.traces?.fetch(settings, deps.fetch) ?? deps.fetch;
    this.#legacy = new LegacyDiscovery(settings.serverUrl, traced);
    const fetch = createAuthFetch({
      currentToken: async () => (await this.#stored.read()).tokens?.access_token,
      insufficientScope: () => this.#stepUp = true,
      tokenRejected: () => this.#stored.rediscover(),
      challenge: (header) => this.#legacy.challenge(header),
      refreshes: deps.refreshes,
      handover: this.#stored.handover,
      base: traced,
    });
    this.sessionAuth = {
      provider: this,
      fetch,
      attach: (finishAuth) => this.#finishAuth = finishAuth,
    };
  }

  /** Whether the SDK's `auth()` started and has neither stored tokens nor asked for sign-in yet. */
  get authRunning(): boolean {
    return this.#phase === "running";
  }

  get redirectUrl(): string {
    return this.#settings.redirectUrl;
  }

  get clientMetadataUrl(): string | undefined {
    const { clientId } = this.#settings;
    return isMetadataDocumentUrl(clientId) ? clientId : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.#settings.scopes?.join(" ");
    return {
      client_name: "Lass",
      redirect_uris: [this.#settings.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      software_id: "lass",
      software_version: VERSION,
      ...(scope && { scope }),
    };
  }

  state(): string {
    this.#flow = this.#deps.pending.create({
      serverId: this.#settings.serverId,
      finish: (params, verifier) => this.#complete(params, verifier),
      issuer: async () => {
        const metadata = (await this.#stored.read()).discoveryState?.authorizationServerMetadata as
          | { issuer?: string; authorization_response_iss_parameter_supported?: boolean }
          | undefined;
        return {
          issuer: metadata?.issuer,
          issParameterSupported: metadata?.authorization_response_iss_parameter_supported === true,
        };
      },
    });
    return this.#flow;
  }

  async clientInformation(
    ctx?: OAuthClientInformationContext,
  ): Promise<StoredOAuthClientInformation | undefined> {
    const { clientId, clientSecret } = this.#settings;
    if (clientId && !isMetadataDocumentUrl(clientId)) {
      // A pre-registered client goes to the authorization server the resource names, as in the
      // 2025 specification: stamped with the issuer being asked for.
      return {
        client_id: clientId,
        ...(clientSecret && { client_secret: clientSecret }),
        ...(ctx && { issuer: ctx.issuer }),
      };
    }
    const stored = (await this.#stored.read()).clientInformation;
    // A registration made for another callback address (Lass moved to another port) is stale.
    const uris = (stored as { redirect_uris?: unknown })?.redirect_uris;
    if (Array.isArray(uris) && !uris.includes(this.#settings.redirectUrl)) return undefined;
    return stored;
  }

  async saveClientInformation(
    info: StoredOAuthClientInformation,
    _ctx?: OAuthClientInformationContext,
  ): Promise<void> {
    // A pre-registered client lives in the config; its secret is never copied to the data dir.
    const { clientId } = this.#settings;
    if (clientId && !isMetadataDocumentUrl(clientId)) return;
    await this.#stored.update((parts) => ({ ...parts, clientInformation: info }));
  }

  async tokens(_ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const { tokens, tokensClient } = await this.#stored.read();
    // Tokens of a machine-to-machine client are not this sign-in's.
    if (tokensClient !== undefined) return undefined;
    // Step-up needs the user's consent to more scopes: a refresh cannot widen them.
    if (tokens && this.#stepUp) {
      const { refresh_token: _, ...rest } = tokens;
      return rest as StoredOAuthTokens;
    }
    return tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens, _ctx?: OAuthClientInformationContext): Promise<void> {
    this.#stepUp = false;
    this.#phase = "done";
    await this.#stored.saveTokens(tokens, undefined);
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.#phase = "done";
    this.#stored.handover.ended();
    const flow = this.#flow ? this.#deps.pending.get(this.#flow) : undefined;
    if (flow) flow.authUrl = authorizationUrl.href;
    this.authUrl = authorizationUrl.href;
    this.#deps.traces?.authorization(this.#settings.serverId, authorizationUrl.href);
    this.#deps.onRedirect(authorizationUrl.href);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.#verifier = codeVerifier;
    const flow = this.#flow ? this.#deps.pending.get(this.#flow) : undefined;
    if (flow) flow.codeVerifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.#verifier) throw new Error("no sign-in is in progress for this server");
    return this.#verifier;
  }

  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    if (scope === "all" || scope === "verifier") this.#verifier = undefined;
    if (scope === "verifier") return;
    await this.#stored.drop(scope);
  }

  /** The DPoP session (RFC 9449) for the token endpoint and every MCP request, if DPoP applies. */
  dpop(): Promise<DpopSession | undefined> {
    return this.#dpop.session();
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#stored.saveDiscoveryState(state);
  }

  /** The kept discovery state; for a 2025-03-26 server, Lass's own discovery (kept too). */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    let state = await this.#stored.discoveryState();
    // `auth()` asks for this first: from here until tokens or a redirect, a failure is the sign-in's.
    this.#phase = "running";
    if (!state) {
      state = await this.#legacy.state();
      if (state) await this.#stored.saveDiscoveryState(state);
    }
    return state;
  }

  /** Exchanges a flow's code through the transport that started it; one exchange at a time. */
  #complete(params: URLSearchParams, verifier: string): Promise<void> {
    return this.#completions.run(async () => {
      if (!this.#finishAuth) throw new Error("the connection that started this sign-in is gone");
      this.#verifier = verifier;
      try {
        await this.#finishAuth(params);
      } finally {
        this.#verifier = undefined;
      }
    });
  }
}
