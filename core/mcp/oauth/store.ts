/** OAuth credentials of tool servers: one private JSON file per server id in the data dir. */
import { join } from "node:path";
import { type FileSystem, SerialQueue, writeFileAtomic } from "../../files.ts";
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";

export type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens };

/**
 * What Lass keeps for one tool server. Each part is the object the SDK handed over, unchanged
 * (it carries the `issuer` the SDK binds it to); `serverUrl` binds the whole record to the
 * server it was obtained for, so a record edited to point elsewhere never sends these tokens there.
 */
export interface StoredAuth {
  serverUrl: string;
  clientInformation?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  /** When `tokens` were saved (ISO 8601): with `expires_in` it tells when they expire. */
  tokensSavedAt?: string;
  /**
   * The client whose machine-to-machine grant obtained `tokens` (`<auth method> <client id>`);
   * absent for a browser sign-in. Tokens of another client are not used.
   */
  tokensClient?: string;
  discoveryState?: OAuthDiscoveryState;
  /** The server's DPoP key (RFC 9449): tokens bound to it are useless without it. */
  dpopKey?: StoredDpopKey;
}

/** A DPoP private key as kept in the store: its JWS algorithm and the private JWK. */
export interface StoredDpopKey {
  alg: string;
  jwk: Record<string, unknown>;
}

/** The parts of a record that may change. */
export type AuthParts = Omit<StoredAuth, "serverUrl">;

const ID = /^[A-Za-z0-9_-]{1,128}$/;
/** How many replaced token values stay known for scrubbing messages. */
const RETIRED_SECRETS = 20;

/**
 * The store of OAuth credentials. Files are written atomically with mode 0600 in a 0700 folder;
 * reads are cached (only this process writes them). A sign-out starts a new epoch for its server,
 * and writes from flows of an older epoch are dropped, so a refresh that finishes late cannot
 * bring forgotten tokens back.
 */
export class OAuthStore {
  readonly #fs: FileSystem;
  readonly #dir: string;
  readonly #cache = new Map<string, StoredAuth | null>();
  readonly #queues = new Map<string, SerialQueue>();
  readonly #epochs = new Map<string, number>();
  readonly #retired = new Map<string, string[]>();

  constructor(fs: FileSystem, dir: string) {
    this.#fs = fs;
    this.#dir = dir;
  }

  /** The file of a server's credentials. */
  pathOf(id: string): string {
    if (!ID.test(id)) throw new Error(`not a tool-server id: ${JSON.stringify(id)}`);
    return join(this.#dir, `${id}.json`);
  }

  /** The current epoch of a server; it changes when its credentials are forgotten. */
  epoch(id: string): number {
    return this.#epochs.get(id) ?? 0;
  }

  /** A server's credentials for `serverUrl`; empty when none are stored or they were for another URL. */
  async read(id: string, serverUrl: string): Promise<AuthParts> {
    const record = await this.#load(id);
    if (!record || record.serverUrl !== serverUrl) return {};
    const { serverUrl: _, ...parts } = record;
    return parts;
  }

  /**
   * Changes a server's credentials: `change` gets the current parts (empty for another URL) and
   * returns the new ones. Writes of one server run one at a time; a write from an older epoch is
   * dropped. A record left empty removes the file.
   */
  update(
    id: string,
    serverUrl: string,
    epoch: number,
    change: (parts: AuthParts) => AuthParts,
  ): Promise<void> {
    return this.#queue(id).run(async () => {
      if (epoch !== this.epoch(id)) return;
      const before = await this.read(id, serverUrl);
      const after = change(before);
      this.#retire(id, before, after);
      const empty = Object.values(after).every((value) => value === undefined);
      if (empty) {
        this.#cache.set(id, null);
        await this.#fs.remove(this.pathOf(id));
        return;
      }
      const record: StoredAuth = { serverUrl, ...after };
      await writeFileAtomic(this.#fs, this.pathOf(id), `${JSON.stringify(record, null, 2)}\n`, {
        mode: 0o600,
        dirMode: 0o700,
      });
      this.#cache.set(id, record);
    });
  }

  /** Forgets every credential of a server (its file too) and starts a new epoch. */
  remove(id: string): Promise<boolean> {
    this.#epochs.set(id, this.epoch(id) + 1);
    return this.#queue(id).run(async () => {
      const record = await this.#load(id);
      if (record) this.#retire(id, record, {});
      this.#cache.set(id, null);
      return await this.#fs.remove(this.pathOf(id));
    });
  }

  /** The secret values known for a server (tokens, client secret), for taking out of messages. */
  secrets(id: string): string[] {
    const record = this.#cache.get(id);
    return [...secretValues(record ?? undefined), ...(this.#retired.get(id) ?? [])];
  }

  async #load(id: string): Promise<StoredAuth | null> {
    if (this.#cache.has(id)) return this.#cache.get(id)!;
    let record: StoredAuth | null = null;
    const text = await this.#fs.readText(this.pathOf(id));
    if (text !== undefined) {
      try {
        const parsed = JSON.parse(text);
        if (parsed && typeof parsed === "object" && typeof parsed.serverUrl === "string") {
          record = parsed as StoredAuth;
        }
      } catch {
        // A damaged file counts as no credentials; the next save replaces it.
      }
    }
    if (!this.#cache.has(id)) this.#cache.set(id, record);
    return this.#cache.get(id)!;
  }

  #queue(id: string): SerialQueue {
    let queue = this.#queues.get(id);
    if (!queue) this.#queues.set(id, queue = new SerialQueue());
    return queue;
  }

  /** Remembers replaced secrets, so a message that still quotes an old token is scrubbed too. */
  #retire(id: string, before: AuthParts, after: AuthParts): void {
    const kept = new Set(secretValues(after));
    const gone = secretValues(before).filter((value) => !kept.has(value));
    if (gone.length === 0) return;
    const list = [...(this.#retired.get(id) ?? []), ...gone];
    this.#retired.set(id, list.slice(-RETIRED_SECRETS));
  }
}

/** The secret strings of a record. */
function secretValues(parts: AuthParts | undefined): string[] {
  if (!parts) return [];
  const tokens = parts.tokens as Record<string, unknown> | undefined;
  const client = parts.clientInformation as Record<string, unknown> | undefined;
  return [
    tokens?.access_token,
    tokens?.refresh_token,
    tokens?.id_token,
    client?.client_secret,
    client?.registration_access_token,
    parts.dpopKey?.jwk.d,
  ].filter((value): value is string => typeof value === "string" && value.length >= 4);
}
