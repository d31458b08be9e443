/**
 * When the connections reconnect a server in `error` by themselves: with backoff (1 s doubling
 * to 30 s) while someone wants the server (the active workspace enables it, a call runs, a chat
 * or the API used it lately, or it has lost tasks waiting to be followed again). A stdio server
 * is started at most {@link MAX_FAILED_STARTS} times in a row; then Lass stops until the user's
 * Connect. Every plan shows in the server's state (`retry`).
 */
import type { ServiceConfig } from "../../../wire/config/schema.ts";
import { MAX_FAILED_STARTS, type RetryState } from "../../../wire/tool_servers.ts";
import { activeServerIds, type Entry } from "./entry.ts";
import { ReconnectTimers } from "./reconnects.ts";

/** A server used this recently (by a chat or the API) keeps healing even outside the active workspace. */
const RECENT_USE_MS = 60_000;

/** What healing asks of the connections. */
export interface HealingHost {
  config(): ServiceConfig;
  /** Whether `entry` is still its server's entry and the connections are open. */
  current(entry: Entry): boolean;
  /** Connects in the background, as a retry (it does not count as a use). */
  connect(id: string): void;
  /** Whether a server has lost tasks waiting to be followed again. */
  tasksWaiting(id: string): boolean;
  /** The reconnect plan of a server in `error` changed: its state shows it. */
  report(entry: Entry, retry: RetryState): void;
  /** How long a use keeps a server healing; default 60 s. */
  recentUseMs?: number;
  /** The first backoff wait; default 1 s. */
  firstDelayMs?: number;
}

/** The reconnect timers and failure counts of every server, and the rule of when to use them. */
export class Healing {
  readonly #host: HealingHost;
  readonly #timers: ReconnectTimers;
  /** Failed connects in a row, per server id. */
  readonly #failures = new Map<string, number>();

  constructor(host: HealingHost) {
    this.#host = host;
    this.#timers = new ReconnectTimers(host.firstDelayMs);
  }

  /** Reconnects a server in `error` with the backoff, unless one is planned or Lass stopped. */
  heal(entry: Entry): void {
    if (entry.state.status === "error" && !this.#timers.pending(entry.record.id)) {
      this.later(entry);
    }
  }

  /** A connect ended in `error`: it counts, and the next one is planned (or Lass stops). */
  failed(entry: Entry): void {
    const id = entry.record.id;
    this.#failures.set(id, (this.#failures.get(id) ?? 0) + 1);
    this.later(entry);
  }

  /** Plans the next reconnect of a server in `error`, if someone still wants it. */
  later(entry: Entry): void {
    const id = entry.record.id;
    if (!this.#host.current(entry)) return;
    const attempts = this.#failures.get(id) ?? 0;
    const maxAttempts = this.#limit(entry);
    const known = { attempts, ...(maxAttempts !== undefined && { maxAttempts }) };
    if (maxAttempts !== undefined && attempts >= maxAttempts) {
      this.#timers.cancel(id);
      return this.#host.report(entry, { ...known, stopped: true });
    }
    if (!this.#wanted(entry)) return this.#host.report(entry, known);
    const inMs = this.#timers.schedule(id, () => {
      if (!this.#host.current(entry)) return;
      if (entry.state.status !== "error" || entry.connecting) return;
      if (this.#wanted(entry)) this.#host.connect(id);
      else this.#host.report(entry, known);
    });
    this.#host.report(entry, { ...known, at: new Date(Date.now() + inMs).toISOString(), inMs });
  }

  /** What a retry that starts now shows while it runs: the attempts so far, no time. */
  running(entry: Entry): RetryState | undefined {
    const attempts = this.#failures.get(entry.record.id);
    if (attempts === undefined) return undefined;
    const maxAttempts = this.#limit(entry);
    return { attempts, ...(maxAttempts !== undefined && { maxAttempts }) };
  }

  /** A retry starts: the planned one is not needed (the backoff goes on). */
  cancel(id: string): void {
    this.#timers.cancel(id);
  }

  /**
   * The server connected, was disconnected or removed, or the user connects it: the count and
   * the backoff start again.
   */
  reset(id: string): void {
    this.#timers.reset(id);
    this.#failures.delete(id);
  }

  /** Stops every planned reconnect (shutdown). */
  clear(): void {
    this.#timers.clear();
    this.#failures.clear();
  }

  /** How many failed connects in a row Lass makes by itself: stdio servers are started 5 times. */
  #limit(entry: Entry): number | undefined {
    return entry.record.transport === "stdio" ? MAX_FAILED_STARTS : undefined;
  }

  #wanted(entry: Entry): boolean {
    const id = entry.record.id;
    return activeServerIds(this.#host.config()).has(id) || entry.calls.length > 0 ||
      Date.now() - entry.usedAt < (this.#host.recentUseMs ?? RECENT_USE_MS) ||
      this.#host.tasksWaiting(id);
  }
}
