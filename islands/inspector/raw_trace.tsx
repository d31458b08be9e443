/**
 * The raw JSON-RPC view of a server's trace: every message as it crossed, newest first, filtered
 * by method (a response counts as its request's method). A message shows as one line of JSON and
 * opens pretty-printed.
 */
import { JsonBlock } from "../copy_button.tsx";
import { type Signal, useSignal } from "@preact/signals";
import { useMemo } from "preact/hooks";
import { plural } from "../../wire/words.ts";
import { clock } from "../events/row.tsx";
import { formatDuration } from "../format.ts";
import { timelineOf } from "./timeline.ts";
import { FromFilter, fromOrigin, type Origin, proxyClientsOf } from "./from_filter.tsx";
import type { TraceMessage } from "../../wire/trace.ts";

/** How many messages are drawn at first, and how many more each "Show older" adds. */
const PAGE = 300;

/** The longest one-line JSON drawn before the message is opened. */
const LINE = 400;

const lines = new WeakMap<TraceMessage, string>();
const texts = new WeakMap<TraceMessage, string>();

/** A message's whole JSON text in lower case, for the search; made once per message. */
function searchTextOf(message: TraceMessage): string {
  let text = texts.get(message);
  if (text === undefined) {
    text = (JSON.stringify(message.message) ?? "").toLowerCase();
    texts.set(message, text);
  }
  return text;
}

/** The directions Messages filters by. */
const DIRECTIONS: [value: string, words: string][] = [
  ["", "Both ways"],
  ["out", "Lass → server"],
  ["in", "server → Lass"],
  ["view", "MCP App bridge"],
];

/** Whether a message went the way `way` names. */
function goes(message: TraceMessage, way: string): boolean {
  if (way === "") return true;
  if (way === "view") return message.dir === "view-out" || message.dir === "view-in";
  return message.dir === way;
}

/** A message as one line of JSON, cut at {@link LINE} characters, made once per message. */
function lineOf(message: TraceMessage): string {
  let line = lines.get(message);
  if (line === undefined) {
    const text = JSON.stringify(message.message) ?? "";
    line = text.length > LINE ? `${text.slice(0, LINE)}…` : text;
    lines.set(message, line);
  }
  return line;
}

function RawRow({ message, method }: { message: TraceMessage; method: string }) {
  const open = useSignal(false);
  return (
    <li class={`raw-row dir-${message.dir}`} data-method={method} data-seq={message.seq}>
      <button
        type="button"
        class="raw-toggle"
        aria-expanded={open.value}
        onClick={() => open.value = !open.value}
      >
        <span class="raw-seq">#{message.seq}</span>
        <time dateTime={message.time} title={message.time}>{clock(message.time)}</time>
        <span class="raw-dir">{message.dir}</span>
        <span class="method">{method}</span>
        {message.via === "proxy"
          ? (
            <span class="badge proxy-client" title="through Lass's proxy">
              {message.client?.name ?? "proxy client"}
            </span>
          )
          : null}
        <span class="hint">{plural(message.bytes, "byte")}</span>
        {message.ms !== undefined
          ? <span class="duration">{formatDuration(message.ms)}</span>
          : null}
        {message.truncated ? <span class="badge badge-waiting">clipped</span> : null}
      </button>
      {open.value
        ? <JsonBlock value={message.message} />
        : <code class="raw-line">{lineOf(message)}</code>}
    </li>
  );
}

/** The props of {@link RawTrace}. */
export interface RawTraceProps {
  serverId: string;
  messages: Signal<TraceMessage[]>;
}

/** The trace's messages, with a filter by method. */
export function RawTrace({ serverId, messages }: RawTraceProps) {
  const method = useSignal("");
  const origin = useSignal<Origin>("all");
  const way = useSignal("");
  const search = useSignal("");
  const shown = useSignal(PAGE);
  const list = messages.value;
  const { methods, requesters } = useMemo(() => timelineOf(list), [list]);
  const clients = useMemo(() => proxyClientsOf(list), [list]);
  const choices = [...new Set(methods.values())].sort();
  const methodOf = (message: TraceMessage) => methods.get(message.seq) ?? "(response)";
  const needle = search.value.trim().toLowerCase();
  const matching = method.value === "" && origin.value === "all" && way.value === "" &&
      needle === ""
    ? list
    : list.filter((message) =>
      (method.value === "" || methodOf(message) === method.value) &&
      fromOrigin(message.session, origin.value, requesters.get(message.seq)) &&
      goes(message, way.value) &&
      (needle === "" || searchTextOf(message).includes(needle))
    );
  const newest = matching.slice(Math.max(0, matching.length - shown.value)).reverse();
  const selectId = `raw-method-${serverId}`.replace(/[^\w-]/g, "_");
  return (
    <div class="raw-trace">
      <div class="activity-bar">
        <label for={selectId}>Method</label>
        <select
          id={selectId}
          value={method.value}
          onChange={(event) => method.value = event.currentTarget.value}
        >
          <option value="">All methods</option>
          {choices.map((name) => <option key={name} value={name}>{name}</option>)}
          {method.value !== "" && !choices.includes(method.value)
            ? <option value={method.value}>{method.value}</option>
            : null}
        </select>
        <label for={`${selectId}-way`}>Direction</label>
        <select
          id={`${selectId}-way`}
          value={way.value}
          onChange={(event) => way.value = event.currentTarget.value}
        >
          {DIRECTIONS.map(([value, words]) => <option key={value} value={value}>{words}</option>)}
        </select>
        <FromFilter clients={clients} origin={origin} />
        <input
          type="search"
          class="raw-search"
          aria-label="Find in messages"
          placeholder="Find in method, params, results"
          value={search.value}
          onInput={(event) => search.value = event.currentTarget.value}
        />
        <span class="hint">
          {matching.length === list.length
            ? plural(list.length, "message")
            : `${matching.length} of ${plural(list.length, "message")}`}
          {matching.length > newest.length ? `; the newest ${newest.length} shown` : ""}
        </span>
      </div>
      {newest.length === 0
        ? (
          <p class="hint">
            {list.length === 0 ? "No messages yet." : "No message matches the filters."}
          </p>
        )
        : (
          <ol class="raw-list" aria-label="JSON-RPC messages, newest first">
            {newest.map((message) => (
              <RawRow key={message.seq} message={message} method={methodOf(message)} />
            ))}
          </ol>
        )}
      {matching.length > newest.length
        ? (
          <button type="button" onClick={() => shown.value += PAGE}>
            Show {Math.min(PAGE, matching.length - newest.length)} older
          </button>
        )
        : null}
    </div>
  );
}
