/**
 * The wire trace of the tool servers: per server, a ring of the last 2,000 JSON-RPC messages that
 * crossed its transport (and its MCP Apps bridge), read by `since`/`limit` or followed live.
 * Recording keeps the message and its time; its JSON text and byte count are made once, after the
 * turn of the event loop that recorded it (off the call's path) or when someone reads it first,
 * and the ISO time and the parsed copy only when someone reads it.
 */
import { Buffer } from "node:buffer";
import type {
  TraceDirection,
  TraceMessage,
  TraceOrigin,
  TraceRequester,
} from "../../../wire/trace.ts";
import { currentRequester } from "../requester.ts";

/** How many messages a server's ring keeps. */
export const TRACE_CAPACITY = 2000;
/** Messages whose JSON is larger than this are clipped in the trace. */
export const MAX_TRACE_MESSAGE_BYTES = 64 * 1024;
/** Requests waiting for their response, per channel and direction, for `ms`; the oldest go first. */
const MAX_PENDING = 1000;

/**
 * Where a transport reports each message that crossed it (`out` Lass → server, `in` back), and,
 * with `closed`, that it closed: requests still unanswered then get an error response in the
 * trace, marked `unanswered` (the SDK fails them with the same error), so none stays pending.
 */
export interface WireSink {
  (dir: "out" | "in", message: unknown): void;
  closed?(): void;
}

/** The error a request gets when its connection closes before the answer (as the SDK's). */
const CONNECTION_CLOSED = { code: -32000, message: "Connection closed" };

/** A message of the MCP Apps bridge, as the browser reports it. */
export interface ViewMessage {
  dir: "view-out" | "view-in";
  message: unknown;
  /** On a response: milliseconds since its request, measured in the browser. */
  ms?: number;
}

/**
 * Which messages a read returns: newer than `since` (the first `limit`), else the last `limit`. A
 * `since` past every seq of this process (a client from before a restart) counts as absent.
 */
export interface TraceQuery {
  since?: number;
  limit: number;
}

/** Where a follow stream starts, and what ends it besides the reader. */
export interface FollowOptions {
  since?: number;
  limit?: number;
  signal?: AbortSignal;
}

/** A message's JSON text, its size, and for a clipped message its envelope. */
interface Serialized {
  /** The JSON text, or for a clipped message its first 64 KiB. */
  text: string;
  bytes: number;
  /** A clipped message's envelope; its `message` is built from it and `text` when read. */
  clipped?: { id?: string | number; method?: string };
}

/** One message as kept: the message until it is serialized, then its JSON text; the rest is made when read. */
interface Recorded {
  seq: number;
  /** ms since the epoch; formatted when read. */
  at: number;
  dir: TraceDirection;
  /** The message as it crossed, until `serialized` is made (then dropped). */
  message?: unknown;
  serialized?: Serialized;
  ms?: number;
  /** A proxied message's proxy session and client, as they were when it crossed. */
  origin?: TraceOrigin;
  /** Lass wrote this error response: the connection closed before the answer came. */
  unanswered?: true;
  /** On a request Lass sent: who asked for it. */
  by?: TraceRequester;
}

/** The traces of every tool server; a server's `seq` keeps counting across reconnects and removal. */
export class ToolServerTraces {
  readonly #traces = new Map<string, ServerTrace>();

  /**
   * A sink for one transport of server `id` (the session's, or a probe's): requests and their
   * responses are paired on it for `ms`. While `enabled()` is false nothing is recorded. A proxy
   * session passes its `origin`, which each message carries as it is when the message crosses.
   */
  channel(id: string, enabled: () => boolean, origin?: TraceOrigin): WireSink {
    const sent = new Map<unknown, number>();
    const received = new Map<unknown, number>();
    const sink: WireSink = (dir, message) => {
      if (!enabled()) return;
      const now = performance.now();
      const { id: rpcId, method } = (message ?? {}) as { id?: unknown; method?: unknown };
      let ms: number | undefined;
      if (rpcId !== undefined && rpcId !== null) {
        if (typeof method === "string") {
          const mine = dir === "out" ? sent : received;
          mine.set(rpcId, now);
          if (mine.size > MAX_PENDING) mine.delete(mine.keys().next().value);
        } else {
          const theirs = dir === "out" ? received : sent;
          const started = theirs.get(rpcId);
          if (started !== undefined) {
            theirs.delete(rpcId);
            ms = Math.round((now - started) * 100) / 100;
          }
        }
      }
      this.#trace(id).push(dir, message, ms, origin && { ...origin });
      if (dir === "out" && typeof method === "string" && !origin) {
        const by = currentRequester();
        if (by) this.#trace(id).markLast(by);
      }
    };
    sink.closed = () => {
      const now = performance.now();
      // Requests Lass sent get their error "in"; requests the server sent, Lass's "out".
      for (const [pending, dir] of [[sent, "in"], [received, "out"]] as const) {
        for (const [rpcId, started] of pending) {
          if (enabled()) {
            this.#trace(id).push(
              dir,
              { jsonrpc: "2.0", id: rpcId, error: CONNECTION_CLOSED },
              Math.round((now - started) * 100) / 100,
              origin && { ...origin },
              true,
            );
          }
        }
        pending.clear();
      }
    };
    return sink;
  }

  /** Records messages of a server's MCP Apps bridge that the browser reports. */
  recordView(id: string, messages: readonly ViewMessage[]): void {
    const trace = this.#trace(id);
    for (const { dir, message, ms } of messages) trace.push(dir, message, ms);
  }

  /** The messages a query selects, oldest first. */
  read(id: string, query: TraceQuery): TraceMessage[] {
    return this.#traces.get(id)?.read(query) ?? [];
  }

  /**
   * The buffered messages newer than `since` (without it the last `limit`, or all), then live
   * ones, until the reader cancels, `signal` aborts or the server is forgotten. A reader that
   * falls more than the ring behind skips to the oldest kept message (the gap shows in `seq`).
   */
  follow(id: string, options: FollowOptions = {}): ReadableStream<TraceMessage> {
    return this.#trace(id).follow(options);
  }

  /** Drops a removed server's messages and ends its followers; its `seq` goes on if it comes back. */
  forget(id: string): void {
    this.#traces.get(id)?.clear();
  }

  /** How many follow streams of a server are open; for tests and diagnostics. */
  followers(id: string): number {
    return this.#traces.get(id)?.followers ?? 0;
  }

  #trace(id: string): ServerTrace {
    let trace = this.#traces.get(id);
    if (!trace) this.#traces.set(id, trace = new ServerTrace(id));
    return trace;
  }
}

/** One server's ring of messages and its followers. */
class ServerTrace {
  readonly #serverId: string;
  /** A circular buffer: `#size` messages from `#start`, oldest first; seqs are consecutive. */
  readonly #ring: (Recorded | undefined)[] = new Array(TRACE_CAPACITY);
  #start = 0;
  #size = 0;
  #nextSeq = 1;
  /** One wake-up function per open follow stream. */
  readonly #followers = new Set<() => void>();
  /** Records not serialized yet; serialized together once the current macrotask is done. */
  #unserialized: Recorded[] = [];

  constructor(serverId: string) {
    this.#serverId = serverId;
  }

  get followers(): number {
    return this.#followers.size;
  }

  push(
    dir: TraceDirection,
    message: unknown,
    ms?: number,
    origin?: TraceOrigin,
    unanswered?: boolean,
  ): void {
    const record: Recorded = { seq: this.#nextSeq++, at: Date.now(), dir, message };
    if (this.#unserialized.push(record) === 1) setTimeout(this.#serializeAll, 0);
    if (unanswered) record.unanswered = true;
    if (ms !== undefined) record.ms = ms;
    if (origin) record.origin = origin;
    if (this.#size < TRACE_CAPACITY) {
      this.#ring[(this.#start + this.#size++) % TRACE_CAPACITY] = record;
    } else {
      this.#ring[this.#start] = record;
      this.#start = (this.#start + 1) % TRACE_CAPACITY;
    }
    for (const wake of this.#followers) wake();
  }

  /**
   * Serializes what was recorded since the last time. A transport hands over a message it is done
   * with (sent, or parsed for the SDK, which validates it into objects of its own), so the text
   * is the message as it crossed.
   */
  readonly #serializeAll = () => {
    const records = this.#unserialized;
    this.#unserialized = [];
    for (const record of records) serializedOf(record);
  };

  /** Marks the message pushed last as a request `by` someone. */
  markLast(by: TraceRequester): void {
    const last = this.#bySeq(this.#nextSeq - 1);
    if (last) last.by = by;
  }

  /** The kept message with this seq, if it is still in the ring. */
  #bySeq(seq: number): Recorded | undefined {
    const first = this.#ring[this.#start];
    const index = first ? seq - first.seq : -1;
    return index >= 0 && index < this.#size
      ? this.#ring[(this.#start + index) % TRACE_CAPACITY]
      : undefined;
  }

  get #firstSeq(): number {
    return this.#size > 0 ? this.#ring[this.#start]!.seq : this.#nextSeq;
  }

  /** `since` as given, or undefined when it is past every seq of this process (a client from before a restart). */
  #known(since: number | undefined): number | undefined {
    return since !== undefined && since < this.#nextSeq ? since : undefined;
  }

  read(query: TraceQuery): TraceMessage[] {
    const since = this.#known(query.since);
    const limit = query.limit;
    const from = since === undefined
      ? Math.max(this.#firstSeq, this.#nextSeq - limit)
      : Math.max(this.#firstSeq, since + 1);
    const to = Math.min(this.#nextSeq, from + limit);
    const messages: TraceMessage[] = [];
    for (let seq = from; seq < to; seq++) {
      const record = this.#bySeq(seq);
      if (record) messages.push(this.#view(record));
    }
    return messages;
  }

  follow({ limit, signal, ...options }: FollowOptions): ReadableStream<TraceMessage> {
    const since = this.#known(options.since);
    const start = since !== undefined ? since + 1 : limit !== undefined ? this.#nextSeq - limit : 0;
    let cursor = Math.max(this.#firstSeq, start);
    let wake: (() => void) | undefined;
    let cancelled = false;
    const follower = () => wake?.();
    const close = () => {
      this.#followers.delete(follower);
      signal?.removeEventListener("abort", close);
      follower();
    };
    this.#followers.add(follower);
    if (signal?.aborted) close();
    else signal?.addEventListener("abort", close, { once: true });
    return new ReadableStream<TraceMessage>({
      pull: async (controller) => {
        while (this.#followers.has(follower)) {
          cursor = Math.max(cursor, this.#firstSeq);
          const record = this.#bySeq(cursor);
          if (record) {
            cursor++;
            controller.enqueue(this.#view(record));
            return;
          }
          await new Promise<void>((resolve) => wake = resolve);
          wake = undefined;
        }
        if (!cancelled) controller.close();
      },
      cancel: () => {
        cancelled = true;
        close();
      },
    }, { highWaterMark: 0 });
  }

  clear(): void {
    this.#ring.fill(undefined);
    this.#start = 0;
    this.#size = 0;
    for (const wake of [...this.#followers]) {
      this.#followers.delete(wake);
      wake();
    }
  }

  #view(record: Recorded): TraceMessage {
    const { text, bytes, clipped } = serializedOf(record);
    return {
      seq: record.seq,
      time: new Date(record.at).toISOString(),
      serverId: this.#serverId,
      dir: record.dir,
      message: clipped ? { jsonrpc: "2.0", ...clipped, clipped: text } : JSON.parse(text),
      bytes,
      ...(record.ms !== undefined && { ms: record.ms }),
      ...(clipped && { truncated: true as const }),
      ...(record.unanswered && { unanswered: true as const }),
      ...(record.by && { by: record.by }),
      ...(record.origin && {
        via: record.origin.via,
        session: record.origin.session,
        ...(record.origin.client && { client: record.origin.client }),
      }),
    };
  }
}

/**
 * A record's JSON text and size, computed once (the message is then dropped); a message over the
 * limit keeps only its envelope and a prefix of that text (the clipped value is made when read).
 */
function serializedOf(record: Recorded): Serialized {
  if (record.serialized) return record.serialized;
  const { message } = record;
  let text: string;
  try {
    text = JSON.stringify(message) ?? "null";
  } catch (error) {
    // Not JSON at all (a transport never sends that): say so rather than break the transport.
    text = JSON.stringify({ unserializable: String((error as Error)?.message ?? error) });
  }
  const bytes = Buffer.byteLength(text, "utf8");
  const serialized: Serialized = { text, bytes };
  if (bytes > MAX_TRACE_MESSAGE_BYTES) {
    const { id, method } = (typeof message === "object" && message !== null ? message : {}) as {
      id?: unknown;
      method?: unknown;
    };
    serialized.clipped = {
      ...(typeof id === "string" || typeof id === "number" ? { id } : {}),
      ...(typeof method === "string" && { method }),
    };
    // The first 64 KiB of UTF-8, without a character cut in two.
    serialized.text = Buffer.from(text.slice(0, MAX_TRACE_MESSAGE_BYTES), "utf8")
      .subarray(0, MAX_TRACE_MESSAGE_BYTES).toString("utf8").replace(/\uFFFD$/, "");
  }
  record.serialized = serialized;
  record.message = undefined;
  return serialized;
}
