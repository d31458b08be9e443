/**
 * The service's pins: what a connected server offers is compared with its entry in the lock
 * file, or else with the first definitions seen (kept in the data dir on first sight); a drift is
 * announced as an `mcp.drift` event once per distinct set of changes, and accepting it makes what
 * the server offers now the pins (in the lock when it came from there).
 */
import { type FileSystem, SerialQueue } from "../../files.ts";
import type { EventBus } from "../../events.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import type { ConnectionState } from "../../../wire/tool_servers.ts";
import type { PinDrift, PinnedServer, PinSource } from "../../../wire/pinning.ts";
import type { DriftEventData } from "../../../wire/events.ts";
import { FirstSeenPins, PinFileError, readLock, writeLock } from "./pin_files.ts";
import type { LockReport, LockRequest, PinCandidate } from "./lock_check.ts";

// Hashing (node:crypto) and diffing (`diff`, `fast-json-patch`) load with the first review, not
// when the service opens.
const canonical = () => import("./canonical.ts");
const differ = () => import("./diff.ts");

/** What the keeper needs: files, where the lock is, the data dir's pins folder, events. */
export interface PinKeeperOptions {
  fs: FileSystem;
  /** The lock file's path (beside the config), read at every review. */
  lockPath: () => string;
  /** The folder of the first definitions seen (`<data dir>/pins`). */
  dir: string;
  events: EventBus;
  /** A warning for a server's log (an unreadable lock file). */
  warn?: (serverId: string, message: string) => void;
}

/** The outcome of a review: the drift (none when the server matches) and whether it is news. */
export interface PinReview {
  drift?: PinDrift;
  /** The changes differ from the last ones announced for the server: announce them. */
  news: boolean;
}

/** Compares connected servers with their pins and keeps the first definitions seen. */
export class PinKeeper {
  readonly #options: PinKeeperOptions;
  readonly #firstSeen: FirstSeenPins;
  /** One review or accept at a time: first sights and accepts never race each other. */
  readonly #queue = new SerialQueue();
  /** The changes last announced per server, as canonical JSON, and since when they hold. */
  readonly #announced = new Map<string, { key: string; since: string }>();

  constructor(options: PinKeeperOptions) {
    this.#options = options;
    this.#firstSeen = new FirstSeenPins(options.fs, options.dir);
  }

  /** Resolves once no review or accept is under way (their files written). */
  idle(): Promise<void> {
    return this.#queue.idle();
  }

  /** The pins a server is compared with, and where they come from. */
  async #baseline(serverId: string): Promise<{ pins?: PinnedServer; source: PinSource }> {
    try {
      const lock = await readLock(this.#options.fs, this.#options.lockPath());
      const pins = lock?.servers[serverId];
      if (pins) return { pins, source: "lock" };
    } catch (error) {
      if (!(error instanceof PinFileError)) throw error;
      this.#options.warn?.(serverId, `pinning ignores the lock file: ${error.message}`);
    }
    try {
      return { pins: await this.#firstSeen.read(serverId), source: "first-seen" };
    } catch (error) {
      if (!(error instanceof PinFileError)) throw error;
      this.#options.warn?.(serverId, `pinning starts anew: ${error.message}`);
      return { source: "first-seen" };
    }
  }

  /**
   * Compares what a connected server offers with its pins. With `pinning: "off"` nothing is
   * compared; a server seen for the first time (no lock entry, no pins kept) is pinned as it is.
   */
  review(record: McpServerConfig, state: ConnectionState): Promise<PinReview> {
    return this.#queue.run(async () => {
      const mode = record.pinning ?? "warn";
      const drift = mode === "off" ? undefined : await this.#drift(record.id, mode, state);
      const key = drift ? (await canonical()).canonicalJson({ changes: drift.changes, mode }) : "";
      const last = this.#announced.get(record.id) ?? { key: "", since: "" };
      const news = last.key !== key;
      // The same drift found again (a reconnect, a list read again) keeps its `since`.
      if (drift && !news) drift.since = last.since;
      this.#announced.set(record.id, { key, since: drift?.since ?? "" });
      return { ...(drift && { drift }), news };
    });
  }

  async #drift(
    serverId: string,
    mode: PinDrift["pinning"],
    state: ConnectionState,
  ): Promise<PinDrift | undefined> {
    const { pinServer, samePins } = await canonical();
    const now = pinServer(state);
    const { pins, source } = await this.#baseline(serverId);
    if (!pins) {
      await this.#firstSeen.write(serverId, now);
      return undefined;
    }
    if (samePins(pins, now)) return undefined;
    const { diffPins, versionChange } = await differ();
    const changes = diffPins(pins, now);
    if (changes.length === 0) return undefined;
    const version = versionChange(pins, now);
    return {
      pinning: mode,
      source,
      since: new Date().toISOString(),
      ...(version && { version }),
      changes,
    };
  }

  /**
   * Announces a review's drift (or its end, `changes: []`) as an `mcp.drift` event; after an
   * accept, with `accepted: true` and where the pins went.
   */
  announce(
    serverId: string,
    drift: PinDrift | undefined,
    accepted?: { source: PinSource },
  ): void {
    const data: DriftEventData = {
      serverId,
      ...(drift
        ? { pinning: drift.pinning, source: drift.source, changes: drift.changes }
        : { changes: [] }),
      ...(drift?.version && { version: drift.version }),
      ...(accepted && { accepted: true, source: accepted.source }),
    };
    this.#options.events.emit("mcp.drift", { ...data });
  }

  /**
   * Makes what a connected server offers now its pins: its lock entry when the lock has one,
   * else the pins kept in the data dir. The caller announces it ({@link announce}) once the
   * server's state no longer shows the drift.
   */
  accept(serverId: string, state: ConnectionState): Promise<PinSource> {
    return this.#queue.run(async () => {
      const now = (await canonical()).pinServer(state);
      const path = this.#options.lockPath();
      const lock = await readLock(this.#options.fs, path).catch(() => undefined);
      let source: PinSource = "first-seen";
      if (lock?.servers[serverId]) {
        await writeLock(this.#options.fs, path, {
          ...lock,
          servers: { ...lock.servers, [serverId]: now },
        });
        source = "lock";
      } else await this.#firstSeen.write(serverId, now);
      this.#announced.delete(serverId);
      return source;
    });
  }

  /** `lass check`'s comparison with a lock file (and its writing, when asked): {@link checkLock}. */
  checkLock(
    request: LockRequest,
    candidates: readonly PinCandidate[],
  ): Promise<LockReport | undefined> {
    return this.#queue.run(async () =>
      (await import("./lock_check.ts")).checkLock(this.#options.fs, request, candidates)
    );
  }
}
