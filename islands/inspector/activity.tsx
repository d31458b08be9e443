/**
 * The workbench's lower half: the server's trace, followed while the page shows the server
 * (the stream is aborted when it leaves), as History or as raw JSON-RPC messages.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { bootstrap } from "../state.ts";
import { HistoryPane } from "./history.tsx";
import { RawTrace } from "./raw_trace.tsx";
import { TraceFeed } from "./trace_feed.ts";

type View = "history" | "raw";

const VIEWS: [View, string][] = [["history", "History"], ["raw", "Messages"]];

/** History and raw messages of one server. */
export function Activity({ serverId }: { serverId: string }) {
  const feed = useMemo(() => new TraceFeed(serverId), [serverId]);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  const view = useSignal<View>("history");
  const status = feed.status.value;
  const record = bootstrap.value?.config.mcpServers?.find((server) => server.id === serverId);
  const idOf = (name: View) => `activity-tab-${name}`;
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    event.preventDefault();
    const next = view.peek() === "history" ? "raw" : "history";
    view.value = next;
    document.getElementById(idOf(next))?.focus();
  };
  return (
    <section class="activity" aria-label="Activity">
      <header class="activity-head">
        <div class="inspector-tabs" role="tablist" aria-label="Activity">
          {VIEWS.map(([name, label]) => (
            <button
              key={name}
              id={idOf(name)}
              type="button"
              role="tab"
              aria-selected={view.value === name}
              aria-controls="activity-tabpanel"
              tabIndex={view.value === name ? 0 : -1}
              onClick={() => view.value = name}
              onKeyDown={onKey}
            >
              {label}
            </button>
          ))}
        </div>
        <span class={`stream-state state-${status}`} role="status">
          <span class="dot" aria-hidden="true" />
          {status === "live"
            ? "Live"
            : status === "connecting"
            ? "Connecting…"
            : status === "reconnecting"
            ? "Reconnecting…"
            : "Stopped"}
        </span>
        {feed.problem.value ? <span class="hint">{feed.problem.value}</span> : null}
        {record?.trace === false
          ? (
            <span class="hint">
              The trace is off for this server (<code>trace: false</code>): nothing new is recorded.
            </span>
          )
          : null}
      </header>
      <div id="activity-tabpanel" role="tabpanel" aria-labelledby={idOf(view.value)}>
        {view.value === "history"
          ? <HistoryPane serverId={serverId} messages={feed.messages} />
          : <RawTrace serverId={serverId} messages={feed.messages} />}
      </div>
    </section>
  );
}
