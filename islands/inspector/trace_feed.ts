/**
 * One server's trace in the browser: `GET /api/mcp/:id/trace?follow=1` (what Lass keeps, then live
 * messages), reconnecting with `?since=<last seq>` after a drop, the messages in a signal that is
 * set at most every 50 ms, so a burst of messages draws once.
 */
import { signal } from "@preact/signals";
import { ApiError } from "../api.ts";
import { describeError } from "../state.ts";
import { workbenchApi } from "./workbench_api.ts";
import type { TraceMessage } from "../../wire/trace.ts";
import { sleep } from "../sleep.ts";

/** Messages kept in the page, as many as Lass keeps per server. */
const KEEP = 2000;

/** Where the stream is. */
export type TraceStatus = "connecting" | "live" | "reconnecting" | "stopped";

/** A follower of one server's trace. */
export class TraceFeed {
  /** The newest {@link KEEP} messages, oldest first. */
  readonly messages = signal<TraceMessage[]>([]);
  readonly status = signal<TraceStatus>("connecting");
  /** Why the stream is reconnecting or stopped. */
  readonly problem = signal<string | null>(null);

  #pending: TraceMessage[] = [];
  #lastSeq: number | undefined;
  #flush: ReturnType<typeof setTimeout> | undefined;
  #stop = new AbortController();

  constructor(readonly serverId: string) {}

  /** Starts following; {@link stop} ends it and aborts the stream. */
  start(): void {
    void this.#follow(this.#stop.signal);
  }

  stop(): void {
    this.#stop.abort();
    clearTimeout(this.#flush);
  }

  #receive(message: TraceMessage): void {
    // After a reconnect, `since` leaves out what was seen; a new Lass process starts at 1 again.
    if (this.#lastSeq !== undefined && message.seq <= this.#lastSeq) {
      this.#pending = [];
      this.messages.value = [];
    }
    this.#lastSeq = message.seq;
    this.#pending.push(message);
    this.#flush ??= setTimeout(() => {
      this.#flush = undefined;
      const next = [...this.messages.peek(), ...this.#pending];
      this.#pending = [];
      this.messages.value = next.length > KEEP ? next.slice(next.length - KEEP) : next;
    }, 50);
  }

  async #follow(stop: AbortSignal): Promise<void> {
    let delay = 500;
    while (!stop.aborted) {
      let problem = "the trace stream ended";
      try {
        const lines = await workbenchApi.followTrace(this.serverId, this.#lastSeq, stop);
        this.status.value = "live";
        this.problem.value = null;
        delay = 500;
        for await (const line of lines) {
          if (typeof (line as Partial<TraceMessage>).seq === "number") this.#receive(line);
        }
      } catch (error) {
        if (stop.aborted) break;
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
          // Refused (no such server, the trace is off): trying again would not help.
          this.status.value = "stopped";
          this.problem.value = describeError(error);
          return;
        }
        problem = describeError(error);
      }
      if (stop.aborted) break;
      this.status.value = "reconnecting";
      this.problem.value = problem;
      await sleep(delay, stop);
      delay = Math.min(delay * 2, 10_000);
    }
  }
}
