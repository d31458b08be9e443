/**
 * What the MCP Apps and MCP-UI renderers ask of Lass, through the one API client: a server's
 * `ui://` resource, a tool call made by a View (an app call: the server enforces visibility), and
 * UI events for the log. Events are queued and sent one after another, never awaited by a View.
 */
import { ApiError } from "../api.ts";
import { api, bootstrap } from "../state.ts";
import type { CallToolResult, ReadResourceResult } from "./mcp_types.ts";

const id = encodeURIComponent;

/** `POST /api/mcp/:id/resource`: the server's `resources/read` answer, untouched. */
export function readResource(serverId: string, uri: string): Promise<ReadResourceResult> {
  return api().json<ReadResourceResult>("POST", `/api/mcp/${id(serverId)}/resource`, { uri });
}

/**
 * `POST /api/mcp/:id/call` with `from: "app"`: a tool call made by a View of that server. A tool
 * whose visibility lacks `"app"` is refused (403 `forbidden-tool`).
 */
export async function callAppTool(
  serverId: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  const answer = await api().json<{ result: CallToolResult }>(
    "POST",
    `/api/mcp/${id(serverId)}/call`,
    { tool, args, from: "app" },
  );
  return answer.result;
}

/** The origin of the sandbox port, when this Lass has one. */
export function sandboxOrigin(): string | undefined {
  return bootstrap.value?.sandbox?.origin;
}

/** A UI event for `POST /api/events/ui`. */
export interface UiEvent {
  type: "ui.rpc" | "ui.action";
  data: Record<string, unknown> & ({ method: string } | { name: string });
}

/** Unsent events kept at most: past that the oldest are dropped (a slow or hanging API). */
export const MAX_QUEUED_UI_EVENTS = 200;

const queue: UiEvent[] = [];
let sending = false;

/**
 * Records a UI event (fire and forget). Events go out in order, one request at a time; a failure
 * drops that event only, and Lass out of reach drops every unsent one. A size change replaces an
 * unsent one of the same View, so a View that resizes on every frame cannot flood the log; at most
 * {@link MAX_QUEUED_UI_EVENTS} wait, the oldest going first, so a View cannot grow the queue
 * without bound while the API does not answer.
 */
export function reportUiEvent(event: UiEvent): void {
  const key = sizeKey(event);
  const stale = key === undefined ? -1 : queue.findIndex((queued) => sizeKey(queued) === key);
  if (stale >= 0) queue.splice(stale, 1);
  queue.push(event);
  if (queue.length > MAX_QUEUED_UI_EVENTS) queue.splice(0, queue.length - MAX_QUEUED_UI_EVENTS);
  if (!sending) void drain();
}

function sizeKey(event: UiEvent): string | undefined {
  const { method, toolCallId } = event.data as { method?: string; toolCallId?: string };
  return method === "ui/notifications/size-changed" ? `${method} ${toolCallId}` : undefined;
}

async function drain(): Promise<void> {
  sending = true;
  try {
    while (queue.length > 0) {
      const event = queue.shift()!;
      try {
        await api().json("POST", "/api/events/ui", event);
      } catch (error) {
        // The log is best effort: a View never waits for it or fails because of it. When Lass
        // cannot be reached at all, the rest would fail too: drop it rather than retry each.
        if (error instanceof ApiError && error.status === 0) queue.length = 0;
      }
    }
  } finally {
    sending = false;
  }
}
