/**
 * An A2UI action as the user turn that continues the chat: one line a person reads, then the
 * A2UI v0.9 client message (`{"version": "v0.9", "action": {...}}`) on the next line, which the
 * model is told about in the render tool's instructions.
 */
import type { A2uiClientAction } from "@a2ui/web_core/v0_9";
import type { UiActionEvent } from "./a2ui_api.ts";

/** A value of the action's context, short. */
function shortValue(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}

/**
 * The text of the user turn an action sends, e.g.
 * `UI action "signup" on "Sign up" (surface demo-signup): email "ada@example.com".` and then
 * the v0.9 action message as JSON.
 */
export function actionMessage(action: A2uiClientAction, title?: string): string {
  const where = title
    ? `"${title}" (surface ${action.surfaceId})`
    : `the surface ${action.surfaceId}`;
  const values = Object.entries(action.context ?? {}).map(([key, value]) =>
    `${key} ${shortValue(value)}`
  );
  const line = `UI action "${action.name}" on ${where}${
    values.length > 0 ? `: ${values.join(", ")}` : ""
  }.`;
  return `${line}\n${JSON.stringify({ version: "v0.9", action })}`;
}

/** Where an action comes from: the chat, the run, and the tool call whose result it is. */
export interface ActionOrigin {
  sessionId?: string;
  runId?: string;
  /** The tool that made the surface (the render tool, or a tool server's tool). */
  tool?: string;
  /** The tool server, when a tool server's result carried the surface. */
  serverId?: string;
}

/** The `ui.action` event of an action, with where it comes from. */
export function actionEvent(action: A2uiClientAction, where: ActionOrigin = {}): UiActionEvent {
  return {
    name: action.name,
    surfaceId: action.surfaceId,
    sourceComponentId: action.sourceComponentId,
    context: action.context,
    ...(where.sessionId && { sessionId: where.sessionId }),
    ...(where.runId && { runId: where.runId }),
    ...(where.tool && { tool: where.tool }),
    ...(where.serverId && { serverId: where.serverId }),
  };
}
