/** A tool server's live status in the list, and its connect / disconnect / sign-in buttons. */
import { useSignal } from "@preact/signals";
import { RetryNote } from "../retry_note.tsx";
import type { ServerStatus, ToolServerState } from "../../wire/tool_servers.ts";
import { onLink } from "../sidebar.tsx";
import { describeError } from "../state.ts";
import { mcpApi, stateOf } from "../tool_servers.ts";
import type { RecordDraft } from "./form.tsx";
import { DriftBanner } from "../drift_banner.tsx";
import { commandLineOf } from "./command_line.ts";

const LABELS: Record<ServerStatus, string> = {
  disconnected: "disconnected",
  connecting: "connecting…",
  connected: "connected",
  "needs-auth": "needs sign-in",
  error: "error",
};

/** The status as a badge: `connected`, `needs sign-in`, ... */
export function StatusBadge({ status }: { status: ServerStatus }) {
  return <span class={`badge server-status status-${status}`}>{LABELS[status]}</span>;
}

function toolCount(state: ToolServerState): string {
  const total = state.tools.length;
  const hidden = state.tools.filter((tool) => !tool.modelVisible).length;
  const tools = `${total} tool${total === 1 ? "" : "s"}`;
  return hidden > 0 ? `${tools} (${hidden} hidden from the model)` : tools;
}

/** A server's line in the list: transport and target, live status, tool count, last error. */
export function ServerSummary({ record }: { record: RecordDraft }) {
  const state = stateOf(record.id);
  const target = record.transport === "stdio"
    ? commandLineOf(record.command, record.args)
    : record.transport === "replay"
    ? String(record.cassette ?? "")
    : String(record.url ?? "");
  const status = state?.status ?? "disconnected";
  return (
    <>
      <span>
        {String(record.transport ?? "")} · <code>{target}</code>
      </span>
      <span class="server-live" role="status" aria-label={`Status of ${record.id}`}>
        <StatusBadge status={status} />
        {state && status === "connected"
          ? <span class="server-tools">{toolCount(state)}</span>
          : null}
        {state ? <RetryNote state={state} /> : null}
        {state && status === "connected" && state.era
          ? (
            <span class="server-era" title={`${state.era} protocol era`}>
              {state.protocolVersion ?? state.era} · {state.era}
            </span>
          )
          : null}
      </span>
      {state?.error ? <span class="server-error error">{state.error}</span> : null}
      {state && status === "connected" ? <DriftBanner state={state} compact /> : null}
    </>
  );
}

/** Opens a sign-in URL in a new tab that can tell this one when it is done. */
function openSignIn(url: string): boolean {
  // Not `noopener`: the callback page posts {type: "lass.oauth"} to its opener.
  return open(url, "_blank") !== null;
}

/** A server's buttons: connect or disconnect, sign in or out, and a link to its inspector. */
export function ServerActions({ record }: { record: RecordDraft }) {
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const blocked = useSignal(false);
  const state = stateOf(record.id);
  const status = state?.status ?? "disconnected";
  const label = String(record.name ?? record.id);
  const remote = record.transport === "http" || record.transport === "sse";
  const run = async (action: () => Promise<unknown>) => {
    busy.value = true;
    error.value = null;
    try {
      await action();
    } catch (caught) {
      error.value = describeError(caught);
    } finally {
      busy.value = false;
    }
  };
  const inspector = `/inspector/${encodeURIComponent(record.id)}`;
  return (
    <>
      {error.value ? <span class="test-inline error" role="alert">{error.value}</span> : null}
      {status === "needs-auth" && state?.authUrl
        ? (
          <>
            <button
              type="button"
              class="primary"
              aria-label={`Sign in to ${label}`}
              onClick={() => blocked.value = !openSignIn(state.authUrl!)}
            >
              Sign in
            </button>
            {blocked.value
              ? (
                <a href={state.authUrl} target="_blank" rel="opener">
                  Open the sign-in page
                </a>
              )
              : null}
          </>
        )
        : null}
      {status === "connected" || status === "connecting"
        ? (
          <button
            type="button"
            aria-label={`Disconnect ${label}`}
            disabled={busy.value}
            onClick={() => run(() => mcpApi.disconnect(record.id))}
          >
            Disconnect
          </button>
        )
        : (
          <button
            type="button"
            aria-label={`${status === "disconnected" ? "Connect" : "Reconnect"} ${label}`}
            disabled={busy.value}
            onClick={() => run(() => mcpApi.connect(record.id, status !== "disconnected"))}
          >
            {busy.value ? "Connecting…" : status === "disconnected" ? "Connect" : "Reconnect"}
          </button>
        )}
      {remote && record.oauth !== false
        ? (
          <button
            type="button"
            aria-label={`Sign out of ${label}`}
            title="Forget this server's sign-in (tokens and registration)"
            disabled={busy.value}
            onClick={() => run(() => mcpApi.signOut(record.id))}
          >
            Sign out
          </button>
        )
        : null}
      <a
        class="button-link"
        href={inspector}
        aria-label={`Inspect ${label}`}
        onClick={(event) => onLink(event, inspector)}
      >
        Inspect
      </a>
    </>
  );
}
