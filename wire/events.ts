/** The lines of `GET /api/events` (NDJSON), and the `data` of events whose shape the UI reads. */
import type { PinChange, PinDrift, PinningMode, PinSource } from "./pinning.ts";

/** One recorded event. */
export interface LassEvent {
  seq: number;
  time: string;
  type: string;
  data: Record<string, unknown>;
}

/**
 * The `data` of an `mcp.drift` event: a tool server's definitions differ from their pins
 * (`changes`, with `pinning` and `source`), match them again (`changes: []`), or were accepted
 * as the new pins (`accepted: true`, `source` says where they went).
 */
export interface DriftEventData {
  serverId: string;
  pinning?: Exclude<PinningMode, "off">;
  source?: PinSource;
  version?: PinDrift["version"];
  changes: PinChange[];
  accepted?: true;
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
