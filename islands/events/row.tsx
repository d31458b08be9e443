/** One line of the events timeline: time, type, summary, run; the full JSON when opened. */
import { useSignal } from "@preact/signals";
import { groupOf, runOf } from "./filters.ts";
import { summarize } from "./summary.ts";
import type { Entry } from "./feed.ts";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `14:03:07.125`, local time. */
export function clock(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${
    pad(date.getMilliseconds(), 3)
  }`;
}

/** The props of {@link EventRow}. */
export interface EventRowProps {
  entry: Entry;
  /** Filters the timeline by a run (the run button of a row). */
  onRun: (runId: string) => void;
}

/** A row; notes about the stream are rows too, set apart. */
export function EventRow({ entry, onRun }: EventRowProps) {
  const open = useSignal(false);
  if (entry.kind === "note") {
    return (
      <li class="event-row event-note">
        <time dateTime={entry.time} title={entry.time}>{clock(entry.time)}</time>
        <span class="event-summary">{entry.text}</span>
      </li>
    );
  }
  const { event } = entry;
  const run = runOf(event);
  const group = groupOf(event.type)?.slice(0, -2) ?? "other";
  const jsonId = `event-${entry.key}-json`;
  return (
    <li class={`event-row group-${group}`} data-seq={event.seq} data-type={event.type}>
      <button
        type="button"
        class="event-toggle"
        aria-expanded={open.value}
        aria-controls={jsonId}
        onClick={() => open.value = !open.value}
      >
        <time dateTime={event.time} title={event.time}>{clock(event.time)}</time>
        <span class="event-seq">#{event.seq}</span>
        <span class="event-type">{event.type}</span>
        <span class="event-summary">{summarize(event)}</span>
      </button>
      {run
        ? (
          <button
            type="button"
            class="event-run"
            title={`Show only the events of run ${run}`}
            aria-label={`Show only run ${run}`}
            onClick={() => onRun(run)}
          >
            run {run.slice(0, 8)}
          </button>
        )
        : null}
      {open.value
        ? <pre id={jsonId} class="json event-json">{JSON.stringify(event, null, 2)}</pre>
        : null}
    </li>
  );
}
