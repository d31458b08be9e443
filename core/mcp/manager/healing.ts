/**
 * When the connections reconnect a server in `error` by themselves: with backoff (1 s doubling
 * to 30 s) while someone wants the server (the active workspace enables it, a call runs, a chat
 * or the API used it lately, or it has lost tasks waiting to be followed again).
 */
import type { ServiceConfig } from "../../../wire/config/schema.ts";
import { activeServerIds, type Entry } from "./entry.ts";
import { ReconnectTimers } from "./reconnects.ts";

/** A server used this recently (by a chat or the API) keeps healing even outside the active workspace. */
const RECENT_USE_MS = 60_000;

/** What healing asks of the connections. */
export interface HealingHost {
  config(): ServiceConfig;
  /** Whether `entry` is still its server's entry and the connections are open. */
  current(entry: Entry): boolean;
  /** Connects in the background. */
  connect(id: string): void;
  /** Whether a server has lost tasks waiting to be followed again. */
  tasksWaiting(id: string): boolean;
  /** How long a use keeps a server healing; default 60 s. */
  recentUseMs?: number;
}

/** The reconnect timers of every server and the rule of when to use them. */
export class Healing {
  readonly #host: HealingHost;
  readonly #timers = new ReconnectTimers();

  constructor(host: HealingHost) {
    this.#host = host;
  }

  /** Reconnects a server in `error` with the backoff, unless a reconnect is already planned. */
  heal(entry: Entry): void {
    if (entry.state.status === "error" && !this.#timers.pending(entry.record.id)) {
      this.later(entry);
    }
  }

  /** Plans the next reconnect of a server in `error`, if someone still wants it. */
  later(entry: Entry): void {
    const id = entry.record.id;
    if (!this.#host.current(entry) || !this.#wanted(entry)) return;
    this.#timers.schedule(id, () => {
      if (!this.#host.current(entry)) return;
      if (entry.state.status !== "error" || entry.connecting) return;
      if (this.#wanted(entry)) this.#host.connect(id);
    });
  }

  /** A connect starts by other means: the planned one is not needed (the backoff goes on). */
  cancel(id: string): void {
    this.#timers.cancel(id);
  }

  /** The server connected, was disconnected or removed: the next failure starts at 1 s. */
  reset(id: string): void {
    this.#timers.reset(id);
  }

  /** Stops every planned reconnect (shutdown). */
  clear(): void {
    this.#timers.clear();
  }

  #wanted(entry: Entry): boolean {
    const id = entry.record.id;
    return activeServerIds(this.#host.config()).has(id) || entry.calls.length > 0 ||
      Date.now() - entry.usedAt < (this.#host.recentUseMs ?? RECENT_USE_MS) ||
      this.#host.tasksWaiting(id);
  }
}
