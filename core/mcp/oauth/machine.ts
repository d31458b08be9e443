/**
 * Sign-in without a browser: the MCP SDK's `OAuthClientProvider` for a client that signs in
 * alone, and keeps its tokens in Lass's store. Three grants: `client_credentials` (the client's
 * own secret or private-key JWT), `jwt-bearer` (RFC 7523: a workload's identity token as the
 * assertion, workload identity federation) and `enterprise-managed` (the user's ID token
 * exchanged at the company's identity provider for an identity assertion grant, RFC 8693, then
 * presented as a `jwt-bearer` assertion). The client authenticates with a client secret
 * (`client_secret_basic` / `client_secret_post`), a private-key JWT (`private_key_jwt`), or (a
 * workload) not at all. No authorization URL: the SDK's `auth()` runs the grant whenever the
 * server answers 401 (no token yet, or an expired one), reading the assertion afresh each time.
 */
import type {
  AddClientAuthentication,
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { OAUTH_CLIENT_AUTH_METHODS } from "../../../wire/config/mcp_oauth_schema.ts";
import { VERSION } from "../../version.ts";
import { createAuthFetch, type FetchLike, type RefreshCoalescer } from "./fetch.ts";
import type { ServerAuthProvider, SessionAuth } from "./provider.ts";
import type { OAuthStore } from "./store.ts";
import type { SignInTraces } from "./trace.ts";
import { StoredParts } from "./_stored_parts.ts";
import { DpopKeys, type DpopSetting } from "./dpop.ts";

/** The grant a client that signs in alone uses. */
export type MachineGrant = "client_credentials" | "jwt-bearer" | "enterprise-managed";

/** RFC 7523's grant type: a JWT as the authorization grant. */
const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/** The identity provider of an `enterprise-managed` sign-in, env references resolved. */
export interface IdentityProviderSettings {
  issuer: string;
  tokenEndpoint?: string;
  clientId: string;
  clientSecret?: string;
  /** Reads the user's ID token (afresh each time). */
  idToken(): Promise<string>;
}

/** How the client authenticates at the token endpoint. */
export type MachineAuthMethod = (typeof OAUTH_CLIENT_AUTH_METHODS)[number];

/** One server's machine-to-machine settings, env references resolved. */
export interface MachineAuthSettings {
  serverId: string;
  /** The endpoint the transport talks to; the stored tokens are bound to it. */
  serverUrl: string;
  /** Default `client_credentials`. */
  grant?: MachineGrant;
  clientId: string;
  /** The configured method; without it, a private key means `private_key_jwt` and a secret the
   * method the authorization server lists (`client_secret_basic` first). */
  method?: MachineAuthMethod;
  clientSecret?: string;
  /** A PEM (PKCS #8) private key, or a JWK as JSON. */
  privateKey?: string;
  /** JWT signing algorithm; default RS256. */
  signingAlgorithm?: string;
  scopes?: string[];
  /** The config fields the secret and the key come from, for messages (`env:NAME`). */
  secretSource?: string;
  keySource?: string;
  /** `jwt-bearer`: reads the workload's JWT (afresh for each grant). */
  assertion?(): Promise<string>;
  /** `enterprise-managed`: where the user's ID token becomes an identity assertion grant. */
  identityProvider?: IdentityProviderSettings;
  /** `oauth.dpop`: DPoP-bound tokens always, never, or (unset) when the server offers them. */
  dpop?: DpopSetting;
}

/** What the provider shares with the rest of the sign-in machinery. */
export interface MachineDeps {
  store: OAuthStore;
  refreshes: RefreshCoalescer;
  now?: () => number;
  fetch?: FetchLike;
  /** Where the sign-in's exchanges are recorded (`GET /api/mcp/:id/oauth/trace`). */
  traces?: SignInTraces;
}

/** The method a machine client authenticates with, as the settings say. */
export function machineAuthMethod(settings: MachineAuthSettings): MachineAuthMethod | undefined {
  return settings.method ?? (settings.privateKey !== undefined ? "private_key_jwt" : undefined);
}

/**
 * The provider of one connection with `grantType: "client_credentials"`. The grant itself is the
 * SDK's: `auth()` discovers the authorization server, sends `grant_type=client_credentials`
 * (with the RFC 8707 `resource`) and authenticates the client through the SDK's own secret
 * methods or its `createPrivateKeyJwtAuth` (the signer of its `PrivateKeyJwtProvider`). This
 * provider only adds Lass's storage (tokens and discovery state in the server's file, bound to
 * this client), so a restart reuses an unexpired token.
 */
export class MachineAuthProvider implements OAuthClientProvider, ServerAuthProvider {
  readonly #settings: MachineAuthSettings;
  readonly #deps: MachineDeps;
  readonly #stored: StoredParts;
  readonly #method: MachineAuthMethod | undefined;
  readonly #jwtAuth?: AddClientAuthentication;
  readonly #dpop: DpopKeys;
  #authorizationServer?: string;
  #resource?: string;
  #phase: "idle" | "running" | "done" = "idle";
  /** A machine client never asks a user to sign in. */
  readonly authUrl: undefined = undefined;
  readonly sessionAuth: SessionAuth;

  constructor(settings: MachineAuthSettings, deps: MachineDeps) {
    this.#settings = settings;
    this.#deps = deps;
    this.#stored = new StoredParts(deps.store, settings, deps.now);
    this.#method = machineAuthMethod(settings);
    this.#dpop = new DpopKeys(this.#stored, settings.dpop);
    if (this.#method === "private_key_jwt") {
      // The SDK loads when first needed: Lass's startup stays free of it.
      const signer = privateKeyJwtSigner(settings);
      // A key that cannot be read fails the first signing, not the process.
      signer.catch(() => {});
      this.#jwtAuth = async (headers, params, url, metadata) => {
        if (!settings.privateKey?.trim()) {
          throw new Error(missing("privateKey", settings.keySource));
        }
        try {
          const sign = await signer;
          await sign(headers, params, url, metadata);
        } catch (error) {
          throw new Error(
            `cannot sign the client assertion with oauth.privateKey (${
              settings.signingAlgorithm ?? "RS256"
            }): ${(error as Error)?.message ?? error}`,
          );
        }
      };
    }
    const fetch = createAuthFetch({
      currentToken: async () => (await this.tokens())?.access_token,
      insufficientScope: () => {},
      tokenRejected: () => this.#stored.rediscover(),
      grantKey: async () =>
        [
          settings.serverId,
          this.#stored.epoch,
          this.#client,
          (await this.tokens())?.access_token ?? "",
        ].join("\n"),
      refreshes: deps.refreshes,
      handover: this.#stored.handover,
      base: deps.traces?.fetch({
        serverId: settings.serverId,
        serverUrl: settings.serverUrl,
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        grantType: settings.grant ?? "client_credentials",
      }, deps.fetch) ?? deps.fetch,
    });
    this.sessionAuth = { provider: this, fetch, attach: () => {} };
  }

  get authRunning(): boolean {
    return this.#phase === "running";
  }

  /** No redirect: the SDK takes this for a non-interactive flow and runs the grant. */
  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.#settings.scopes?.join(" ");
    return {
      client_name: "Lass",
      redirect_uris: [],
      grant_types: [this.#grant === "client_credentials" ? "client_credentials" : JWT_BEARER],
      token_endpoint_auth_method: this.#method ??
        (this.#grant === "jwt-bearer" ? "none" : "client_secret_basic"),
      software_id: "lass",
      software_version: VERSION,
      ...(scope && { scope }),
    };
  }

  /** The configured client (it lives in the config: nothing is registered or saved). */
  clientInformation(_ctx?: OAuthClientInformationContext): StoredOAuthClientInformation {
    const { clientId, clientSecret } = this.#settings;
    // A workload authenticates with its assertion alone (a public client), unless configured.
    if (this.#grant === "jwt-bearer" && !this.#method) return { client_id: clientId };
    if (this.#method !== "private_key_jwt" && !clientSecret?.trim()) {
      throw new Error(missing("clientSecret", this.#settings.secretSource));
    }
    if (this.#method === "private_key_jwt") return { client_id: clientId };
    return {
      client_id: clientId,
      client_secret: clientSecret,
      // The SDK uses this method where the authorization server lists it.
      ...(this.#method && { redirect_uris: [], token_endpoint_auth_method: this.#method }),
    };
  }

  /** `private_key_jwt`: the SDK's signed client assertion; else the SDK's secret methods. */
  get addClientAuthentication(): AddClientAuthentication | undefined {
    return this.#jwtAuth;
  }

  /**
   * The grant's form: `client_credentials`, or `jwt-bearer` with the workload's JWT or (for
   * `enterprise-managed`) the identity assertion grant the identity provider gives for the
   * user's ID token, asked for this server's authorization server and resource.
   */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams> {
    const params = new URLSearchParams();
    if (this.#grant === "client_credentials") {
      params.set("grant_type", "client_credentials");
    } else {
      params.set("grant_type", JWT_BEARER);
      params.set("assertion", await this.#assertion(scope));
    }
    if (scope) params.set("scope", scope);
    return params;
  }

  /** Called by the SDK's `auth()` after discovery: the identity assertion grant's audience. */
  saveAuthorizationServerUrl(url: string): void {
    this.#authorizationServer = url;
  }

  /** Called by the SDK's `auth()` after discovery: the identity assertion grant's resource. */
  saveResourceUrl(url: string): void {
    this.#resource = url;
  }

  /** The DPoP session (RFC 9449) for the token endpoint and every MCP request, if DPoP applies. */
  dpop(): Promise<DpopSession | undefined> {
    return this.#dpop.session();
  }

  async tokens(_ctx?: OAuthClientInformationContext): Promise<StoredOAuthTokens | undefined> {
    const { tokens, tokensClient } = await this.#stored.read();
    // Tokens of a browser sign-in or of another client are not this client's.
    return tokensClient === this.#client ? tokens : undefined;
  }

  async saveTokens(tokens: StoredOAuthTokens, _ctx?: OAuthClientInformationContext): Promise<void> {
    this.#phase = "done";
    await this.#stored.saveTokens(tokens, this.#client);
  }

  redirectToAuthorization(): void {
    this.#stored.handover.ended();
    throw new Error("a client_credentials sign-in has no browser step");
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error("a client_credentials sign-in has no PKCE verifier");
  }

  async invalidateCredentials(
    scope: "all" | "client" | "tokens" | "verifier" | "discovery",
  ): Promise<void> {
    // The client itself lives in the config; only what was obtained with it is dropped.
    if (scope === "client" || scope === "verifier") return;
    await this.#stored.drop(scope, { keepClient: true });
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.#stored.saveDiscoveryState(state);
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    const state = await this.#stored.discoveryState();
    // `auth()` asks for this first: from here until tokens, a failure is the sign-in's.
    this.#phase = "running";
    return state;
  }

  /** The client tokens are bound to: its grant, method and id (not its secret). */
  get #client(): string {
    const grant = this.#grant === "client_credentials" ? "" : `${this.#grant} `;
    return `${grant}${this.#method ?? "client_secret"} ${this.#settings.clientId}`;
  }

  get #grant(): MachineGrant {
    return this.#settings.grant ?? "client_credentials";
  }

  /** The assertion of a `jwt-bearer` grant, read or exchanged now. */
  async #assertion(scope: string | undefined): Promise<string> {
    const { assertion, identityProvider: idp } = this.#settings;
    if (this.#grant === "jwt-bearer") {
      if (!assertion) throw new Error("oauth.assertion is not set");
      return await assertion();
    }
    if (!idp) throw new Error("oauth.identityProvider is not set");
    const client = await import("@modelcontextprotocol/client");
    const request = {
      audience: this.#authorizationServer ?? new URL(this.#settings.serverUrl).origin,
      resource: this.#resource ?? this.#settings.serverUrl,
      idToken: await idp.idToken(),
      clientId: idp.clientId,
      ...(idp.clientSecret && { clientSecret: idp.clientSecret }),
      ...(scope && { scope }),
      fetchFn: this.#deps.fetch,
    };
    try {
      const result = idp.tokenEndpoint
        ? await client.requestJwtAuthorizationGrant({
          ...request,
          tokenEndpoint: idp.tokenEndpoint,
        })
        : await client.discoverAndRequestJwtAuthGrant({ ...request, idpUrl: idp.issuer });
      return result.jwtAuthGrant;
    } catch (error) {
      throw new Error(
        `the identity provider ${idp.issuer} did not exchange the ID token: ${
          (error as Error)?.message ?? error
        }`,
      );
    }
  }
}

/**
 * The SDK's private-key JWT client authentication (RFC 7523) for a machine client: its id as
 * issuer and subject, its key, RS256 unless set. The SDK loads when first needed.
 */
export async function privateKeyJwtSigner(
  settings: MachineAuthSettings,
): Promise<AddClientAuthentication> {
  const { createPrivateKeyJwtAuth } = await import("@modelcontextprotocol/client");
  return createPrivateKeyJwtAuth({
    issuer: settings.clientId,
    subject: settings.clientId,
    privateKey: privateKeyOf(settings),
    alg: settings.signingAlgorithm ?? "RS256",
  });
}

/**
 * The key for the SDK's signer: a JWK (JSON) as an object, a PEM as text. A PEM kept in one line
 * of an env file (`\n` escapes) gets its line breaks back.
 */
function privateKeyOf(settings: MachineAuthSettings): string | Record<string, unknown> {
  const key = settings.privateKey?.trim() ?? "";
  if (key.startsWith("{")) {
    try {
      return JSON.parse(key);
    } catch {
      return key;
    }
  }
  return key.includes("\\n") && !key.includes("\n") ? key.replaceAll("\\n", "\n") : key;
}

/** The sentence for a secret or key that resolved to nothing. */
function missing(field: "clientSecret" | "privateKey", source: string | undefined): string {
  const name = source && /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(source)?.[1];
  return name
    ? `oauth.${field} refers to the environment variable ${name}, which is not set`
    : `oauth.${field} is empty`;
}
