/**
 * Protocol controls of a connected server: read its lists again, ping it with the round-trip
 * time, and set the level of the log messages it sends (the level set is read from the server's
 * state, so it shows after a reload too). A control the server's protocol or capabilities lack
 * is disabled and says why.
 */
import { useSignal } from "@preact/signals";
import { formatDuration } from "../format.ts";
import { describeError } from "../state.ts";
import { mcpApi, noteLogLevel } from "../tool_servers.ts";
import { LOG_LEVELS, type LogLevel, type PingVia } from "../../wire/tool_servers.ts";
import { workbenchApi } from "./workbench_api.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";

/** How each way of pinging is named beside the round trip. */
const PING_VIA: Record<PingVia, string> = {
  ping: "MCP ping",
  "server/discover": "server/discover, as 2026-07-28 has no ping",
  "http-head": "an HTTP HEAD request, as 2026-07-28 has no ping",
};

/** Why the log level cannot be set, or `null` when it can. */
export function noLogLevelReason(state: ToolServerState): string | null {
  return state.capabilities?.logging === undefined
    ? "The server does not offer logging (no logging capability)"
    : null;
}

/** A button's work: busy while it runs, what it answered, or its error. */
function useAction() {
  const busy = useSignal(false);
  const said = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const act = async (work: () => Promise<string | null>) => {
    busy.value = true;
    error.value = null;
    try {
      said.value = await work();
    } catch (failure) {
      said.value = null;
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };
  return { busy, said, error, act };
}

function Refresh({ state }: { state: ToolServerState }) {
  const { busy, error, act } = useAction();
  return (
    <span class="control">
      <button
        type="button"
        disabled={busy.value}
        title="List the tools, prompts and resources again"
        onClick={() =>
          act(async () => {
            await mcpApi.refresh(state.id);
            return null;
          })}
      >
        {busy.value ? "Refreshing…" : "Refresh lists"}
      </button>
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </span>
  );
}

function Ping({ state }: { state: ToolServerState }) {
  const { busy, said, error, act } = useAction();
  const ping = async () => {
    const { ms, via } = await workbenchApi.ping(state.id);
    return `round trip ${formatDuration(ms)} (${PING_VIA[via] ?? via})`;
  };
  return (
    <span class="control">
      <button
        type="button"
        disabled={busy.value}
        title="Measure a round trip to the server"
        onClick={() => act(ping)}
      >
        {busy.value ? "Pinging…" : "Ping"}
      </button>
      {said.value ? <span class="hint ping-time" role="status">{said.value}</span> : null}
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </span>
  );
}

/** The log level the server was set to (kept by Lass, so also after a reload), or its own. */
function LogLevelPicker({ state }: { state: ToolServerState }) {
  const { busy, said, error, act } = useAction();
  /** The level asked for while the request runs. */
  const pending = useSignal<LogLevel | null>(null);
  const reason = noLogLevelReason(state);
  const id = `log-level-${state.id}`.replace(/[^\w-]/g, "_");
  const pick = (chosen: LogLevel) =>
    act(async () => {
      pending.value = chosen;
      try {
        await workbenchApi.setLogLevel(state.id, chosen);
      } finally {
        pending.value = null;
      }
      noteLogLevel(state.id, chosen);
      return `log messages from ${chosen} up`;
    });
  return (
    <span class="control">
      <label for={id}>Log level</label>
      <select
        id={id}
        value={pending.value ?? state.logLevel ?? ""}
        disabled={busy.value || reason !== null}
        title={reason ?? "The least severe log messages the server should send"}
        onChange={(event) => pick(event.currentTarget.value as LogLevel)}
      >
        <option value="" disabled>The server's own</option>
        {LOG_LEVELS.map((name) => <option key={name} value={name}>{name}</option>)}
      </select>
      {reason ? <span class="hint">{reason}</span> : null}
      {said.value ? <span class="hint" role="status">{said.value}</span> : null}
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
    </span>
  );
}

/** The controls of a connected server. */
export function ServerControls({ state }: { state: ToolServerState }) {
  return (
    <div class="server-controls" role="group" aria-label="Protocol controls">
      <Refresh state={state} />
      <Ping state={state} />
      <LogLevelPicker state={state} />
    </div>
  );
}
