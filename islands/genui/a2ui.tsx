/**
 * The A2UI renderer of a tool card (its own chunk, loaded on first use): the result's surfaces
 * in the workspace's theme, under the result's title. A button's action is recorded as a
 * `ui.action` event and continues the chat with a user turn that carries it (see
 * `a2ui_action.ts`); surfaces of a reopened chat work the same, from their initial data.
 */
import { useSignal } from "@preact/signals";
import { bootstrap, describeError } from "../state.ts";
import { actionEvent, actionMessage } from "./a2ui_action.ts";
import { reportAction } from "./a2ui_api.ts";
import { type A2uiClientAction, SurfaceView } from "./a2ui_surface.tsx";
import { headingRepeats } from "./a2ui_title.ts";
import { themeOf, workspaceIdOf } from "./a2ui_theme.ts";
import type { ToolUiProps } from "./types.ts";

/** Sources of tool calls that are not tool servers (see `ToolCallView.source`). */
const NOT_SERVERS = new Set(["ui", "skills", "agent", ""]);

/** What happened to the last action: sent, refused for now, or failed. */
interface ActionStatus {
  text: string;
  error?: boolean;
}

/** Renders A2UI results. */
export default function Renderer({ ui, call, runId, chat }: ToolUiProps) {
  const status = useSignal<ActionStatus | null>(null);
  if (ui.kind !== "a2ui") return null;
  const config = bootstrap.value?.config;
  const workspaceId = workspaceIdOf(config, chat?.workspaceId.value ?? "");
  const theme = themeOf(config, workspaceId);
  const agent = typeof theme?.agentDisplayName === "string" ? theme.agentDisplayName : "";

  const onAction = (action: A2uiClientAction) => {
    if (chat?.running.peek()) {
      status.value = {
        text: `"${action.name}" was not sent: the chat is still answering. ` +
          "Press it again when the answer is complete.",
        error: true,
      };
      return;
    }
    const origin = {
      sessionId: chat?.id,
      runId,
      tool: call.tool,
      serverId: NOT_SERVERS.has(call.source) ? undefined : call.source,
    };
    reportAction(actionEvent(action, origin)).catch((error) => {
      status.value = { text: `The action was not recorded: ${describeError(error)}`, error: true };
    });
    if (!chat) {
      status.value = { text: `Action "${action.name}" recorded.` };
      return;
    }
    status.value = { text: `Sent "${action.name}" to the chat.` };
    void chat.send(actionMessage(action, ui.title), workspaceId);
  };

  const shown = status.value;
  // The section is named by the title either way; it is drawn once.
  const title = ui.title && !headingRepeats(ui.messages, ui.title) ? ui.title : "";
  return (
    <section class="a2ui" aria-label={ui.title ? `UI: ${ui.title}` : "Generated UI"}>
      {title || agent
        ? (
          <header class="a2ui-header">
            {title ? <h4 class="a2ui-title">{title}</h4> : null}
            {agent ? <span class="a2ui-agent">by {agent}</span> : null}
          </header>
        )
        : null}
      <SurfaceView messages={ui.messages} theme={theme} onAction={onAction} />
      {shown
        ? (
          <p class={shown.error ? "a2ui-status error" : "a2ui-status note"} role="status">
            {shown.text}
          </p>
        )
        : null}
    </section>
  );
}
