/** The lines of `GET /api/events` (NDJSON). */

/** One recorded event. */
export interface LassEvent {
  seq: number;
  time: string;
  type: string;
  data: Record<string, unknown>;
}

/** The keep-alive line of an event stream. */
export interface Heartbeat {
  type: "heartbeat";
  time: string;
}

/** The last line a stream sends before it lets go of a reader that fell too far behind. */
export interface Dropped {
  type: "dropped";
  time: string;
  reason: string;
}

/** A line of an event stream: an event, a heartbeat, or the closing note of a dropped reader. */
export type EventLine = LassEvent | Heartbeat | Dropped;
