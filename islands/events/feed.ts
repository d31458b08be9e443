/**
 * The events page's own stream of `GET /api/events`: from the start of the server's buffer,
 * reconnecting with `?since=<last seq>` (with backoff) when the stream fails or Lass drops it,
 * without duplicates; notes in the timeline say where it reconnected, what it missed, or that
 * Lass restarted. While paused, new events are held and counted; Resume appends them.
 */
import { signal } from "@preact/signals";
import { ApiError } from "../api.ts";
import { api, describeError } from "../state.ts";
import { runOf, serverOf } from "./filters.ts";
import type { LassEvent } from "../../wire/events.ts";
import { sleep } from "../sleep.ts";

/** A line of the timeline: an event, or a note about the stream itself. */
export type Entry =
  | { kind: "event"; key: string; event: LassEvent }
  | { kind: "note"; key: string; time: string; text: string };

/** Where the stream is. */
export type FeedStatus = "connecting" | "live" | "reconnecting" | "stopped";

/** Entries kept in memory; older ones are let go (the page says how many). */
const KEEP = 10_000;

/** One follower of the event stream, with what it received. */
export class EventFeed {
  readonly status = signal<FeedStatus>("connecting");
  /** Why the stream is reconnecting or stopped. */
  readonly problem = signal<string | null>(null);
  /** When the next attempt starts, while reconnecting (epoch ms). */
  readonly retryAt = signal<number | null>(null);
  /** The time of the last heartbeat line. */
  readonly heartbeat = signal<string | null>(null);
  readonly paused = signal(false);
  /** How many entries wait for Resume. */
  readonly held = signal(0);
  /** The latest note about the stream (a reconnect, a gap, a restart), also in the timeline. */
  readonly note = signal<string | null>(null);
  /** Bumped (at most every 30 ms) when the entries change. */
  readonly version = signal(0);
  /**
   * Bumped when a type, server or run is seen for the first time: the filters read it, so they
   * list what the stream holds as it arrives (their props never change, so nothing else would
   * draw them again before a filter changes).
   */
  readonly seen = signal(0);
  /** The timeline, oldest first. */
  entries: Entry[] = [];
  /** How many old entries were let go to keep memory bounded. */
  letGo = 0;
  readonly types = new Set<string>();
  readonly servers = new Set<string>();
  readonly runs = new Set<string>();

  #held: Entry[] = [];
  #lastSeq: number | undefined;
  #notes = 0;
  #stop = new AbortController();
  #flush: ReturnType<typeof setTimeout> | undefined;

  /** Starts following; {@link stop} ends it. */
  start(): void {
    void this.#follow(this.#stop.signal);
  }

  stop(): void {
    this.#stop.abort();
    clearTimeout(this.#flush);
  }

  pause(): void {
    this.paused.value = true;
  }

  /** Appends the held entries and follows live again. */
  resume(): void {
    this.paused.value = false;
    this.#push(this.#held);
    this.#held = [];
    this.held.value = 0;
  }

  /** Empties the timeline (and what is held); the stream goes on. */
  clear(): void {
    this.entries = [];
    this.#held = [];
    this.held.value = 0;
    this.letGo = 0;
    this.#changed();
  }

  #changed(): void {
    this.#flush ??= setTimeout(() => {
      this.#flush = undefined;
      this.version.value++;
    }, 30);
  }

  #push(entries: Entry[]): void {
    if (entries.length === 0) return;
    this.entries.push(...entries);
    const over = this.entries.length - KEEP;
    if (over > 0) {
      this.entries.splice(0, over);
      this.letGo += over;
    }
    this.#changed();
  }

  #add(entry: Entry): void {
    if (!this.paused.peek()) return this.#push([entry]);
    this.#held.push(entry);
    // A long pause holds at most what the timeline keeps.
    if (this.#held.length > KEEP) {
      this.#held.shift();
      this.letGo++;
    }
    this.held.value = this.#held.length;
  }

  #note(text: string): void {
    this.#add({ kind: "note", key: `note-${++this.#notes}`, time: new Date().toISOString(), text });
    this.note.value = text;
  }

  /** An event off the stream; `first`: the first one since (re)connecting. */
  #receive(event: LassEvent, first: boolean): void {
    const last = this.#lastSeq;
    if (last !== undefined) {
      if (event.seq <= last) {
        // Within one stream seq only grows; a reconnect's first event at or below the last
        // one means a new Lass process (seq starts again at 1).
        if (!first) return;
        this.#note("Lass restarted: events are numbered from 1 again.");
      } else if (first && event.seq > last + 1) {
        const missed = event.seq - last - 1;
        this.#note(
          `${missed} event${missed === 1 ? " was" : "s were"} not received ` +
            `(#${last + 1}–#${event.seq - 1}): they left Lass's buffer or were cleared.`,
        );
      }
    }
    this.#lastSeq = event.seq;
    // What the filters offer: every type, server and run seen.
    const known = this.types.size + this.servers.size + this.runs.size;
    this.types.add(event.type);
    const server = serverOf(event);
    if (server) this.servers.add(server);
    const run = runOf(event);
    if (run) this.runs.add(run);
    if (this.types.size + this.servers.size + this.runs.size !== known) this.seen.value++;
    this.#add({ kind: "event", key: `e${event.seq}-${event.time}`, event });
  }

  async #follow(stop: AbortSignal): Promise<void> {
    let delay = 500;
    while (!stop.aborted) {
      let problem = "the stream ended";
      let quick = false;
      try {
        const since = this.#lastSeq;
        const lines = await api().events(since, stop);
        if (since !== undefined) this.#note(`Reconnected, resuming after #${since}.`);
        this.status.value = "live";
        this.problem.value = null;
        this.retryAt.value = null;
        delay = 500;
        let first = true;
        for await (const line of lines) {
          if (line.type === "heartbeat") {
            this.heartbeat.value = line.time;
          } else if (line.type === "dropped") {
            problem = `Lass dropped the stream: ${(line as { reason?: string }).reason ?? ""}`;
            quick = true;
            break;
          } else if ("seq" in line) {
            this.#receive(line, first);
            first = false;
          }
        }
      } catch (error) {
        if (stop.aborted) break;
        if (error instanceof ApiError && error.status === 401) {
          this.status.value = "stopped";
          this.problem.value = describeError(error);
          return;
        }
        problem = describeError(error);
      }
      if (stop.aborted) break;
      // A dropped reader may come back at once; a failure waits longer each time.
      const wait = quick ? 200 : delay;
      if (!quick) delay = Math.min(delay * 2, 10_000);
      this.status.value = "reconnecting";
      this.problem.value = problem;
      this.retryAt.value = Date.now() + wait;
      await sleep(wait, stop);
    }
  }
}
