/**
 * `lass proxy --url`: sends what crosses the stdio proxy to a running Lass, which shows it in the
 * server's wire trace and its proxy clients. Messages go in batches, behind the relay, so that a
 * slow or absent Lass never slows the client.
 */

/** The most messages one report carries. */
const BATCH = 200;

/** Reports one stdio proxy session to a running Lass. */
export class ProxyReporter {
  readonly #endpoint: string;
  readonly #token: string;
  readonly #session = crypto.randomUUID();
  #queue: { dir: "out" | "in"; message: unknown }[] = [];
  #sending: Promise<void> = Promise.resolve();
  #failed = false;
  readonly #warn: (message: string) => void;

  constructor(url: string, token: string, serverId: string, warn: (message: string) => void) {
    this.#endpoint = new URL(
      `/api/mcp/${encodeURIComponent(serverId)}/proxy/messages`,
      url,
    ).href;
    this.#token = token;
    this.#warn = warn;
  }

  /** The stdio session's id, as Lass knows it. */
  get session(): string {
    return this.#session;
  }

  /** Resolves once the messages queued so far were sent (or given up). */
  sent(): Promise<void> {
    return this.#sending;
  }

  /** Queues a message that crossed; it is sent with the next batch. */
  add(dir: "out" | "in", message: unknown): void {
    if (this.#failed) return;
    this.#queue.push({ dir, message });
    if (this.#queue.length === 1) this.#sending = this.#sending.then(() => this.#flush(false));
  }

  /** Sends what is left and says the session ended. */
  async close(): Promise<void> {
    await this.#sending;
    if (!this.#failed) await this.#flush(true);
  }

  async #flush(closed: boolean): Promise<void> {
    while (this.#queue.length > 0 || closed) {
      const messages = this.#queue.splice(0, BATCH);
      const last = closed && this.#queue.length === 0;
      try {
        const response = await fetch(this.#endpoint, {
          method: "POST",
          headers: { "content-type": "application/json", "x-service-token": this.#token },
          body: JSON.stringify({
            session: this.#session,
            messages,
            ...(last && { closed: true }),
          }),
        });
        if (!response.ok) {
          const body = await response.json().catch(() => ({}));
          throw new Error(body?.error?.message ?? `HTTP ${response.status}`);
        }
        await response.body?.cancel();
      } catch (error) {
        this.#failed = true;
        this.#queue = [];
        this.#warn(`the trace is not sent to Lass any more: ${(error as Error).message}`);
        return;
      }
      if (last) return;
    }
  }
}
