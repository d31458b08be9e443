/**
 * Replay of one client connection from a cassette: the recorded handshake and lists, requests
 * matched to recorded ones, the notifications and server requests of each in order, and the
 * recorded latency (scaled by `speed`). Transport-free: messages come in by `receive` and go out
 * by the `send` it was made with.
 */
import type { Cassette, CassetteEvent, CassetteExchange } from "../../../wire/cassette.ts";
import { canonicalParams, distance, requestKey } from "./canonical.ts";
import type { ReplayOptions, RpcMessage } from "./types.ts";

/** The JSON-RPC error code of a request that no recorded one matches. */
export const UNMATCHED_CODE = -32000;
/** How long a replayed server request waits for the client's answer before replay goes on. */
const SERVER_REQUEST_WAIT_MS = 60_000;

/** Where replay sends a message; `related` is the id of the client request it belongs to. */
export type ReplaySend = (message: RpcMessage, related?: string | number) => void;

const LISTS: Record<string, [keyof Cassette["lists"], string]> = {
  "tools/list": ["tools", "tools"],
  "prompts/list": ["prompts", "prompts"],
  "resources/list": ["resources", "resources"],
  "resources/templates/list": ["resourceTemplates", "resourceTemplates"],
};

/** Requests replay accepts without a recording: they change only what the server would send. */
const ACCEPTED = new Set(["logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/** One client's connection to a replayed server. */
export class ReplaySession {
  readonly #cassette: Cassette;
  readonly #options: ReplayOptions;
  readonly #send: ReplaySend;
  /** Exchange indexes by request key, in recorded order. */
  readonly #byKey = new Map<string, number[]>();
  readonly #used = new Set<number>();
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  /** Server requests sent and waiting for the client, by their id. */
  readonly #waiting = new Map<string, () => void>();
  /** Client requests cancelled while they played. */
  readonly #cancelled = new Set<string | number>();
  #nextId = 1;
  #closed = false;

  constructor(cassette: Cassette, options: ReplayOptions, send: ReplaySend) {
    this.#cassette = cassette;
    this.#options = options;
    this.#send = send;
    cassette.exchanges.forEach((exchange, index) => {
      const key = requestKey(exchange.request.method, exchange.request.params);
      const list = this.#byKey.get(key) ?? [];
      list.push(index);
      this.#byKey.set(key, list);
    });
  }

  /** A message from the client. */
  receive(message: RpcMessage): void {
    if (this.#closed || message === null || typeof message !== "object") return;
    if (typeof message.method !== "string") {
      // The client's answer to a replayed server request.
      if (message.id !== undefined && message.id !== null) {
        this.#waiting.get(String(message.id))?.();
      }
      return;
    }
    if (message.id === undefined || message.id === null) {
      if (message.method === "notifications/cancelled") {
        const id = message.params?.requestId;
        if (typeof id === "string" || typeof id === "number") this.#cancelled.add(id);
      }
      return;
    }
    this.#answer(message as RpcMessage & { id: string | number; method: string }).catch(() => {});
  }

  /** Stops every timer and wait; nothing more is sent. */
  close(): void {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const wake of this.#waiting.values()) wake();
  }

  async #answer(request: RpcMessage & { id: string | number; method: string }): Promise<void> {
    const { id, method } = request;
    const server = this.#cassette.server;
    const reply = (body: Pick<RpcMessage, "result" | "error">) =>
      this.#out({ jsonrpc: "2.0", id, ...body }, id);
    if (method === "initialize") {
      if (server.era === "modern") {
        return reply({
          error: {
            code: -32022,
            message: "Unsupported protocol version: this recording speaks 2026-07-28 only",
            data: { supported: [server.protocolVersion ?? "2026-07-28"] },
          },
        });
      }
      return reply({ result: server.handshake ?? initializeResult(this.#cassette, request) });
    }
    if (method === "server/discover") {
      if (server.era === "legacy") {
        return reply({ error: { code: -32601, message: "Method not found" } });
      }
      return reply({ result: server.handshake ?? discoverResult(this.#cassette) });
    }
    if (method === "ping") return reply({ result: {} });
    const exchange = this.#find(method, request.params);
    if (exchange) return await this.#play(exchange, request);
    const list = LISTS[method];
    if (list && request.params?.cursor === undefined) {
      return reply({ result: { [list[1]]: this.#cassette.lists[list[0]] } });
    }
    if (method === "subscriptions/listen") {
      // A listen stream with another filter takes the recorded stream (or a bare acknowledgement):
      // it stays open, as a listen stream does.
      const recorded = this.#cassette.exchanges.find((e) => e.request.method === method);
      if (recorded) return await this.#play(recorded, request);
      const params = { notifications: request.params?.notifications ?? {} };
      return this.#out({
        jsonrpc: "2.0",
        method: "notifications/subscriptions/acknowledged",
        params,
      }, id);
    }
    // Settings that change nothing in a recording are accepted.
    if (ACCEPTED.has(method)) return reply({ result: {} });
    reply({ error: this.#unmatched(method, request.params) });
  }

  /** The recorded exchange a request gets: the first unused exact match, else the last one. */
  #find(method: string, params: unknown): CassetteExchange | undefined {
    const exact = this.#byKey.get(requestKey(method, params));
    if (exact) {
      const index = exact.find((candidate) => !this.#used.has(candidate)) ?? exact.at(-1)!;
      this.#used.add(index);
      return this.#cassette.exchanges[index];
    }
    if (this.#options.match !== "tool" || method !== "tools/call") return undefined;
    const name = (params as { name?: unknown } | undefined)?.name;
    const args = (params as { arguments?: unknown } | undefined)?.arguments ?? {};
    let best: CassetteExchange | undefined;
    let bestDistance = Infinity;
    for (const exchange of this.#cassette.exchanges) {
      const recorded = exchange.request;
      if (recorded.method !== "tools/call" || recorded.params?.name !== name) continue;
      const apart = distance(recorded.params?.arguments ?? {}, args);
      if (apart < bestDistance) [best, bestDistance] = [exchange, apart];
    }
    return best;
  }

  /** The error of a request no recording matches, naming the closest recorded request. */
  #unmatched(method: string, params: unknown): NonNullable<RpcMessage["error"]> {
    const wanted = canonicalParams(params);
    let closest: CassetteExchange["request"] | undefined;
    let best = Infinity;
    for (const { request } of this.#cassette.exchanges) {
      const apart = (request.method === method ? 0 : 1000) +
        distance(canonicalParams(request.params), wanted);
      if (apart < best) [closest, best] = [request, apart];
    }
    const name = (wanted as { name?: unknown; uri?: unknown }).name ??
      (wanted as { uri?: unknown }).uri;
    return {
      code: UNMATCHED_CODE,
      message: `Lass replay: no recorded ${method}${
        name !== undefined ? ` of ${JSON.stringify(name)}` : ""
      } matches these params${
        closest
          ? `; the closest recorded request is ${closest.method} ${
            JSON.stringify(canonicalParams(closest.params))
          }`
          : "; the cassette has no requests"
      }`,
      data: {
        replay: "unmatched",
        request: { method, params: wanted },
        closest: closest
          ? { method: closest.method, params: canonicalParams(closest.params) }
          : null,
      },
    };
  }

  /** Sends an exchange's events and answer at their recorded times. */
  async #play(exchange: CassetteExchange, request: RpcMessage & { id: string | number }) {
    const started = performance.now();
    const events = exchange.events ?? [];
    for (const event of events.filter((e) => !e.after)) {
      await this.#until(started + this.#scaled(event.at));
      await this.#emit(event, request);
    }
    if (exchange.ms === undefined) return; // Never answered when recorded (a listen stream).
    await this.#until(started + this.#scaled(exchange.ms));
    if (this.#cancelled.delete(request.id)) return;
    const body = exchange.error !== undefined
      ? { error: exchange.error }
      : exchange.result !== undefined
      ? { result: exchange.result }
      : {
        error: {
          code: -32603,
          message: "Lass replay: this answer was over 64 KiB and the recording clipped it",
        },
      };
    this.#out({ jsonrpc: "2.0", id: request.id, ...body }, request.id);
    const answered = performance.now();
    for (const event of events.filter((e) => e.after)) {
      await this.#until(answered + this.#scaled(event.at));
      await this.#emit(event);
    }
  }

  /** Sends a recorded notification or server request (with a new id, waiting for its answer). */
  async #emit(event: CassetteEvent, request?: RpcMessage & { id: string | number }) {
    const message = { ...event.message } as RpcMessage;
    if (this.#closed || (request && this.#cancelled.has(request.id))) return;
    if (message.method === "notifications/progress") {
      // Progress names the live request's token; a request that asked for none gets none.
      const token = (request?.params?._meta as { progressToken?: unknown } | undefined)
        ?.progressToken;
      if (token === undefined) return;
      message.params = { ...message.params, progressToken: token };
    }
    if (message.id === undefined || message.id === null) {
      return this.#out(message, request?.id);
    }
    const id = `lass-replay-${this.#nextId++}`;
    const answered = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SERVER_REQUEST_WAIT_MS);
      this.#waiting.set(id, () => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve();
      });
    });
    this.#out({ ...message, id }, request?.id);
    await answered;
  }

  #out(message: RpcMessage, related?: string | number): void {
    if (!this.#closed) this.#send(message, related);
  }

  #scaled(ms: number): number {
    return this.#options.speed > 0 ? ms / this.#options.speed : 0;
  }

  /** Waits until `performance.now()` reaches `time` (at once with `speed: 0`). */
  #until(time: number): Promise<void> {
    const wait = time - performance.now();
    if (this.#options.speed === 0 || wait <= 0 || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, wait);
      this.#timers.add(timer);
    });
  }
}

/** An `initialize` result from the cassette's server part, when the raw one was not recorded. */
function initializeResult(cassette: Cassette, request: RpcMessage): Record<string, unknown> {
  const { server } = cassette;
  return {
    protocolVersion: server.protocolVersion ?? request.params?.protocolVersion ?? "2025-06-18",
    capabilities: server.capabilities,
    serverInfo: server.serverInfo ?? { name: server.id, version: "0.0.0" },
    ...(server.instructions !== undefined && { instructions: server.instructions }),
  };
}

/** A `server/discover` result from the cassette's server part, when the raw one was not recorded. */
function discoverResult(cassette: Cassette): Record<string, unknown> {
  const { server } = cassette;
  return {
    resultType: "complete",
    supportedVersions: [server.protocolVersion ?? "2026-07-28"],
    capabilities: server.capabilities,
    ...(server.serverInfo && { serverInfo: server.serverInfo }),
    ...(server.instructions !== undefined && { instructions: server.instructions }),
    ttlMs: 0,
    cacheScope: "private",
  };
}
