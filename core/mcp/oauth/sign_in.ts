/** OAuth sign-in to tool servers: providers for connections, the callback's exchange, sign-out. */
import { type EnvLookup, resolveEnvRef } from "../../config/env_refs.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import type { FileSystem } from "../../files.ts";
import { type FetchLike, RefreshCoalescer } from "./fetch.ts";
import {
  machineAuthMethod,
  MachineAuthProvider,
  type MachineAuthSettings,
  privateKeyJwtSigner,
} from "./machine.ts";
import { PendingSignIns } from "./pending.ts";
import { tokenReader } from "./token_source.ts";
import { BrowserAuthProvider, type ServerAuthProvider } from "./provider.ts";
import { isMetadataDocumentUrl } from "./client_kind.ts";
import { SignInTraces } from "./trace.ts";
import type { RecordedProblem } from "./trace_attempt.ts";
import { type AuthParts, OAuthStore } from "./store.ts";

/**
 * Why a callback did not sign in; `removed`: the server's record left the config during the
 * sign-in (nothing is stored for it).
 */
export type SignInFailureKind = "unknown-state" | "denied" | "failed" | "removed";

/** A callback that did not sign in; `reason` is for the log only, never for the page. */
export class SignInFailure extends Error {
  constructor(
    readonly kind: SignInFailureKind,
    readonly serverId?: string,
    readonly reason?: string,
  ) {
    super(reason ?? kind);
    this.name = "SignInFailure";
  }
}

/** Options of {@link OAuthSignIn}. */
export interface OAuthSignInOptions {
  fs: FileSystem;
  /** The folder of the credential files (`<data dir>/oauth`). */
  dir: string;
  env: EnvLookup;
  now?: () => number;
  /** The fetch for token revocation at sign-out and under each transport; default `fetch`. */
  fetch?: FetchLike;
  /**
   * Whether a server id is in the config now. With it, a callback for a server that was in the
   * config when its sign-in started and has been removed since is refused, storing nothing; a
   * draft's sign-in (`POST /api/mcp/test`, never saved) still keeps its tokens for the record.
   */
  isConfigured?: (serverId: string) => boolean;
}

const CALLBACK_PATH = "/oauth/callback";
const REVOKE_TIMEOUT_MS = 5_000;

/** Sign-in for every tool server of one Lass: one store, one registry of flows, one redirect URL. */
export class OAuthSignIn {
  readonly store: OAuthStore;
  readonly pending: PendingSignIns;
  readonly refreshes: RefreshCoalescer;
  /** The last sign-in attempt of each server, step by step (`GET /api/mcp/:id/oauth/trace`). */
  readonly traces: SignInTraces;
  readonly #options: OAuthSignInOptions;
  #origin: () => string | undefined = () => undefined;

  constructor(options: OAuthSignInOptions) {
    this.#options = options;
    this.store = new OAuthStore(options.fs, options.dir);
    this.pending = new PendingSignIns({ now: options.now, isConfigured: options.isConfigured });
    this.refreshes = new RefreshCoalescer(options.now);
    this.traces = new SignInTraces(options.now);
  }

  /** Where Lass really listens (`http://127.0.0.1:7420`); the callback URL is built from it. */
  setOrigin(origin: () => string | undefined): void {
    this.#origin = origin;
  }

  /** `<origin>/oauth/callback`, or `undefined` while the address is not known. */
  redirectUrl(): string | undefined {
    const origin = this.#origin();
    return origin ? new URL(CALLBACK_PATH, origin).href : undefined;
  }

  /**
   * The provider of one connection to a remote server, or `undefined` when sign-in does not
   * apply: stdio, `oauth: false`, or (for a browser sign-in) Lass's own address not known yet.
   * `grantType` `client_credentials`, `jwt-bearer` or `enterprise-managed` gives a provider that
   * signs in without a browser.
   */
  forSession(
    record: McpServerConfig,
    onRedirect: (authUrl: string) => void,
  ): ServerAuthProvider | undefined {
    if (record.transport === "stdio" || record.oauth === false || !record.url) return undefined;
    const machine = this.#machineSettings(record);
    if (machine) {
      return new MachineAuthProvider(machine, {
        store: this.store,
        refreshes: this.refreshes,
        now: this.#options.now,
        fetch: this.#options.fetch,
        traces: this.traces,
      });
    }
    const redirectUrl = this.redirectUrl();
    if (!redirectUrl) return undefined;
    const settings = typeof record.oauth === "object" ? record.oauth : {};
    const clientSecret = settings.clientSecret === undefined
      ? undefined
      : resolveEnvRef(settings.clientSecret, this.#options.env);
    return new BrowserAuthProvider({
      serverId: record.id,
      serverUrl: this.#serverUrl(record),
      redirectUrl,
      clientId: settings.clientId || undefined,
      clientSecret: clientSecret || undefined,
      scopes: settings.scopes,
      dpop: settings.dpop,
    }, {
      store: this.store,
      pending: this.pending,
      refreshes: this.refreshes,
      onRedirect,
      now: this.#options.now,
      fetch: this.#options.fetch,
      traces: this.traces,
    });
  }

  /**
   * Completes a flow from the callback's query: checks `state` (one use, limited time), refuses
   * an `error` answer, checks `iss` (RFC 9207) where the authorization server's metadata allows,
   * and exchanges the code through the transport that started the flow.
   */
  async complete(params: URLSearchParams): Promise<{ serverId: string }> {
    const state = params.get("state");
    const flow = state ? this.pending.take(state) : undefined;
    if (!flow) throw new SignInFailure("unknown-state");
    const { serverId } = flow;
    const callbackUrl = this.redirectUrl() ?? CALLBACK_PATH;
    const refuse = (kind: SignInFailureKind, reason: string, problem: RecordedProblem) => {
      this.traces.callback(serverId, callbackUrl, params, problem);
      return new SignInFailure(kind, serverId, reason);
    };
    if (flow.configured && this.#options.isConfigured?.(serverId) === false) {
      this.pending.forget(serverId);
      throw refuse("removed", "the server was removed from the config during the sign-in", {
        rule: "Lass: a sign-in completes only for a server still in the config",
        fix: "Add the server to the config again and sign in again.",
      });
    }
    if (params.has("error")) {
      throw refuse("denied", "the authorization server refused the sign-in", {
        rule: `RFC 6749 §4.1.2.1: the authorization server answered error=${params.get("error")}`,
        fix: params.get("error") === "access_denied"
          ? "The user (or a policy of the authorization server) refused: sign in again and allow."
          : "The authorization server refused the authorization request: its error says why " +
            "(an unknown client, a scope or resource it does not offer).",
      });
    }
    const code = params.get("code");
    if (!code) {
      throw refuse("failed", "the callback carried no code", {
        rule: "RFC 6749 §4.1.2: the authorization response carries code",
        fix: "The authorization server must redirect back with code and state.",
      });
    }
    if (!flow.codeVerifier) {
      throw refuse("failed", "the sign-in had no PKCE verifier", {
        rule: "RFC 7636 §4.1: the flow keeps its code_verifier until the callback",
        fix: "Start the sign-in again (Lass restarted, or the flow was replaced).",
      });
    }
    const expected = await flow.issuer?.();
    const iss = params.get("iss");
    if (expected?.issuer !== undefined) {
      if (iss !== null && !sameIssuer(iss, expected.issuer)) {
        throw refuse("failed", "the callback came from another issuer (iss)", {
          rule: "RFC 9207 §2.4: iss must be the issuer of the authorization server the request " +
            `went to (${expected.issuer})`,
          fix: `Make the authorization server send iss=${expected.issuer} (it sent ${iss}); ` +
            "if it really has another issuer, fix its metadata's issuer.",
        });
      }
      if (iss === null && expected.issParameterSupported) {
        throw refuse("failed", "the callback carried no iss", {
          rule: "RFC 9207 §2.4: a server whose metadata says " +
            "authorization_response_iss_parameter_supported must send iss",
          fix: "Send iss in the authorization response, or drop " +
            "authorization_response_iss_parameter_supported from the metadata.",
        });
      }
    }
    this.traces.callback(serverId, callbackUrl, params);
    try {
      await flow.finish(params, flow.codeVerifier);
    } catch (error) {
      const reason = `the token exchange failed: ${(error as Error)?.message ?? error}`;
      this.traces.failed(serverId, reason);
      throw new SignInFailure("failed", serverId, reason);
    }
    return { serverId };
  }

  /**
   * Signs out of a server: ends its flows, forgets its tokens, registration and discovery state
   * (the file goes), asks the authorization server to revoke the tokens where it offers that, and
   * clears its sign-in trace.
   */
  async signOut(record: McpServerConfig): Promise<void> {
    this.pending.forget(record.id);
    const parts = record.url ? await this.store.read(record.id, this.#serverUrl(record)) : {};
    await this.store.remove(record.id);
    await this.#revoke(record, parts).catch(() => {});
    // The next sign-in starts from scratch, and so does its trace.
    this.traces.reset(record.id);
  }

  /** Whether an authorization URL belongs to a flow that can still complete. */
  isPending(authUrl: string | undefined): boolean {
    if (!authUrl) return false;
    const state = URL.parse(authUrl)?.searchParams.get("state");
    return state ? this.pending.get(state) !== undefined : false;
  }

  /** Secret values known for a server (tokens, client secrets), for taking out of messages. */
  secrets(record: McpServerConfig): string[] {
    const oauth = typeof record.oauth === "object" ? record.oauth : {};
    const idp = oauth.identityProvider;
    // Tokens read from an env reference (a workload's JWT, the user's ID token) are secrets too.
    const tokenRefs = [oauth.assertion, idp?.idToken].filter((source) =>
      typeof source === "string"
    );
    const configured = [oauth.clientSecret, oauth.privateKey, idp?.clientSecret, ...tokenRefs]
      .filter((value): value is string => value !== undefined)
      .map((value) => resolveEnvRef(value, this.#options.env));
    return [...this.store.secrets(record.id), ...configured.filter((value) => value.length >= 4)];
  }

  #serverUrl(record: McpServerConfig): string {
    return resolveEnvRef(record.url!, this.#options.env);
  }

  /** The settings of a record that signs in without a browser, env references resolved. */
  #machineSettings(record: McpServerConfig): MachineAuthSettings | undefined {
    const oauth = typeof record.oauth === "object" ? record.oauth : undefined;
    const grant = oauth?.grantType;
    if (!oauth || !grant || grant === "authorization_code" || !record.url) return undefined;
    const env = this.#options.env;
    const resolve = (value: string | undefined) =>
      value === undefined ? undefined : resolveEnvRef(value, env);
    const idp = oauth.identityProvider;
    return {
      serverId: record.id,
      serverUrl: this.#serverUrl(record),
      grant,
      clientId: oauth.clientId ?? "",
      dpop: oauth.dpop,
      ...(oauth.assertion !== undefined && {
        assertion: tokenReader(oauth.assertion, "oauth.assertion", env),
      }),
      ...(idp && {
        identityProvider: {
          issuer: resolve(idp.issuer)!,
          tokenEndpoint: resolve(idp.tokenEndpoint),
          clientId: idp.clientId,
          clientSecret: resolve(idp.clientSecret) || undefined,
          idToken: tokenReader(idp.idToken, "oauth.identityProvider.idToken", env),
        },
      }),
      method: oauth.tokenEndpointAuthMethod,
      clientSecret: resolve(oauth.clientSecret),
      privateKey: resolve(oauth.privateKey),
      signingAlgorithm: oauth.signingAlgorithm,
      scopes: oauth.scopes,
      secretSource: oauth.clientSecret,
      keySource: oauth.privateKey,
    };
  }

  /** RFC 7009 revocation of the refresh and access tokens, best effort, bounded in time. */
  async #revoke(record: McpServerConfig, parts: AuthParts): Promise<void> {
    const serverMetadata = parts.discoveryState?.authorizationServerMetadata;
    const metadata = serverMetadata as
      | {
        revocation_endpoint?: string;
        revocation_endpoint_auth_methods_supported?: string[];
        token_endpoint_auth_methods_supported?: string[];
      }
      | undefined;
    const endpoint = metadata?.revocation_endpoint;
    const tokens = parts.tokens;
    if (!endpoint || !tokens) return;
    const settings = typeof record.oauth === "object" ? record.oauth : {};
    const preRegistered = settings.clientId && !isMetadataDocumentUrl(settings.clientId);
    const client = preRegistered
      ? {
        client_id: settings.clientId!,
        client_secret: settings.clientSecret &&
          resolveEnvRef(settings.clientSecret, this.#options.env),
      }
      : parts.clientInformation as { client_id: string; client_secret?: string } | undefined;
    if (!client?.client_id) return;
    const methods = metadata.revocation_endpoint_auth_methods_supported ??
      metadata.token_endpoint_auth_methods_supported ?? [];
    const machine = this.#machineSettings(record);
    const machineMethod = machine && machineAuthMethod(machine);
    const jwtAuth = machine && machineMethod === "private_key_jwt"
      ? await privateKeyJwtSigner(machine)
      : undefined;
    const fetchFn = this.#options.fetch ?? ((url, init) => fetch(url, init));
    const pairs: [string, string | undefined][] = [
      ["refresh_token", tokens.refresh_token],
      ["access_token", tokens.access_token],
    ];
    for (const [hint, token] of pairs) {
      if (!token) continue;
      const body = new URLSearchParams({ token, token_type_hint: hint });
      const headers = new Headers({ "content-type": "application/x-www-form-urlencoded" });
      if (jwtAuth) {
        // The audience is the authorization server, as for the token endpoint.
        body.set("client_id", client.client_id);
        await jwtAuth(headers, body, endpoint, serverMetadata);
      } else if (
        client.client_secret && machineMethod !== "client_secret_post" &&
        (methods.length === 0 || methods.includes("client_secret_basic"))
      ) {
        // Encoded as the SDK encodes it for the token endpoint, which this server accepted.
        headers.set(
          "authorization",
          `Basic ${btoa(`${client.client_id}:${client.client_secret}`)}`,
        );
      } else {
        body.set("client_id", client.client_id);
        if (client.client_secret) body.set("client_secret", client.client_secret);
      }
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), REVOKE_TIMEOUT_MS);
      try {
        const response = await fetchFn(endpoint, {
          method: "POST",
          headers,
          body,
          signal: controller.signal,
        });
        await response.body?.cancel();
      } finally {
        clearTimeout(timer);
      }
    }
  }
}

/** Two issuer identifiers, compared as URLs, tolerating one trailing `/`. */
function sameIssuer(a: string, b: string): boolean {
  const norm = (value: string) => {
    try {
      return new URL(value).href.replace(/\/$/, "");
    } catch {
      return value.replace(/\/$/, "");
    }
  };
  return norm(a) === norm(b);
}
