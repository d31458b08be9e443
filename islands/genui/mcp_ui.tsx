/**
 * The legacy MCP-UI renderer (`ui.kind = "mcp-ui"`): our own small one, no `@mcp-ui/client`.
 * HTML and URL lists are shown in a sandboxed frame through the sandbox port; remote-dom
 * resources get a card saying they are not supported.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useMemo, useRef } from "preact/hooks";
import type { ToolUi } from "../../wire/chat.ts";
import { bootstrap } from "../state.ts";
import { sandboxOrigin } from "./mcp_api.ts";
import { LinkConsent, LinkRequests } from "./mcp_consent.tsx";
import { BridgeLog, BridgeLogView } from "./mcp_log.tsx";
import { type LegacyResource, readLegacyResource } from "./mcp_ui_resource.ts";
import { startLegacySession } from "./mcp_ui_session.ts";
import type { ToolUiProps } from "./types.ts";

type LegacyUi = Extract<ToolUi, { kind: "mcp-ui" }>;
type Shown = LegacyResource & { view: { kind: "html" | "url" } };

/** Notices kept per resource. */
const KEPT_NOTICES = 20;

/** Renders a legacy MCP-UI result. */
export default function McpUiRenderer({ ui, call, runId, chat }: ToolUiProps) {
  const resource = useMemo(() => readLegacyResource((ui as LegacyUi).resource), [ui]);
  const container = useRef<HTMLDivElement>(null);
  const error = useSignal<string | null>(null);
  const notices = useSignal<string[]>([]);
  const log = useMemo(() => new BridgeLog(), []);
  const links = useMemo(() => new LinkRequests(), []);
  const origin = sandboxOrigin();
  const view = resource.view;
  const shown = view.kind === "html" || view.kind === "url";

  useEffect(() => {
    if (!origin || !shown || !container.current) return;
    return startLegacySession({
      container: container.current,
      origin,
      resource: resource as Shown,
      call,
      runId,
      chat,
      log,
      links,
      notice: (text) => notices.value = [...notices.peek(), text].slice(-KEPT_NOTICES),
      onError: (message) => error.value = message,
    });
  }, [origin, resource, call.id]);

  return (
    <section
      class="mcp-ui mcp-bordered"
      data-ui-kind="mcp-ui"
      aria-label={`MCP-UI ${resource.uri}`}
    >
      <p class="mcp-caption">
        <span>MCP-UI</span> <code>{resource.uri}</code>
      </p>
      {view.kind === "remote-dom"
        ? (
          <p class="mcp-unsupported" role="note">
            Remote-DOM resources (<code>{view.mimeType}</code>) are not supported by Lass. The
            tool's text result is shown above.
          </p>
        )
        : null}
      {view.kind === "unsupported"
        ? (
          <p class="mcp-unsupported" role="note">
            This UI resource cannot be shown: {view.reason}.
          </p>
        )
        : null}
      {shown && !origin && bootstrap.value !== null
        ? (
          <p class="error" role="alert">
            UI resources are shown through Lass's sandbox port, and this Lass has none.
          </p>
        )
        : null}
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      {shown ? <div ref={container} class="mcp-frame-box" /> : null}
      <LinkConsent requests={links} who="The UI" />
      {notices.value.length > 0
        ? (
          <ul class="mcp-notices" role="status" aria-label="Messages from the UI">
            {notices.value.map((text, i) => <li key={i}>{text}</li>)}
          </ul>
        )
        : null}
      {shown ? <BridgeLogView log={log} label="Messages with the UI" /> : null}
    </section>
  );
}
