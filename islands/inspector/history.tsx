/**
 * The History pane: every request to or from the server (the inspector's, chat's, Lass's own),
 * paired with its response, with status and duration, and the notifications and log messages
 * between them, newest first. It is read from the server's trace, so it outlives tool switches
 * and reloads. A past tool call, prompt or resource read can be sent again.
 */
import { JsonBlock } from "../copy_button.tsx";
import { type Signal, useSignal } from "@preact/signals";
import { useEffect, useMemo, useRef } from "preact/hooks";
import { plural } from "../../wire/words.ts";
import { clock } from "../events/row.tsx";
import { formatDuration } from "../format.ts";
import { type Exchange, type TimelineItem, timelineOf } from "./timeline.ts";
import { RerunButton, type RerunEntry, RerunResult, rerunRows } from "./rerun.tsx";
import { FromFilter, fromOrigin, type Origin, proxyClientsOf } from "./from_filter.tsx";
import type { TraceDirection, TraceMessage } from "../../wire/trace.ts";

/** How many lines are drawn at first, and how many more each "Show older" adds. */
const PAGE = 200;

/** Which way a request went, in words and as an arrow. */
const WAYS: Record<TraceDirection, [arrow: string, words: string]> = {
  out: ["→", "Lass → server"],
  in: ["←", "server → Lass"],
  "view-out": ["⇢", "host → MCP App view"],
  "view-in": ["⇠", "MCP App view → host"],
};

const BADGES: Record<Exchange["status"], string> = {
  ok: "badge-ok",
  error: "badge-error",
  pending: "badge-running",
  cancelled: "badge-ended",
};

/** The statuses History filters by. */
const STATUSES: Exchange["status"][] = ["ok", "error", "pending", "cancelled"];

/** The task polling folded under a call, one line each. */
function Polls({ polls }: { polls: Exchange[] }) {
  return (
    <details class="task-polls">
      <summary>Task polling: {plural(polls.length, "request")}</summary>
      <ol class="poll-list">
        {polls.map((poll) => (
          <li key={poll.key}>
            <span class="method">{poll.method}</span>{" "}
            <span class={`badge ${BADGES[poll.status]}`}>{poll.status}</span>{" "}
            {poll.ms !== undefined ? <span class="duration">{formatDuration(poll.ms)}</span> : null}
            {poll.response ? <JsonBlock value={poll.response.message} /> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

function Message({ title, message }: { title: string; message?: TraceMessage }) {
  if (!message) return null;
  return (
    <>
      <h4>
        {title}
        <span class="hint">
          #{message.seq} · {clock(message.time)} · {plural(message.bytes, "byte")}
          {message.truncated ? " · clipped at 64 KiB" : ""}
          {message.unanswered ? " · no answer: the connection closed (recorded by Lass)" : ""}
        </span>
      </h4>
      <JsonBlock value={message.message} />
    </>
  );
}

/** The props of a History row. */
interface RowProps {
  item: TimelineItem;
  serverId: string;
  reruns: Signal<RerunEntry[]>;
  lastSeq: number;
  /** Set on the row a Run again sent: it opens with that Run again's answer. */
  rerun?: RerunEntry;
}

function Row({ item, serverId, reruns, lastSeq, rerun }: RowProps) {
  const open = useSignal(rerun !== undefined);
  const [arrow, words] = WAYS[item.dir];
  const detailId = `history-${serverId}-${item.key}`.replace(/[^\w-]/g, "_");
  const status = item.kind === "exchange" ? item.status : "notice";
  const level = item.kind === "notice" && item.level ? ` level-${item.level}` : "";
  return (
    <li
      class={`timeline-item is-${status}${level}${rerun ? " is-rerun" : ""}`}
      data-method={item.method || "(response)"}
      data-seq={item.seq}
    >
      <button
        type="button"
        class="timeline-toggle"
        aria-expanded={open.value}
        aria-controls={detailId}
        onClick={() => open.value = !open.value}
      >
        <time dateTime={item.time} title={item.time}>{clock(item.time)}</time>
        <span class="way" title={words} aria-label={words}>{arrow}</span>
        <span class="method">{item.method || "(response)"}</span>
        {item.client
          ? <span class="badge proxy-client" title="through Lass's proxy">{item.client}</span>
          : null}
        <span class="subject">{item.subject}</span>
        {item.kind === "exchange"
          ? <span class={`badge ${BADGES[item.status]}`}>{status}</span>
          : item.level
          ? <span class="badge level">{item.level}</span>
          : null}
        {item.kind === "exchange" && item.ms !== undefined
          ? <span class="duration">{formatDuration(item.ms)}</span>
          : null}
        {item.kind === "exchange" && item.polls
          ? <span class="hint">+{plural(item.polls.length, "poll")}</span>
          : null}
      </button>
      {open.value
        ? (
          <div id={detailId} class="timeline-detail">
            {item.kind === "exchange"
              ? (
                <>
                  <Message title="Request" message={item.request} />
                  <Message title="Response" message={item.response} />
                  {item.status === "pending" ? <p class="hint">No response yet.</p> : null}
                  {item.status === "cancelled" && !item.response
                    ? (
                      <p class="hint">
                        Cancelled (notifications/cancelled): no answer is expected.
                      </p>
                    )
                    : null}
                  {item.polls ? <Polls polls={item.polls} /> : null}
                  {rerun ? <RerunResult entry={rerun} serverId={serverId} /> : null}
                  <RerunButton
                    serverId={serverId}
                    exchange={item}
                    reruns={reruns}
                    lastSeq={lastSeq}
                  />
                </>
              )
              : <Message title="Notification" message={item.message} />}
          </div>
        )
        : null}
    </li>
  );
}

/** The props of {@link HistoryPane}. */
export interface HistoryPaneProps {
  serverId: string;
  messages: Signal<TraceMessage[]>;
}

/** The server's requests and notifications, newest first. */
export function HistoryPane({ serverId, messages }: HistoryPaneProps) {
  const shown = useSignal(PAGE);
  const notices = useSignal(true);
  const origin = useSignal<Origin>("all");
  const method = useSignal("");
  const status = useSignal<"" | Exchange["status"]>("");
  const list = messages.value;
  const { items } = useMemo(() => timelineOf(list), [list]);
  const clients = useMemo(() => proxyClientsOf(list), [list]);
  const reruns = useSignal<RerunEntry[]>([]);
  const rerunAt = rerunRows(items, reruns.value);
  const lastSeq = list.length > 0 ? list[list.length - 1].seq : 0;
  const listRef = useRef<HTMLOListElement>(null);
  const broughtIntoView = useRef(new Set<number>());
  // A Run again's new row is at the top, maybe far above: bring it into view once, with focus.
  useEffect(() => {
    for (const [seq, entry] of rerunAt) {
      if (broughtIntoView.current.has(entry.id)) continue;
      const row = listRef.current?.querySelector<HTMLElement>(`[data-seq="${seq}"]`);
      if (!row) continue;
      broughtIntoView.current.add(entry.id);
      row.querySelector<HTMLElement>(".timeline-toggle")?.focus({ preventScroll: true });
      row.scrollIntoView({ block: "start" });
    }
  });
  const methods = useMemo(
    () => [...new Set(items.map((item) => item.method).filter(Boolean))].sort(),
    [items],
  );
  const visible = items.filter((item) =>
    (notices.value || item.kind === "exchange") &&
    fromOrigin(item.session, origin.value, item.by) &&
    (method.value === "" || item.method === method.value) &&
    (status.value === "" || item.kind === "exchange" && item.status === status.value)
  );
  const filterId = `history-${serverId}`.replace(/[^\w-]/g, "_");
  const newest = visible.slice(Math.max(0, visible.length - shown.value)).reverse();
  const requests = items.filter((item) => item.kind === "exchange").length;
  return (
    <div class="history">
      <div class="activity-bar">
        <label class="check">
          <input
            type="checkbox"
            checked={notices.value}
            onChange={(event) => notices.value = event.currentTarget.checked}
          />
          Notifications and log messages
        </label>
        <label for={`${filterId}-method`}>Method</label>
        <select
          id={`${filterId}-method`}
          value={method.value}
          onChange={(event) => method.value = event.currentTarget.value}
        >
          <option value="">All methods</option>
          {methods.map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
        <label for={`${filterId}-status`}>Status</label>
        <select
          id={`${filterId}-status`}
          value={status.value}
          onChange={(event) => status.value = event.currentTarget.value as "" | Exchange["status"]}
        >
          <option value="">Any status</option>
          {STATUSES.map((name) => <option key={name} value={name}>{name}</option>)}
        </select>
        <FromFilter clients={clients} origin={origin} />
        <span class="hint">
          {plural(requests, "request")}, {plural(items.length - requests, "notification")}
          {visible.length < items.length ? `; ${visible.length} match` : ""}
          {visible.length > newest.length ? `; the newest ${newest.length} shown` : ""}
        </span>
      </div>
      {newest.length === 0
        ? <p class="hint">Nothing yet: requests to this server show here as they happen.</p>
        : (
          <ol ref={listRef} class="timeline" aria-label="Requests and notifications, newest first">
            {newest.map((item) => (
              <Row
                key={item.key}
                item={item}
                serverId={serverId}
                reruns={reruns}
                lastSeq={lastSeq}
                rerun={rerunAt.get(item.seq)}
              />
            ))}
          </ol>
        )}
      {visible.length > newest.length
        ? (
          <button type="button" onClick={() => shown.value += PAGE}>
            Show {Math.min(PAGE, visible.length - newest.length)} older
          </button>
        )
        : null}
    </div>
  );
}
