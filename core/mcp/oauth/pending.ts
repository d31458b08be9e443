/** Sign-ins in progress: the OAuth `state` of each, the server it is for, and how to finish it. */

/** One sign-in waiting for the browser to come back to `/oauth/callback`. */
export interface PendingSignIn {
  serverId: string;
  createdAt: number;
  /**
   * Whether the server's record was in the config when the flow started (a `POST /api/mcp/test`
   * draft's is not): such a flow completes only while the record is still there.
   */
  configured?: boolean;
  /** The PKCE verifier of this flow (memory only: it lives as long as the flow). */
  codeVerifier?: string;
  /** The authorization URL the user opens. */
  authUrl?: string;
  /**
   * Exchanges the code of the callback's query (`code`, `iss`, `state`) through the transport
   * that started the flow and stores the tokens.
   */
  finish(params: URLSearchParams, codeVerifier: string): Promise<void>;
  /** The authorization server's issuer when its metadata is known (RFC 9207 `iss` check). */
  issuer?(): Promise<{ issuer?: string; issParameterSupported: boolean }>;
}

/** Options of {@link PendingSignIns}. */
export interface PendingOptions {
  /** How long a flow stays valid; default 10 minutes. */
  ttlMs?: number;
  /** Flows kept per server (the newest); default 5. */
  perServer?: number;
  /** Flows kept in all; default 200. */
  max?: number;
  now?: () => number;
  /** Whether a server id is in the config now; stamps each flow's `configured`. */
  isConfigured?: (serverId: string) => boolean;
}

/**
 * The registry of flows in progress, keyed by a random 256-bit `state`. A state is good for one
 * callback, for a limited time; expired flows are dropped when the registry is next used (no timers).
 */
export class PendingSignIns {
  readonly #flows = new Map<string, PendingSignIn>();
  readonly #ttlMs: number;
  readonly #perServer: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #isConfigured?: (serverId: string) => boolean;

  constructor(options: PendingOptions = {}) {
    this.#isConfigured = options.isConfigured;
    this.#ttlMs = options.ttlMs ?? 10 * 60_000;
    this.#perServer = options.perServer ?? 5;
    this.#max = options.max ?? 200;
    this.#now = options.now ?? Date.now;
  }

  /** Registers a flow and returns its `state`. */
  create(flow: Omit<PendingSignIn, "createdAt" | "configured">): string {
    this.#prune();
    const state = randomState();
    const configured = this.#isConfigured?.(flow.serverId);
    this.#flows.set(state, {
      ...flow,
      createdAt: this.#now(),
      ...(configured !== undefined && { configured }),
    });
    const ofServer = [...this.#flows].filter(([, entry]) => entry.serverId === flow.serverId);
    for (const [old] of ofServer.slice(0, Math.max(0, ofServer.length - this.#perServer))) {
      this.#flows.delete(old);
    }
    while (this.#flows.size > this.#max) this.#flows.delete(this.#flows.keys().next().value!);
    return state;
  }

  /** A flow still in progress, without ending it. */
  get(state: string): PendingSignIn | undefined {
    this.#prune();
    return this.#flows.get(state);
  }

  /** Ends a flow and returns it; `undefined` for an unknown or expired state. */
  take(state: string): PendingSignIn | undefined {
    const flow = this.get(state);
    this.#flows.delete(state);
    return flow;
  }

  /** Ends every flow of a server (sign-out). */
  forget(serverId: string): void {
    for (const [state, flow] of this.#flows) {
      if (flow.serverId === serverId) this.#flows.delete(state);
    }
  }

  #prune(): void {
    const oldest = this.#now() - this.#ttlMs;
    for (const [state, flow] of this.#flows) {
      if (flow.createdAt < oldest) this.#flows.delete(state);
    }
  }
}

/** 32 random bytes, base64url. */
function randomState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}
