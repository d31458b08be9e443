/**
 * DPoP (RFC 9449) for one tool server: the proof-of-possession key kept in Lass's token store
 * (one per server, made on first use, gone at sign-out) and the SDK's `DpopSession` over it, which
 * signs a fresh proof for the token endpoint and for every MCP request and remembers each
 * server's `DPoP-Nonce`. The SDK asks a provider's `dpop()` for the session; it presents a token
 * with the `DPoP` scheme only when the authorization server issued `token_type: DPoP`.
 */
import type { DpopAlg, DpopSession } from "@modelcontextprotocol/client";
import type { JWK } from "jose";
import type { StoredDpopKey } from "./store.ts";
import type { StoredParts } from "./_stored_parts.ts";

/** Signing algorithms Lass makes DPoP keys for, in order of preference. */
const ALGS: readonly DpopAlg[] = ["ES256", "ES384", "EdDSA", "PS256", "RS256"];

/**
 * When to use DPoP: `true` always, `false` never, `undefined` when the authorization server
 * advertises it (`dpop_signing_alg_values_supported`) or the resource requires DPoP-bound tokens.
 */
export type DpopSetting = boolean | undefined;

/** The DPoP key and session of one connection's provider. */
export class DpopKeys {
  readonly #stored: StoredParts;
  readonly #setting: DpopSetting;
  #session?: Promise<DpopSession>;

  constructor(stored: StoredParts, setting: DpopSetting) {
    this.#stored = stored;
    this.#setting = setting;
  }

  /** The session to sign proofs with, or `undefined` when this server does not use DPoP. */
  async session(): Promise<DpopSession | undefined> {
    if (this.#setting === false) return undefined;
    const offered = await this.#offered();
    if (this.#setting === undefined && offered === undefined) return undefined;
    if (!this.#session) {
      this.#session = this.#open(offered ?? []);
      // A failure (no key could be made) is this call's; the next one tries again.
      this.#session.catch(() => this.#session = undefined);
    }
    return await this.#session;
  }

  /** The algorithms the authorization server offers, or `undefined` when it names no DPoP. */
  async #offered(): Promise<string[] | undefined> {
    const state = (await this.#stored.read()).discoveryState;
    const server = state?.authorizationServerMetadata as
      | { dpop_signing_alg_values_supported?: unknown }
      | undefined;
    const resource = state?.resourceMetadata as
      | { dpop_bound_access_tokens_required?: unknown }
      | undefined;
    const algs = server?.dpop_signing_alg_values_supported;
    if (Array.isArray(algs) && algs.length > 0) return algs.filter((a) => typeof a === "string");
    return resource?.dpop_bound_access_tokens_required === true ? [] : undefined;
  }

  /** Loads the server's key from the store, or makes one and keeps it there. */
  async #open(offered: string[]): Promise<DpopSession> {
    let key = (await this.#stored.read()).dpopKey;
    if (!key || (offered.length > 0 && !offered.includes(key.alg))) {
      const alg = ALGS.find((candidate) => offered.includes(candidate)) ?? "ES256";
      const made = await makeKey(alg);
      // Another connection may have made one meanwhile: the stored key wins.
      await this.#stored.update((parts) => ({
        ...parts,
        dpopKey: parts.dpopKey && parts.dpopKey.alg === alg ? parts.dpopKey : made,
      }));
      key = (await this.#stored.read()).dpopKey ?? made;
    }
    const { DpopSession } = await import("@modelcontextprotocol/client");
    return await DpopSession.create({ keyPair: await keyPairOf(key) });
  }
}

/** A new key pair for `alg`, as the store keeps it (the private JWK). */
async function makeKey(alg: DpopAlg): Promise<StoredDpopKey> {
  // jose loads with the first DPoP key, not at startup.
  const { exportJWK, generateKeyPair } = await import("jose");
  const { privateKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, jwk: await exportJWK(privateKey) as StoredDpopKey["jwk"] };
}

/** The SDK's key pair of a stored key. */
async function keyPairOf(key: StoredDpopKey) {
  const alg = key.alg as DpopAlg;
  const { calculateJwkThumbprint, importJWK } = await import("jose");
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...publicJwk } = key.jwk as JWK;
  const privateKey = await importJWK(key.jwk as JWK, alg) as CryptoKey;
  const publicKey = await importJWK(publicJwk, alg) as CryptoKey;
  return {
    privateKey,
    publicKey,
    publicJwk,
    thumbprint: await calculateJwkThumbprint(publicJwk, "sha256"),
    alg,
  };
}
