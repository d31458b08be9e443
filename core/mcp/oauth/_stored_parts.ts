/**
 * The stored credentials of one server as a provider of one connection sees them: read and
 * written through the {@link OAuthStore}, bound to the sign-out epoch the connection began in.
 * Both providers (browser and machine-to-machine) keep their storage here, and it tells the
 * connection's {@link TokenHandover} when an `auth()` ended in new tokens or in none.
 */
import type { OAuthDiscoveryState, StoredOAuthTokens } from "@modelcontextprotocol/client";
import type { AuthParts, OAuthStore } from "./store.ts";
import { TokenHandover } from "./fetch.ts";

/** What a credential drop clears, as the SDK's `invalidateCredentials` scopes name it. */
export type DropScope = "all" | "client" | "tokens" | "discovery";

/** One server's stored parts, for one connection. */
export class StoredParts {
  readonly #store: OAuthStore;
  readonly #serverId: string;
  readonly #serverUrl: string;
  readonly #epoch: number;
  readonly #now: () => number;
  #rediscover = false;
  /** The connection's 401s waiting for one `auth()` (see {@link TokenHandover}). */
  readonly handover = new TokenHandover();

  constructor(store: OAuthStore, server: { serverId: string; serverUrl: string }, now = Date.now) {
    this.#store = store;
    this.#serverId = server.serverId;
    this.#serverUrl = server.serverUrl;
    this.#epoch = store.epoch(server.serverId);
    this.#now = now;
  }

  /** The sign-out epoch this connection began in. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Whether a sign-out happened since this connection began. */
  get signedOut(): boolean {
    return this.#store.epoch(this.#serverId) !== this.#epoch;
  }

  read(): Promise<AuthParts> {
    return this.#store.read(this.#serverId, this.#serverUrl);
  }

  update(change: Parameters<OAuthStore["update"]>[3]): Promise<void> {
    return this.#store.update(this.#serverId, this.#serverUrl, this.#epoch, change);
  }

  /** Keeps new tokens, marked with the client that obtained them (none for a browser sign-in). */
  saveTokens(tokens: StoredOAuthTokens, client: string | undefined): Promise<void> {
    const savedAt = new Date(this.#now()).toISOString();
    return this.update((parts) => ({
      ...parts,
      tokens,
      tokensSavedAt: savedAt,
      tokensClient: client,
    })).finally(() => this.handover.ended());
  }

  /** Forgets what the scope names; `keepClient` keeps a registered client through "all". */
  drop(scope: DropScope, options: { keepClient?: boolean } = {}): Promise<void> {
    const client = scope === "client" || (scope === "all" && !options.keepClient);
    const tokens = scope === "all" || scope === "tokens";
    return this.update((parts) => ({
      ...parts,
      ...(client && { clientInformation: undefined }),
      ...(tokens && { tokens: undefined, tokensSavedAt: undefined, tokensClient: undefined }),
      ...((scope === "all" || scope === "discovery") && { discoveryState: undefined }),
    })).finally(() => {
      if (tokens) this.handover.ended();
    });
  }

  saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    return this.update((parts) => ({ ...parts, discoveryState: state }));
  }

  /**
   * The server refused the current token: the next authorization discovers the authorization
   * server afresh instead of trusting the kept state (the resource may name another one now).
   */
  rediscover(): void {
    this.#rediscover = true;
  }

  /**
   * The kept discovery state, or none once after {@link rediscover}. A connection from before a
   * sign-out (it is being replaced) signs in no more: no registration or grant from its
   * background requests.
   */
  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    if (this.signedOut) {
      throw new Error("the server was signed out: this connection no longer signs in");
    }
    if (this.#rediscover) {
      this.#rediscover = false;
      return undefined;
    }
    return (await this.read()).discoveryState;
  }
}
