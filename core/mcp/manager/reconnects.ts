/** Connections that heal: reconnect tries with backoff, and a heartbeat that notices a lost peer. */

/** The first wait before a reconnect, then doubled per failed try, at most {@link MAX_DELAY_MS}. */
export const FIRST_DELAY_MS = 1000;
export const MAX_DELAY_MS = 30_000;

/** The wait before try number `attempt` (0-based): 1 s, 2 s, 4 s, ... at most 30 s. */
export function backoffDelay(attempt: number, firstMs: number = FIRST_DELAY_MS): number {
  return Math.min(MAX_DELAY_MS, firstMs * 2 ** Math.min(attempt, 16));
}

/** One timer per server id: a newer schedule replaces an older one. */
export class ReconnectTimers {
  readonly #timers = new Map<string, { timer: ReturnType<typeof setTimeout>; attempt: number }>();
  readonly #attempts = new Map<string, number>();
  readonly #firstMs: number;

  /** `firstMs`: the first wait (default 1 s), doubled per try. */
  constructor(firstMs: number = FIRST_DELAY_MS) {
    this.#firstMs = firstMs;
  }

  /** Runs `retry` after the backoff for this id's next attempt. */
  schedule(id: string, retry: () => void): number {
    this.cancel(id);
    const attempt = this.#attempts.get(id) ?? 0;
    this.#attempts.set(id, attempt + 1);
    const delay = backoffDelay(attempt, this.#firstMs);
    const timer = setTimeout(() => {
      this.#timers.delete(id);
      retry();
    }, delay);
    this.#timers.set(id, { timer, attempt });
    return delay;
  }

  /** Whether a retry is waiting for this id. */
  pending(id: string): boolean {
    return this.#timers.has(id);
  }

  /** Stops a waiting retry (the backoff continues where it was). */
  cancel(id: string): void {
    const entry = this.#timers.get(id);
    if (entry) clearTimeout(entry.timer);
    this.#timers.delete(id);
  }

  /** The connection works again: the next loss starts at the first delay. */
  reset(id: string): void {
    this.cancel(id);
    this.#attempts.delete(id);
  }

  /** Stops everything (shutdown). */
  clear(): void {
    for (const { timer } of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
    this.#attempts.clear();
  }
}

/** How often a remote connection is checked, and how long one check may take. */
export const HEARTBEAT_MS = 1000;
export const HEARTBEAT_TIMEOUT_MS = 1000;

/**
 * Checks a remote connection every second; `onLost` runs once when the peer stops answering
 * (two failed checks in a row, so a single slow answer is not a loss).
 */
export function startHeartbeat(
  reachable: (timeoutMs: number) => Promise<boolean>,
  onLost: () => void,
): () => void {
  let stopped = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const beat = async () => {
    if (stopped) return;
    const ok = await reachable(HEARTBEAT_TIMEOUT_MS).catch(() => false);
    if (stopped) return;
    failures = ok ? 0 : failures + 1;
    if (failures >= 2) {
      stopped = true;
      onLost();
      return;
    }
    timer = setTimeout(beat, ok ? HEARTBEAT_MS : 0);
  };
  timer = setTimeout(beat, HEARTBEAT_MS);
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
  };
}
