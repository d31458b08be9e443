/**
 * The workbench's lower half: the server's trace, followed while the page shows the server
 * (the stream is aborted when it leaves), as History or as raw JSON-RPC messages; a stdio
 * server's stderr, live.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useMemo } from "preact/hooks";
import { bootstrap } from "../state.ts";
import { HistoryPane } from "./history.tsx";
import { RawTrace } from "./raw_trace.tsx";
import { StderrPane } from "./stderr_pane.tsx";
import { tabId, type TabItem, TabList } from "./tab_list.tsx";
import { TraceFeed } from "./trace_feed.ts";

type View = "history" | "raw" | "stderr";

const VIEWS: TabItem<View>[] = [
  { name: "history", label: "History" },
  { name: "raw", label: "Messages" },
];

/** A stdio server's views: its stderr too. */
const STDIO_VIEWS: TabItem<View>[] = [...VIEWS, { name: "stderr", label: "stderr" }];

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
  // The demo server runs in process: it has no stderr.
  const stdio = record?.transport === "stdio" && record.command !== "service:demo";
  if (!stdio && view.peek() === "stderr") view.value = "history";
  return (
    <section class="activity" aria-label="Activity">
      <header class="activity-head">
        <TabList
          group="activity"
          label="Activity"
          panelId="activity-tabpanel"
          tabs={stdio ? STDIO_VIEWS : VIEWS}
          selected={view}
        />
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
      <div id="activity-tabpanel" role="tabpanel" aria-labelledby={tabId("activity", view.value)}>
        {view.value === "history"
          ? <HistoryPane serverId={serverId} messages={feed.messages} />
          : view.value === "stderr"
          ? <StderrPane serverId={serverId} />
          : <RawTrace serverId={serverId} messages={feed.messages} />}
      </div>
    </section>
  );
}
