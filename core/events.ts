/** The event bus: a ring buffer of recent events, live listeners, and bounded per-client streams. */
import type { EventLine, LassEvent } from "../wire/events.ts";

/** Options of {@link EventBus}. */
export interface EventBusOptions {
  /** How many recent events are kept; default 1,000. */
  capacity?: number;
  /** Events whose data serialises to more bytes than this keep only a note of their size. */
  maxDataBytes?: number;
  now?: () => Date;
}

/** Options of {@link EventBus.stream}. */
export interface EventStreamOptions {
  /**
   * Replay only events with a greater `seq`; absent, or greater than any seq of this process
   * (a client from before a restart): the whole buffer.
   */
  since?: number;
  /** Interval of heartbeat lines; default 15 s. */
  heartbeatMs?: number;
}

interface StreamSubscriber {
  cursor(): number;
  drop(): void;
}

/** A bus of events with a bounded history; no subscriber can make it grow without bound. */
export class EventBus {
  readonly #capacity: number;
  readonly #maxDataBytes: number;
  readonly #now: () => Date;
  /** A circular buffer: `#size` events from `#start`, oldest first. */
  #ring: (LassEvent | undefined)[];
  #start = 0;
  #size = 0;
  #nextSeq = 1;
  /** The highest seq pushed out of the ring by newer events (not by `clear`). */
  #evictedThrough = 0;
  #listeners = new Set<(event: LassEvent) => void>();
  #streams = new Set<StreamSubscriber>();

  constructor(options: EventBusOptions = {}) {
    this.#capacity = options.capacity ?? 1000;
    this.#maxDataBytes = options.maxDataBytes ?? 16 * 1024;
    this.#now = options.now ?? (() => new Date());
    this.#ring = new Array(this.#capacity);
  }

  /** The buffered event at `index` (0 = oldest), if there is one. */
  #at(index: number): LassEvent | undefined {
    return index >= 0 && index < this.#size
      ? this.#ring[(this.#start + index) % this.#capacity]
      : undefined;
  }

  /** Records an event and tells every listener; returns the recorded event. */
  emit(type: string, data: Record<string, unknown> = {}): LassEvent {
    const event: LassEvent = {
      seq: this.#nextSeq++,
      time: this.#now().toISOString(),
      type,
      data: this.#bounded(data),
    };
    if (this.#size < this.#capacity) {
      this.#ring[(this.#start + this.#size++) % this.#capacity] = event;
    } else {
      this.#evictedThrough = this.#ring[this.#start]!.seq;
      this.#ring[this.#start] = event;
      this.#start = (this.#start + 1) % this.#capacity;
    }
    for (const stream of this.#streams) {
      if (stream.cursor() <= this.#evictedThrough) stream.drop();
    }
    for (const listener of this.#listeners) listener(event);
    return event;
  }

  /** The data itself, or a note of its size when it serialises to more than the limit. */
  #bounded(data: Record<string, unknown>): Record<string, unknown> {
    // Flat records of short values (most events) are small enough without serialising them.
    let estimate = 0;
    for (const value of Object.values(data)) {
      estimate += typeof value === "string"
        ? value.length + 8
        : typeof value === "object" && value !== null
        ? Infinity
        : 16;
    }
    if (estimate * 3 <= this.#maxDataBytes) return data;
    const json = JSON.stringify(data);
    // A UTF-16 code unit encodes to at most 3 UTF-8 bytes: most events skip the encoding.
    if (json.length * 3 <= this.#maxDataBytes) return data;
    const bytes = new TextEncoder().encode(json).byteLength;
    return bytes > this.#maxDataBytes ? { truncated: true, bytes } : data;
  }

  /** The buffered events with `seq` greater than `since`, oldest first. */
  history(since = 0): LassEvent[] {
    const events: LassEvent[] = [];
    for (let i = 0; i < this.#size; i++) {
      const event = this.#at(i)!;
      if (event.seq > since) events.push(event);
    }
    return events;
  }

  /** Forgets the buffered events; `seq` keeps increasing. */
  clear(): void {
    this.#ring.fill(undefined);
    this.#start = 0;
    this.#size = 0;
  }

  /** The seq of the newest event ever emitted (0 before the first). */
  get lastSeq(): number {
    return this.#nextSeq - 1;
  }

  /** How many event streams are open; for tests and diagnostics. */
  get streamCount(): number {
    return this.#streams.size;
  }

  /** Calls `listener` for each new event until the returned function is called. */
  subscribe(listener: (event: LassEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * A pull-based stream of buffered then live events, with heartbeats. It holds only a cursor
   * into the ring, so a slow reader costs no memory; a reader that falls further behind than
   * the ring holds is dropped (the stream errors) instead of being allowed to lag forever.
   */
  stream(options: EventStreamOptions = {}): ReadableStream<EventLine> {
    const heartbeatMs = options.heartbeatMs ?? 15_000;
    const oldest = this.#at(0)?.seq ?? this.#nextSeq;
    const since = options.since !== undefined && options.since <= this.lastSeq ? options.since : 0;
    let cursor = Math.max(oldest, since + 1);
    let nextBeat = Date.now() + heartbeatMs;
    let wake: (() => void) | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller!: ReadableStreamDefaultController<EventLine>;
    const unsubscribe = this.subscribe(() => wake?.());
    const subscriber: StreamSubscriber = {
      cursor: () => cursor,
      drop: () => {
        close();
        // One closing line, then the end: the reader's backlog is never held for it.
        controller.enqueue({
          type: "dropped",
          time: this.#now().toISOString(),
          reason: "the reader fell more than the buffer behind; reconnect with ?since=<last seq>",
        });
        controller.close();
      },
    };
    const close = () => {
      this.#streams.delete(subscriber);
      unsubscribe();
      clearTimeout(timer);
      wake?.();
    };
    this.#streams.add(subscriber);
    return new ReadableStream<EventLine>({
      start: (c) => {
        controller = c;
      },
      pull: async (c) => {
        while (this.#streams.has(subscriber)) {
          const first = this.#at(0);
          // Events before the ring's start were cleared (an evicted cursor was dropped on emit).
          if (first && cursor < first.seq) cursor = first.seq;
          const event = first ? this.#at(cursor - first.seq) : undefined;
          if (event) {
            cursor = event.seq + 1;
            c.enqueue(event);
            return;
          }
          const wait = nextBeat - Date.now();
          if (wait <= 0) {
            nextBeat = Date.now() + heartbeatMs;
            c.enqueue({ type: "heartbeat", time: this.#now().toISOString() });
            return;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer = setTimeout(resolve, wait);
          });
          clearTimeout(timer);
          wake = undefined;
        }
      },
      cancel: close,
    }, { highWaterMark: 0 });
  }
}
