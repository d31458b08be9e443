/**
 * The handlers a tool server's session reports to: sampling and elicitation, log and stderr lines,
 * list changes (the list is read again), resource updates, and a connection that ended or failed.
 */
import { clip } from "../../errors.ts";
import type { EventBus } from "../../events.ts";
import type { ListKind, McpSession, SessionHandlers } from "../session/types.ts";
import type { Entry } from "./entry.ts";
import { readList } from "./establish.ts";
import type { ServerLogs } from "./server_logs.ts";
import type { ServerRequests } from "../requests/server_requests.ts";
import type { ToolServerTraces } from "../session/trace.ts";
import type { ConnectionState } from "../../../wire/tool_servers.ts";
import type { PinnedState } from "./pins.ts";

const STDERR_TAIL_LINES = 20;

/** What the handlers reach in the connections that own the entry. */
export interface SessionEventsHost {
  events: EventBus;
  requests: ServerRequests;
  traces: ToolServerTraces;
  logs: ServerLogs;
  /** Whether the connections are closed. */
  closed(): boolean;
  /** Whether `entry` is the configured entry of `id` (a draft is not). */
  configured(id: string, entry: Entry): boolean;
  /** A connection that ended on its own (`ToolServerConnections.lost`). */
  lost(entry: Entry, session: McpSession, reason: string): void;
  /** Keeps how to stop a started process until it is stopped (`SessionHandlers.track`). */
  track(stop: () => Promise<void>): () => void;
  /** Reviews a configured server's new lists against its pins (`reviewPins`). */
  review(entry: Entry, state: ConnectionState): Promise<PinnedState>;
}

/** The handlers of the session that connect `generation` of an entry opens. */
export function sessionHandlers(
  entry: Entry,
  generation: number,
  host: SessionEventsHost,
): SessionHandlers {
  const id = entry.record.id;
  const events = host.events;
  const live = () => entry.generation === generation && !host.closed() && !!entry.session;
  // A draft (`testDraft`) is not traced; a configured server while its record says so.
  const traced = () => entry.record.trace !== false && host.configured(id, entry);
  const reread = (kind: ListKind) => {
    if (entry.generation !== generation) return;
    const review = (state: ConnectionState) =>
      host.configured(id, entry) ? host.review(entry, state) : Promise.resolve(unreviewed(state));
    refresh(entry, kind, review).catch(() => {});
  };
  return {
    track: host.track,
    wire: () => host.traces.channel(id, traced),
    sampling: (params, signal) =>
      host.requests.sample(entry.record, params, signal, entry.calls.at(-1)),
    elicitation: (params, signal) => host.requests.elicit(id, params, signal, entry.calls.at(-1)),
    log: (level, data, logger) =>
      host.logs.log(entry, level, typeof data === "string" ? data : JSON.stringify(data), logger),
    stderr: (line) => {
      // Scrubbed once for both uses: this runs for every line a server writes.
      const clean = host.logs.scrub(entry, line);
      entry.stderrTail.push(clip(clean, 500));
      if (entry.stderrTail.length > STDERR_TAIL_LINES) entry.stderrTail.shift();
      host.logs.record(entry, "stderr", clean);
    },
    listChanged: (kind) => {
      events.emit("mcp.notification", {
        serverId: id,
        method: `notifications/${kind}/list_changed`,
      });
      reread(kind);
    },
    reread,
    closed: () => {
      // Before the session exists the connect's own error path reports the failure.
      if (!live()) return;
      const tail = entry.stderrTail.slice(-5).join("\n");
      host.lost(
        entry,
        entry.session!,
        tail ? `the server exited\nstderr:\n${tail}` : "the connection closed",
      );
    },
    roots: () => entry.record.roots ?? [],
    resourceUpdated: (uri) => {
      if (entry.generation === generation) {
        events.emit("mcp.resource-updated", { serverId: id, uri });
      }
    },
    troubled: () => {
      if (!live()) return;
      const session = entry.session!;
      // A transport error may be a lost peer: check at once rather than at the next beat.
      session.reachable(1000).then((ok) => {
        if (!ok && entry.session === session) {
          host.lost(entry, session, `cannot reach ${entry.record.url}: the connection was lost`);
        }
      });
    },
  };
}

/** A state that goes as it is, with nothing to announce (a draft is not pinned). */
function unreviewed(state: ConnectionState): PinnedState {
  return { state, announce: () => {} };
}

/**
 * Re-reads one list after a list-changed notification; only that list of the state changes, and
 * the drift from the pins with it (a changed definition arriving mid-session is a drift too).
 */
async function refresh(
  entry: Entry,
  kind: ListKind,
  review: (state: ConnectionState) => Promise<PinnedState>,
): Promise<void> {
  const session = entry.session;
  if (!session) return;
  const change = await readList(session, entry.record, kind);
  // The state may have moved on while the list was read: apply only the list, to the current state.
  if (entry.session !== session) return;
  const pinned = await review({ ...entry.state, ...change });
  if (entry.session !== session) return;
  entry.state = { ...entry.state, ...change, drift: pinned.state.drift };
  if (!pinned.state.drift) delete entry.state.drift;
  pinned.announce();
}
