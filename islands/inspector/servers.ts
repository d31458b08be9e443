/**
 * The inspector's data: the tool-server states of `GET /api/mcp`, kept current by the `mcp.*`
 * events of the app's stream, and typed wrappers of the tool-server routes.
 */
import { signal } from "@preact/signals";
import { api, describeError, subscribe } from "../state.ts";
import type { ToolServerState } from "../../wire/bootstrap.ts";

/** One content block of a tool result or a prompt message (text, image, audio, resource...). */
export interface ContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  resource?: ResourceContents;
  [field: string]: unknown;
}

/** One item of a `resources/read` result (or an embedded resource): text or base64 `blob`. */
export interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
  [field: string]: unknown;
}

/** A `tools/call` result. */
export interface ToolResult {
  content?: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  [field: string]: unknown;
}

/** `POST /api/mcp/:id/call`: the result and how long the call took. */
export interface CallOutcome {
  result: ToolResult;
  durationMs: number;
}

/** `POST /api/mcp/:id/prompt`: the `prompts/get` result. */
export interface PromptResult {
  description?: string;
  messages: { role: string; content: ContentBlock }[];
}

/** `POST /api/mcp/:id/resource`: the `resources/read` result. */
export interface ResourceResult {
  contents: ResourceContents[];
}

/** The states of the configured tool servers, in config order; `null` until loaded. */
export const servers = signal<ToolServerState[] | null>(null);
export const serversError = signal<string | null>(null);

/** Reads `GET /api/mcp` into {@link servers}. */
export async function loadServers(): Promise<void> {
  try {
    const answer = await api().json<{ servers: ToolServerState[] }>("GET", "/api/mcp");
    servers.value = answer.servers;
    serversError.value = null;
  } catch (error) {
    serversError.value = describeError(error);
  }
}

/** Puts a state that a route answered in place of the one with its id. */
function keep(state: ToolServerState): ToolServerState {
  const list = servers.peek() ?? [];
  servers.value = list.some((known) => known.id === state.id)
    ? list.map((known) => known.id === state.id ? state : known)
    : [...list, state];
  return state;
}

/**
 * Loads the states and reloads them on `mcp.state`, `mcp.notification` (a list changed) and
 * `config.changed` events until the returned function is called.
 */
export function followServers(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  void loadServers();
  const stop = subscribe((event) => {
    if (!/^mcp\.(state|notification)$|^config\.changed$/.test(event.type)) return;
    clearTimeout(timer);
    timer = setTimeout(() => void loadServers(), 100);
  });
  return () => {
    clearTimeout(timer);
    stop();
  };
}

const path = (id: string, action: string) => `/api/mcp/${encodeURIComponent(id)}/${action}`;

/** The tool-server routes. */
export const mcpApi = {
  /** Connects (`force`: reconnects); answers the new state. */
  connect: async (id: string, force = false) =>
    keep(
      await api().json<ToolServerState>("POST", path(id, "connect"), force ? { force } : {}),
    ),
  disconnect: async (id: string) =>
    keep(await api().json<ToolServerState>("POST", path(id, "disconnect"), {})),
  call: (id: string, tool: string, args: Record<string, unknown>) =>
    api().json<CallOutcome>("POST", path(id, "call"), { tool, args }),
  prompt: (id: string, name: string, args: Record<string, string>) =>
    api().json<PromptResult>("POST", path(id, "prompt"), { name, args }),
  resource: (id: string, uri: string) =>
    api().json<ResourceResult>("POST", path(id, "resource"), { uri }),
};
