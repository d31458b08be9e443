/**
 * The events page: a live timeline of `GET /api/events` (its own stream, from the start of the
 * server's buffer), with filters by type, server, run and text, Pause / Resume, Clear, and
 * Clear on server. Only the newest {@link LIMIT} matching rows are drawn, so thousands of
 * events stay fast.
 */
import { type Signal, useSignal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { api, describeError } from "../state.ts";
import { type Entry, EventFeed } from "./feed.ts";
import {
  filtering,
  type Filters,
  filtersFromQuery,
  matches,
  NO_FILTERS,
  typeGroups,
} from "./filters.ts";
import { clock, EventRow } from "./row.tsx";

/** How many rows are drawn at most. */
const LIMIT = 500;

/** How long typing in a filter pauses before the rows follow. */
const TYPING_MS = 200;

function StreamStatus({ feed }: { feed: EventFeed }) {
  const status = feed.status.value;
  const text = status === "live"
    ? "Live"
    : status === "connecting"
    ? "Connecting…"
    : status === "reconnecting"
    ? "Reconnecting…"
    : "Stopped";
  const beat = feed.heartbeat.value;
  return (
    <div class="stream-status">
      <span class={`stream-state state-${status}`} role="status">
        <span class="dot" aria-hidden="true" />
        {text}
      </span>
      {feed.problem.value && status !== "live"
        ? <span class="hint stream-problem">{feed.problem.value}</span>
        : null}
      {status === "reconnecting" && feed.retryAt.value
        ? (
          <span class="hint">
            next try at <time>{clock(new Date(feed.retryAt.value).toISOString())}</time>
          </span>
        )
        : null}
      {feed.note.value ? <span class="hint stream-note">{feed.note.value}</span> : null}
      <span class="hint heartbeat" title="Lass sends a heartbeat every 15 s while nothing happens">
        {beat
          ? (
            <>
              Last heartbeat <time dateTime={beat}>{clock(beat)}</time>
            </>
          )
          : "No heartbeat yet"}
      </span>
    </div>
  );
}

function FilterBar({ feed, filters }: { feed: EventFeed; filters: Signal<Filters> }) {
  const f = filters.value;
  void feed.seen.value; // Draws the options again when the stream brings a new value.
  const set = (change: Partial<Filters>) => filters.value = { ...filters.peek(), ...change };
  const runs = [...feed.runs].slice(-20).reverse();
  return (
    <div class="events-filters">
      <div class="events-filter">
        <label for="events-type">Type</label>
        <select
          id="events-type"
          value={f.type}
          onChange={(event) => set({ type: event.currentTarget.value })}
        >
          <option value="">All types</option>
          {typeGroups(feed.types).map(([group, types]) =>
            group
              ? (
                <optgroup key={group} label={group}>
                  <option value={group}>{group} (all)</option>
                  {types.map((type) => <option key={type} value={type}>{type}</option>)}
                </optgroup>
              )
              : types.map((type) => <option key={type} value={type}>{type}</option>)
          )}
        </select>
      </div>
      <div class="events-filter">
        <label for="events-server">Server</label>
        <select
          id="events-server"
          value={f.server}
          onChange={(event) => set({ server: event.currentTarget.value })}
        >
          <option value="">All servers</option>
          {[...feed.servers].sort().map((id) => <option key={id} value={id}>{id}</option>)}
        </select>
      </div>
      <div class="events-filter">
        <label for="events-run">Run</label>
        <input
          id="events-run"
          type="search"
          list="events-runs"
          placeholder="Any run"
          value={f.run}
          onInput={(event) => set({ run: event.currentTarget.value })}
        />
        <datalist id="events-runs">
          {runs.map((run) => <option key={run} value={run} />)}
        </datalist>
      </div>
      <div class="events-filter grow">
        <label for="events-search">Search</label>
        <input
          id="events-search"
          type="search"
          placeholder="Text in the type or data"
          value={f.text}
          onInput={(event) => set({ text: event.currentTarget.value })}
        />
      </div>
      {filtering(f)
        ? (
          <button type="button" onClick={() => filters.value = NO_FILTERS}>
            Reset filters
          </button>
        )
        : null}
    </div>
  );
}

function ClearOnServer({ feed }: { feed: EventFeed }) {
  const confirming = useSignal(false);
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const clear = async () => {
    busy.value = true;
    error.value = null;
    try {
      await api().json<{ ok: true }>("DELETE", "/api/events");
      feed.clear();
      confirming.value = false;
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };
  return (
    <>
      {confirming.value
        ? (
          <span class="confirm" role="group" aria-label="Clear the server's events">
            Clear the server's event buffer, for every client?{" "}
            <button type="button" class="danger" disabled={busy.value} onClick={clear}>
              Yes, clear on server
            </button>
            <button type="button" disabled={busy.value} onClick={() => confirming.value = false}>
              Cancel
            </button>
          </span>
        )
        : (
          <button type="button" class="danger" onClick={() => confirming.value = true}>
            Clear on server…
          </button>
        )}
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </>
  );
}

function Controls({ feed }: { feed: EventFeed }) {
  const paused = feed.paused.value;
  const held = feed.held.value;
  return (
    <div class="events-controls">
      <button
        type="button"
        aria-pressed={paused}
        onClick={() => paused ? feed.resume() : feed.pause()}
      >
        {paused ? "Resume" : "Pause"}
      </button>
      {paused
        ? (
          <span class="badge badge-waiting held">
            {held} new event{held === 1 ? "" : "s"} held
          </span>
        )
        : null}
      <button type="button" onClick={() => feed.clear()}>Clear</button>
      <ClearOnServer feed={feed} />
    </div>
  );
}

/** The newest matching entries (at most {@link LIMIT}), newest first, and the counts. */
function visible(entries: Entry[], filters: Filters) {
  const active = filtering(filters);
  const rows: Entry[] = [];
  let events = 0;
  let matching = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    if (entry.kind === "note") {
      // Notes about the stream belong to the whole timeline, not to a filtered view.
      if (!active && rows.length < LIMIT) rows.push(entry);
      continue;
    }
    events++;
    if (!matches(entry.event, filters)) continue;
    matching++;
    if (rows.length < LIMIT) rows.push(entry);
  }
  return { rows, events, matching, active };
}

/** The events page. */
export default function EventsPage(_: { path: string }) {
  const feed = useMemo(() => new EventFeed(), []);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  // What the controls show, and what the rows are filtered by: drawing hundreds of rows again
  // takes a moment, so typing is applied once it pauses (a chosen option at once).
  // A link may open the page filtered (a chat turn's "Events of this turn": `?run=<runId>`).
  const initial = useMemo(() => filtersFromQuery(location.search), []);
  const filters = useSignal<Filters>(initial);
  const applied = useSignal<Filters>(initial);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = filters.subscribe((next) => {
      clearTimeout(timer);
      const last = applied.peek();
      const typed = next.type === last.type && next.server === last.server &&
        (next.text !== last.text || next.run !== last.run);
      if (typed) timer = setTimeout(() => applied.value = next, TYPING_MS);
      else applied.value = next;
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, []);
  void feed.version.value; // Redraws when entries arrive (at most every 30 ms).
  const { rows, events, matching, active } = visible(feed.entries, applied.value);
  const shownEvents = rows.filter((row) => row.kind === "event").length;
  return (
    <div class="events-page">
      <header class="events-head">
        <h1>Events</h1>
        <StreamStatus feed={feed} />
      </header>
      <FilterBar feed={feed} filters={filters} />
      <Controls feed={feed} />
      <p class="events-count hint">
        {active ? `${matching} of ${events} events match` : `${events} events`}
        {matching > shownEvents ? `; showing the newest ${shownEvents}` : ""}
        {feed.letGo > 0 ? ` (${feed.letGo} older ones let go)` : ""}.
      </p>
      {rows.length === 0
        ? (
          <p class="events-empty">
            {events === 0 ? "No events yet." : "No events match the filters."}
          </p>
        )
        : (
          <ol class="event-list" aria-label="Events, newest first">
            {rows.map((entry) => (
              <EventRow
                key={entry.key}
                entry={entry}
                onRun={(run) => applied.value = filters.value = { ...filters.peek(), run }}
              />
            ))}
          </ol>
        )}
    </div>
  );
}
