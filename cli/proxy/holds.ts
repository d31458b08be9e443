/**
 * `lass proxy --url`: the holds of a running Lass applied over stdio. The proxy watches the holds
 * in force for its server (`GET /api/mcp/:id/proxy/holds?watch=true`: one NDJSON line now and one
 * on each change), so a message whose method is not held goes on with no round trip; a held
 * request is posted to `POST /api/mcp/:id/proxy/hold`, which answers with the user's decision.
 * Holds need a running Lass to answer them: while it cannot be reached nothing is held, and a
 * request waiting when it goes away goes on as it came, at once (or, when Lass stays silent, after
 * the hold's timeout and a grace).
 */
import { type HoldOutcome, type HoldsInForce, isHeld } from "../../core/mcp/proxy/holds.ts";
import type { RpcMessage } from "../../core/mcp/proxy/messages.ts";
import { lines } from "../../core/mcp/proxy/stdio_relay.ts";

/** How long the proxy waits for Lass to say its holds before it relays with none. */
const FIRST_HOLDS_MS = 5_000;
/** How long past a hold's timeout the proxy waits for Lass's answer before it forwards itself. */
const GRACE_MS = 5_000;

/** Where the holds come from and what they are reported with. */
export interface LassHoldsOptions {
  url: string;
  token: string;
  serverId: string;
  /** The stdio session, as the proxy's reports name it. */
  session: string;
  /** Resolves once what crossed before is reported (so Lass knows the session and its client). */
  reported(): Promise<void>;
  warn(message: string): void;
  /** How long past a hold's timeout Lass's answer is waited for; default 5 s. */
  graceMs?: number;
}

/** The holds in force for one stdio proxy session, and the decisions on its held requests. */
export class LassHolds {
  readonly #options: LassHoldsOptions;
  readonly #base: string;
  readonly #stop = new AbortController();
  #methods: ReadonlySet<string> = new Set();
  #timeoutMs = 60_000;
  #told = false;

  constructor(options: LassHoldsOptions) {
    this.#options = options;
    this.#base = new URL(`/api/mcp/${encodeURIComponent(options.serverId)}/proxy`, options.url)
      .href;
  }

  /** Starts watching; resolves once Lass said its holds, could not be reached, or took too long. */
  async start(): Promise<void> {
    let ready!: () => void;
    const said = new Promise<void>((resolve) => ready = resolve);
    void this.#watch(ready);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<"late">((resolve) =>
      timer = setTimeout(resolve, FIRST_HOLDS_MS, "late")
    );
    const first = await Promise.race([said, late]);
    clearTimeout(timer);
    if (first === "late") {
      this.#options.warn(`Lass has not said its holds in ${FIRST_HOLDS_MS / 1000} s; relaying`);
    }
  }

  /** The decision on a held request, or `undefined` at once when it is not held. */
  hold(dir: "out" | "in", message: RpcMessage): Promise<HoldOutcome> | undefined {
    return isHeld(this.#methods, message) ? this.#decide(dir, message) : undefined;
  }

  /** Stops watching; requests still waiting are given up (the session ended). */
  close(): void {
    this.#stop.abort();
  }

  async #decide(dir: "out" | "in", message: RpcMessage): Promise<HoldOutcome> {
    const { session, token } = this.#options;
    // Lass is not waited for past the hold's timeout, the report before it included.
    const signal = AbortSignal.any([
      this.#stop.signal,
      AbortSignal.timeout(this.#timeoutMs + (this.#options.graceMs ?? GRACE_MS)),
    ]);
    try {
      await Promise.race([this.#options.reported(), aborted(signal)]);
      const response = await fetch(`${this.#base}/hold`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-service-token": token },
        body: JSON.stringify({ session, dir, message }),
        signal,
      });
      if (!response.ok) throw new Error(await errorOf(response));
      return await response.json() as HoldOutcome;
    } catch (error) {
      // The session ended while it waited: nothing is left to send it to.
      if (this.#stop.signal.aborted) return { action: "drop" };
      this.#options.warn(
        `the held ${message.method} goes on as it came: no decision from Lass (${reason(error)})`,
      );
      return { action: "forward", message };
    }
  }

  async #watch(ready: () => void): Promise<void> {
    try {
      const response = await fetch(`${this.#base}/holds?watch=true`, {
        headers: { "x-service-token": this.#options.token },
        signal: this.#stop.signal,
      });
      if (!response.ok) throw new Error(await errorOf(response));
      for await (const line of lines(response.body!)) {
        if (line.trim() === "") continue;
        this.#apply(JSON.parse(line) as HoldsInForce);
        ready();
      }
      throw new Error("Lass ended the watch");
    } catch (error) {
      if (this.#stop.signal.aborted) return;
      const held = this.#methods.size > 0;
      this.#methods = new Set();
      const what = held ? "holds do not apply any more" : "nothing is held";
      this.#options.warn(`${what}: no holds from Lass at ${this.#options.url} (${reason(error)})`);
    } finally {
      ready();
    }
  }

  #apply(now: HoldsInForce): void {
    const before = [...this.#methods].join(", ");
    this.#methods = new Set(now.holds);
    this.#timeoutMs = now.timeoutMs;
    const after = now.holds.join(", ");
    if (this.#told ? after !== before : after !== "") {
      const { serverId, url } = this.#options;
      this.#options.warn(
        after === ""
          ? "holds now: none"
          : `holds now: ${after} (${serverId}; answer them in ${url})`,
      );
    }
    this.#told = true;
  }
}

/** The contract's error message of a failed answer, or its status. */
async function errorOf(response: Response): Promise<string> {
  const body = await response.json().catch(() => ({}));
  return body?.error?.message ?? `HTTP ${response.status}`;
}

/** Rejects when `signal` aborts. */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
  });
}

function reason(error: unknown): string {
  return (error as Error)?.message ?? String(error);
}
