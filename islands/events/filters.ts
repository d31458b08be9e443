/**
 * Filters of the events page: by type (exact, or a prefix group such as `tool.*`), by tool
 * server, by chat run, and free text over the type and the data.
 */
import type { LassEvent } from "../../wire/events.ts";

/** What the timeline is filtered by; empty strings match everything. */
export interface Filters {
  /** An event type, or a group `<prefix>.*`. */
  type: string;
  server: string;
  /** A run id, or the start of one. */
  run: string;
  text: string;
}

/** No filter at all. */
export const NO_FILTERS: Filters = { type: "", server: "", run: "", text: "" };

/**
 * The filters a link to the page asks for: `/events?run=<runId>&type=<type>&server=<id>`
 * (`search` is `location.search`).
 */
export function filtersFromQuery(search: string): Filters {
  const query = new URLSearchParams(search);
  return {
    ...NO_FILTERS,
    type: query.get("type") ?? "",
    server: query.get("server") ?? "",
    run: query.get("run") ?? "",
  };
}

const str = (value: unknown) => typeof value === "string" && value !== "" ? value : undefined;

function interactionOf(event: LassEvent): Record<string, unknown> | undefined {
  const interaction = event.data.interaction;
  return typeof interaction === "object" && interaction !== null
    ? interaction as Record<string, unknown>
    : undefined;
}

/** The tool server an event is about: `data.serverId` (`data.id` of an `mcp.state`). */
export function serverOf(event: LassEvent): string | undefined {
  return str(event.data.serverId) ??
    (event.type === "mcp.state" ? str(event.data.id) : undefined) ??
    str(interactionOf(event)?.serverId);
}

/** The chat run an event belongs to: `data.runId` (or its interaction's). */
export function runOf(event: LassEvent): string | undefined {
  return str(event.data.runId) ?? str(interactionOf(event)?.runId);
}

/** The prefix group of a type: `tool.*` for `tool.call`; none for a type without a dot. */
export function groupOf(type: string): string | undefined {
  const dot = type.indexOf(".");
  return dot > 0 ? `${type.slice(0, dot)}.*` : undefined;
}

/** Seen types by prefix group, sorted; types without a group come under `""`. */
export function typeGroups(types: Iterable<string>): [group: string, types: string[]][] {
  const groups = new Map<string, string[]>();
  for (const type of [...types].sort()) {
    const group = groupOf(type) ?? "";
    groups.set(group, [...groups.get(group) ?? [], type]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

const haystacks = new WeakMap<LassEvent, string>();

/** The event as lower-case text, computed once per event. */
function haystackOf(event: LassEvent): string {
  let text = haystacks.get(event);
  if (text === undefined) {
    text = `${event.type} #${event.seq} ${JSON.stringify(event.data)}`.toLowerCase();
    haystacks.set(event, text);
  }
  return text;
}

/** Whether any filter is set. */
export function filtering(filters: Filters): boolean {
  return filters.type !== "" || filters.server !== "" || filters.run !== "" ||
    filters.text.trim() !== "";
}

/** Whether an event passes the filters. */
export function matches(event: LassEvent, filters: Filters): boolean {
  const { type, server, run } = filters;
  if (type !== "") {
    if (type.endsWith(".*") ? !event.type.startsWith(type.slice(0, -1)) : event.type !== type) {
      return false;
    }
  }
  if (server !== "" && serverOf(event) !== server) return false;
  // A run id or its start (the rows show the first 8 characters).
  if (run.trim() !== "" && !runOf(event)?.startsWith(run.trim())) return false;
  const text = filters.text.trim().toLowerCase();
  return text === "" || haystackOf(event).includes(text);
}
