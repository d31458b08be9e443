/** The stdio processes the connections started and have not stopped yet, for the shutdown. */

/** How to stop one started process (its whole tree); resolves once it is stopped. */
export type ProcessStop = () => Promise<void>;

/** Keeps how to stop each started process until it is stopped; stops the rest on demand. */
export class StartedProcesses {
  readonly #stops = new Set<ProcessStop>();

  /** Keeps `stop` until the returned function forgets it (the process was stopped). */
  track(stop: ProcessStop): () => void {
    this.#stops.add(stop);
    return () => void this.#stops.delete(stop);
  }

  /** Stops every process still kept, connects under way included; never rejects. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#stops].map((stop) => stop().catch(() => {})));
  }
}
