/**
 * A 2026-07-28 `subscriptions/listen` stream that is opened again when it ends without Lass
 * closing it: a proxy's idle timeout, a server that rotates its streams or ends them on a
 * restart. What the server sent while the stream was down is lost, so each reopen is reported
 * (`reopened`) for the owner to read again what the stream follows. A reopen that fails is
 * reported too (`failed`: the session may be gone, which the owner checks) and tried again later,
 * with a growing delay, until the stream is closed.
 */
import type { McpSubscription } from "@modelcontextprotocol/client";

/** Delays before the attempts to reopen (ms); the last one repeats. */
const REOPEN_DELAYS_MS = [0, 250, 1_000, 5_000, 30_000];

/** A stream that lived at least this long starts the delays over when it ends. */
const STEADY_MS = 10_000;

/** What a kept stream tells its owner, and how long it waits before reopening. */
export interface KeptListenOptions {
  /** The stream ended and was opened again: events sent meanwhile are lost. */
  reopened(): void;
  /** The stream ended without Lass closing it, or could not be reopened: why. */
  failed(reason: string): void;
  /** Delays before the attempts to reopen (ms), the last one repeating; tests shorten them. */
  delaysMs?: readonly number[];
}

/** A listen stream kept open; {@link KeptListen.close} ends it for good. */
export class KeptListen {
  #current: McpSubscription;
  #closed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #open: () => Promise<McpSubscription>;
  readonly #options: KeptListenOptions;

  /** Keeps `first` open, reopening it with `open` (the same request) whenever it ends. */
  constructor(
    first: McpSubscription,
    open: () => Promise<McpSubscription>,
    options: KeptListenOptions,
  ) {
    this.#current = first;
    this.#open = open;
    this.#options = options;
    this.#follow(first, 0);
  }

  /** Closes the stream and stops reopening it. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#current.close();
  }

  /** Reopens `subscription` when it ends; `attempt` counts the streams that ended soon. */
  #follow(subscription: McpSubscription, attempt: number): void {
    const opened = performance.now();
    subscription.closed.then((how) => {
      if (how === "local" || this.#closed) return;
      this.#options.failed(
        how === "graceful"
          ? "the server ended the subscription stream"
          : "the subscription stream ended",
      );
      // A stream that ends as soon as it opens must not be reopened in a tight loop.
      this.#reopen(performance.now() - opened >= STEADY_MS ? 0 : attempt);
    });
  }

  #reopen(attempt: number): void {
    const delays = this.#options.delaysMs ?? REOPEN_DELAYS_MS;
    const delay = delays[Math.min(attempt, delays.length - 1)];
    this.#timer = setTimeout(async () => {
      if (this.#closed) return;
      let next: McpSubscription;
      try {
        next = await this.#open();
      } catch (error) {
        if (this.#closed) return;
        this.#options.failed(`cannot reopen the subscription stream: ${(error as Error).message}`);
        return this.#reopen(attempt + 1);
      }
      if (this.#closed) {
        await next.close().catch(() => {});
        return;
      }
      this.#current = next;
      this.#follow(next, attempt + 1);
      this.#options.reopened();
    }, delay);
  }
}
