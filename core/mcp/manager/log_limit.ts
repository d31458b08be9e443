/**
 * The log lines of one tool server: at most `perSecond` become `mcp.log` events in each one-second
 * window, the rest are counted and reported once when the window ends; the last `keep` lines are
 * kept whatever was emitted, for `GET /api/mcp/:id/log`.
 */

/** Timers, replaceable in tests. */
export interface LogClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

/** One kept line. */
export interface LogLine {
  /** ISO time. */
  at: string;
  level: string;
  logger?: string;
  message: string;
}

const realClock: LogClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer as number),
};

/** Events a server may emit per window; the window's length; lines kept. */
export const LOG_EVENTS_PER_SECOND = 50;
export const LOG_WINDOW_MS = 1000;
export const LOG_KEPT_LINES = 200;

/** The rate limit and the recent lines of one server's log. */
export class ServerLog {
  readonly #clock: LogClock;
  readonly #onDropped: (count: number) => void;
  readonly #perWindow: number;
  readonly #keep: number;
  /** A ring of the last lines, with their time in ms (formatted when read). */
  readonly #lines: { at: number; line: Omit<LogLine, "at"> }[] = [];
  #next = 0;
  #windowStart = -Infinity;
  #emitted = 0;
  #dropped = 0;
  #timer: unknown;
  #closed = false;

  /** `onDropped` runs when a window ends in which lines were held back. */
  constructor(
    onDropped: (count: number) => void,
    options: { clock?: LogClock; perWindow?: number; keep?: number } = {},
  ) {
    this.#onDropped = onDropped;
    this.#clock = options.clock ?? realClock;
    this.#perWindow = options.perWindow ?? LOG_EVENTS_PER_SECOND;
    this.#keep = options.keep ?? LOG_KEPT_LINES;
  }

  /** Keeps a line; true when it may also become an event now. */
  admit(line: Omit<LogLine, "at">): boolean {
    const now = this.#clock.now();
    if (this.#lines.length < this.#keep) this.#lines.push({ at: now, line });
    else this.#lines[this.#next] = { at: now, line };
    this.#next = (this.#next + 1) % this.#keep;
    if (now - this.#windowStart >= LOG_WINDOW_MS) {
      // The last window's report comes first, even when its timer has not run yet.
      if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
      this.#flush();
      this.#windowStart = now;
      this.#emitted = 0;
    }
    if (this.#emitted < this.#perWindow) {
      this.#emitted++;
      return true;
    }
    if (this.#dropped++ === 0 && !this.#closed) {
      const left = Math.max(0, this.#windowStart + LOG_WINDOW_MS - now);
      this.#timer = this.#clock.setTimeout(() => this.#flush(), left);
    }
    return false;
  }

  #flush(): void {
    this.#timer = undefined;
    const count = this.#dropped;
    this.#dropped = 0;
    if (count > 0) this.#onDropped(count);
  }

  /** The last lines, oldest first. */
  lines(): LogLine[] {
    const ordered = this.#lines.length < this.#keep
      ? this.#lines
      : [...this.#lines.slice(this.#next), ...this.#lines.slice(0, this.#next)];
    return ordered.map(({ at, line }) => ({ at: new Date(at).toISOString(), ...line }));
  }

  /**
   * Reports held-back lines now and sets no more timers (the server is removed or the service
   * stops); lines over the limit after this are only kept.
   */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#flush();
  }
}
