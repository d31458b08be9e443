/**
 * The MCP App renderer: the View of a tool result (`ui.kind = "mcp-app"`) in the spec's double
 * iframe, served from Lass's sandbox port, with what crossed the bridge logged under it.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useMemo, useRef } from "preact/hooks";
import type { ToolUi } from "../../wire/chat.ts";
import { bootstrap } from "../state.ts";
import { sandboxOrigin } from "./mcp_api.ts";
import { type AppStatus, startAppSession } from "./mcp_app_session.ts";
import { LinkConsent, LinkRequests } from "./mcp_consent.tsx";
import { BridgeLog, BridgeLogView } from "./mcp_log.tsx";
import type { ToolUiProps } from "./types.ts";

type AppUi = Extract<ToolUi, { kind: "mcp-app" }>;

/** Renders an MCP App result. */
export default function McpAppRenderer({ ui, call, result, runId, chat }: ToolUiProps) {
  const { serverId, resourceUri } = ui as AppUi;
  const container = useRef<HTMLDivElement>(null);
  const status = useSignal<AppStatus>({ status: "loading" });
  const log = useMemo(() => new BridgeLog(), []);
  const links = useMemo(() => new LinkRequests(), []);
  const booted = bootstrap.value !== null;
  const origin = sandboxOrigin();

  useEffect(() => {
    if (!origin || !container.current) return;
    status.value = { status: "loading" };
    return startAppSession({
      container: container.current,
      origin,
      serverId,
      resourceUri,
      call,
      result,
      runId,
      chat,
      log,
      links,
      onStatus: (next) => status.value = next,
    });
  }, [origin, serverId, resourceUri, call.id]);

  const state = status.value;
  const border = state.status !== "ready" || state.border;
  return (
    <section
      class={`mcp-app${border ? " mcp-bordered" : ""}`}
      data-ui-kind="mcp-app"
      data-status={state.status}
      aria-label={`MCP App ${resourceUri}`}
    >
      <p class="mcp-caption">
        <span>MCP App</span> <code>{resourceUri}</code>
      </p>
      {!origin && booted
        ? (
          <p class="error" role="alert">
            MCP Apps are shown through Lass's sandbox port, and this Lass has none (start it with
            {" "}
            <code>deno task start</code>).
          </p>
        )
        : null}
      {state.status === "error"
        ? <p class="error" role="alert">The app could not be shown: {state.error}</p>
        : null}
      {state.status === "silent"
        ? (
          <p class="mcp-silent" role="alert">
            The app has not connected: it sent no <code>ui/initialize</code> within {state.seconds}
            {" "}
            s, so it has not been given the tool's input or result.
          </p>
        )
        : null}
      {state.status === "loading" && origin
        ? <p class="loading mcp-loading">Loading the app…</p>
        : null}
      <div ref={container} class="mcp-frame-box" />
      <LinkConsent requests={links} who="The app" />
      <BridgeLogView log={log} label="What crossed the bridge" />
    </section>
  );
}
