/**
 * The chat turns running in a service, so that closing it ends them first: each is aborted and
 * saves what it streamed (an aborted ending) before the session store closes.
 */

/** How long closing waits for aborted turns to save; a turn stuck longer is left behind. */
export const SETTLE_MS = 5_000;

/** Running turns and the signal that closing aborts them with. */
export class TurnsInFlight {
  readonly #closing = new AbortController();
  readonly #running = new Set<Promise<void>>();

  /** Aborted when the service closes: every turn's signal follows it. */
  get signal(): AbortSignal {
    return this.#closing.signal;
  }

  /** `turn`'s chunks, counted as running from its first chunk asked for until it is done. */
  track<T>(turn: AsyncGenerator<T>): AsyncGenerator<T> {
    const running = this.#running;
    return (async function* () {
      let done!: () => void;
      const settled = new Promise<void>((resolve) => done = resolve);
      running.add(settled);
      try {
        yield* turn;
      } finally {
        running.delete(settled);
        done();
      }
    })();
  }

  /** Aborts every running turn and waits until they are done, at most {@link SETTLE_MS}. */
  async close(ms = SETTLE_MS): Promise<void> {
    this.#closing.abort(new Error("Lass is shutting down"));
    if (this.#running.size === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<void>((resolve) => timer = setTimeout(resolve, ms));
    await Promise.race([Promise.all(this.#running), late]);
    clearTimeout(timer);
  }
}
