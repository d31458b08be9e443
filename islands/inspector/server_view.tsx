/**
 * One tool server in the inspector: a picker of the configured servers, its state with
 * Connect / Reconnect / Disconnect (and sign-in when it needs it), what it told about itself,
 * its protocol controls and roots, the sign-in debugger of a remote server, tabs for its tools,
 * prompts and resources, and its activity (history and raw messages from its trace).
 */
import { useSignal } from "@preact/signals";
import { timeAgo } from "../format.ts";
import { onLink } from "../sidebar.tsx";
import { describeError, navigate } from "../state.ts";
import { Activity } from "./activity.tsx";
import { ServerControls } from "./controls.tsx";
import { RecordingControls } from "./recordings.tsx";
import { ConformanceControls } from "./conformance.tsx";
import { PromptsTab } from "./prompts.tsx";
import { ProxyPanel } from "./proxy_panel.tsx";
import { ResourcesTab } from "./resources.tsx";
import { mcpApi } from "../tool_servers.ts";
import { RetryNote } from "../retry_note.tsx";
import { RootsEditor } from "./roots_editor.tsx";
import { SignInDebugger } from "./sign_in_debugger.tsx";
import { TasksPanel } from "./tasks.tsx";
import { ToolsTab } from "./tools.tsx";
import type { ServerStatus, ToolServerState } from "../../wire/tool_servers.ts";
import { tabId, type TabItem, TabList } from "./tab_list.tsx";
import { DriftBanner } from "../drift_banner.tsx";
import { editRequest } from "./edit_request.ts";
import type { Rerun } from "./timeline.ts";

const STATUS_CLASS: Record<ServerStatus, string> = {
  connected: "badge-ok",
  connecting: "badge-running",
  "needs-auth": "badge-waiting",
  error: "badge-error",
  disconnected: "badge-ended",
};

/** A server's status as a badge. */
export function StatusBadge({ status }: { status: ServerStatus }) {
  return <span class={`badge ${STATUS_CLASS[status]}`}>{status}</span>;
}

/** The link to a server's inspector page. */
export function inspectorPath(id: string): string {
  return `/inspector/${encodeURIComponent(id)}`;
}

function Actions({ state }: { state: ToolServerState }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const act = async (work: () => Promise<unknown>) => {
    busy.value = true;
    error.value = null;
    try {
      await work();
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };
  const connecting = state.status === "connecting" || busy.value;
  return (
    <div class="server-actions">
      {state.status === "connected"
        ? (
          <>
            <button
              type="button"
              disabled={busy.value}
              onClick={() => act(() => mcpApi.connect(state.id, true))}
            >
              Reconnect
            </button>
            <button
              type="button"
              disabled={busy.value}
              onClick={() => act(() => mcpApi.disconnect(state.id))}
            >
              Disconnect
            </button>
          </>
        )
        : (
          <button
            type="button"
            class="primary"
            disabled={connecting}
            onClick={() => act(() => mcpApi.connect(state.id))}
          >
            {connecting ? "Connecting…" : "Connect"}
          </button>
        )}
      {state.status === "needs-auth" && state.authUrl
        ? (
          <a class="sign-in" href={state.authUrl} target="_blank" rel="noopener noreferrer">
            Sign in
          </a>
        )
        : null}
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
    </div>
  );
}

function About({ state }: { state: ToolServerState }) {
  const capabilities = Object.keys(state.capabilities ?? {});
  return (
    <div class="server-about">
      <p class="hints">
        <span class="badge">{state.transport}</span>
        {state.serverInfo
          ? (
            <span>
              {state.serverInfo.title ?? state.serverInfo.name} {state.serverInfo.version}
            </span>
          )
          : null}
        {state.connectedAt
          ? <span class="hint">connected {timeAgo(state.connectedAt)}</span>
          : null}
        {capabilities.length > 0
          ? <span class="hint">offers {capabilities.join(", ")}</span>
          : null}
      </p>
      {state.instructions
        ? (
          <details class="instructions">
            <summary>Instructions for the model</summary>
            <p>{state.instructions}</p>
          </details>
        )
        : null}
    </div>
  );
}

type Tab = "tools" | "prompts" | "resources";

/** The tab of each kind of past request. */
const EDIT_TABS: Record<Rerun["kind"], Tab> = {
  tool: "tools",
  prompt: "prompts",
  resource: "resources",
};

function Tabs({ state }: { state: ToolServerState }) {
  const tab = useSignal<Tab>("tools");
  // "Edit and send" in History: the request's tab opens, and its form takes it.
  const waiting = editRequest.value;
  if (waiting?.serverId === state.id && tab.peek() !== EDIT_TABS[waiting.rerun.kind]) {
    tab.value = EDIT_TABS[waiting.rerun.kind];
  }
  const tabs: TabItem<Tab>[] = [
    ["tools", "Tools", state.tools.length] as const,
    ["prompts", "Prompts", state.prompts.length] as const,
    ["resources", "Resources", state.resources.length + state.resourceTemplates.length] as const,
  ].map(([name, label, count]) => ({
    name,
    label: (
      <>
        {label} <span class="count">{count}</span>
      </>
    ),
  }));
  return (
    <>
      <TabList
        group="inspector"
        label="What the server offers"
        panelId="inspector-tabpanel"
        tabs={tabs}
        selected={tab}
      />
      <div id="inspector-tabpanel" role="tabpanel" aria-labelledby={tabId("inspector", tab.value)}>
        {tab.value === "tools"
          ? <ToolsTab state={state} />
          : tab.value === "prompts"
          ? <PromptsTab state={state} />
          : <ResourcesTab state={state} />}
      </div>
    </>
  );
}

/** The props of {@link ServerView}. */
export interface ServerViewProps {
  state: ToolServerState;
  all: ToolServerState[];
}

/** The inspector page of one server. */
export function ServerView({ state, all }: ServerViewProps) {
  return (
    <>
      <header class="inspector-head">
        <h1>
          <a href="/inspector" onClick={(event) => onLink(event, "/inspector")}>Inspector</a>
        </h1>
        <label class="picker">
          <span>Tool server</span>
          <select
            value={state.id}
            onChange={(event) => navigate(inspectorPath(event.currentTarget.value))}
          >
            {all.map((server) => (
              <option key={server.id} value={server.id}>{server.name} ({server.id})</option>
            ))}
          </select>
        </label>
        <StatusBadge status={state.status} />
        <RetryNote state={state} />
        <Actions state={state} />
      </header>
      {state.error
        ? (
          <p class="error server-error" role="alert">
            {state.error}
          </p>
        )
        : null}
      <DriftBanner state={state} />
      <About state={state} />
      {state.status === "connected" ? <ServerControls key={state.id} state={state} /> : null}
      {/* Always shown: verify reconnects the server, and its report must outlive that. */}
      <RecordingControls key={state.id} state={state} />
      <ConformanceControls key={state.id} serverId={state.id} />
      <RootsEditor key={state.id} serverId={state.id} />
      <TasksPanel key={state.id} serverId={state.id} />
      <ProxyPanel key={state.id} serverId={state.id} />
      {state.transport === "http" || state.transport === "sse"
        ? <SignInDebugger key={state.id} state={state} />
        : null}
      {state.status === "connected" ? <Tabs key={state.id} state={state} /> : (
        <p class="hint">
          {state.status === "connecting"
            ? "Connecting…"
            : "Connect the server to list its tools, prompts and resources."}
        </p>
      )}
      <Activity key={state.id} serverId={state.id} />
    </>
  );
}
