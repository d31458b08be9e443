/**
 * The tool-server inspector: `/inspector` lists the configured servers with their state,
 * `/inspector/<serverId>` shows one server (see `server_view.tsx`).
 */
import { useEffect } from "preact/hooks";
import { RetryNote } from "../retry_note.tsx";
import { plural } from "../../wire/words.ts";
import { onLink } from "../sidebar.tsx";
import { followServers, servers, serversError } from "../tool_servers.ts";
import { inspectorPath, ServerView, StatusBadge } from "./server_view.tsx";
import type { ToolServerState } from "../../wire/tool_servers.ts";

function ServerList({ list }: { list: ToolServerState[] }) {
  return (
    <>
      <h1>Inspector</h1>
      <p class="hint">
        The tool servers of the config. Open one to connect it and try its tools, prompts and
        resources.
      </p>
      {list.length === 0
        ? (
          <p>
            No tool servers are configured.{" "}
            <a href="/settings/servers" onClick={(event) => onLink(event, "/settings/servers")}>
              Add one in the settings
            </a>
            .
          </p>
        )
        : (
          <ul class="server-list">
            {list.map((state) => {
              const href = inspectorPath(state.id);
              return (
                <li key={state.id} class="server-row">
                  <a href={href} onClick={(event) => onLink(event, href)}>{state.name}</a>
                  <code>{state.id}</code>
                  <span class="badge">{state.transport}</span>
                  <StatusBadge status={state.status} />
                  {state.status === "connected"
                    ? (
                      <span class="hint">
                        {plural(state.tools.length, "tool")},{" "}
                        {plural(state.prompts.length, "prompt")}, {plural(
                          state.resources.length + state.resourceTemplates.length,
                          "resource",
                        )}
                      </span>
                    )
                    : null}
                  {state.drift
                    ? (
                      <span class="badge badge-waiting" title="Open it to review and accept">
                        {plural(state.drift.changes.length, "change")} since pinned
                      </span>
                    )
                    : null}
                  <RetryNote state={state} />
                  {state.error ? <span class="error">{state.error}</span> : null}
                </li>
              );
            })}
          </ul>
        )}
    </>
  );
}

/** The inspector page for `path`. */
export default function InspectorPage({ path }: { path: string }) {
  useEffect(() => followServers(), []);
  const id = path.split("/")[2];
  const serverId = id ? decodeURIComponent(id) : undefined;
  const list = servers.value;
  const state = list?.find((server) => server.id === serverId);
  return (
    <div class="inspector">
      {serversError.value ? <p class="error" role="alert">{serversError.value}</p> : null}
      {list === null
        ? <p class="loading">Loading…</p>
        : serverId === undefined
        ? <ServerList list={list} />
        : state
        ? <ServerView state={state} all={list} />
        : (
          <>
            <h1>Inspector</h1>
            <p class="error" role="alert">
              There is no tool server <code>{serverId}</code>.{" "}
              <a href="/inspector" onClick={(event) => onLink(event, "/inspector")}>
                All tool servers
              </a>
            </p>
          </>
        )}
    </div>
  );
}
