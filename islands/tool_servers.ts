/**
 * The tool servers as the settings and the inspector see them: the states of `GET /api/mcp`, kept
 * current by the `mcp.*` events of the app's one stream, and typed wrappers of the tool-server
 * routes.
 */
import { signal } from "@preact/signals";
import type { RetryState, ToolServerState } from "../wire/tool_servers.ts";
import type { ImportResult, LogLevel, ServerProbe } from "../wire/tool_servers.ts";
import { api, bootstrap, describeError, subscribe } from "./state.ts";

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
  /** `passed`: the structured content was checked against the tool's output schema. */
  outputSchema?: "passed";
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
/** Why the states could not be read, if they could not. */
export const serversError = signal<string | null>(null);

/** The state of one server, from the live states, else from the bootstrap. */
export function stateOf(id: string): ToolServerState | undefined {
  const byId = (state: ToolServerState) => state.id === id;
  return servers.value?.find(byId) ?? bootstrap.value?.mcp.find(byId);
}

/** How many log-level and subscription changes were noted (see {@link update}). */
let noted = 0;

/** Reads `GET /api/mcp` into {@link servers}. */
export async function loadServers(): Promise<void> {
  try {
    let answer: { servers: ToolServerState[] };
    let before: number;
    // A change noted while the request ran may be missing from its answer: read again.
    do {
      before = noted;
      answer = await api().json<{ servers: ToolServerState[] }>("GET", "/api/mcp");
    } while (noted !== before);
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

/** Applies an `mcp.state` event at once (the status, error and sign-in URL it carries). */
function applyStateEvent(data: Record<string, unknown>): void {
  const list = servers.peek();
  const known = list?.find((state) => state.id === data.id);
  if (!list || !known) return;
  if (data.removed) {
    servers.value = list.filter((state) => state !== known);
    return;
  }
  const { error: _error, authUrl: _authUrl, retry: _retry, ...rest } = known;
  const next: ToolServerState = {
    ...rest,
    status: data.status as ToolServerState["status"],
    ...(typeof data.error === "string" && { error: data.error }),
    ...(typeof data.authUrl === "string" && { authUrl: data.authUrl }),
    ...(typeof data.retry === "object" && data.retry !== null &&
      { retry: data.retry as RetryState }),
  };
  servers.value = list.map((state) => state === known ? next : state);
}

/**
 * Replaces the state of server `id` (if listed) with what `change` makes of it, and counts the
 * change so that a `GET /api/mcp` in flight is read again.
 */
function update(id: unknown, change: (state: ToolServerState) => ToolServerState): void {
  noted++;
  const list = servers.peek();
  const known = list?.find((state) => state.id === id);
  if (!list || !known) return;
  servers.value = list.map((state) => state === known ? change(state) : state);
}

/** Notes a server's new log level (`POST /api/mcp/:id/log-level`, or its `mcp.log-level` event). */
export function noteLogLevel(id: string, level: LogLevel): void {
  update(id, (state) => ({ ...state, logLevel: level }));
}

/** Notes a (un)subscribed resource (`POST /api/mcp/:id/subscribe`, or its `mcp.subscription` event). */
export function noteSubscription(id: string, uri: string, subscribed: boolean): void {
  update(id, (state) => {
    const others = state.subscriptions.filter((known) => known !== uri);
    const listed = others.length < state.subscriptions.length;
    if (subscribed === listed) return state;
    return { ...state, subscriptions: subscribed ? [...others, uri] : others };
  });
}

/**
 * Reads the states and keeps them current until the returned function is called: an `mcp.state`,
 * `mcp.log-level` or `mcp.subscription` event applies at once, and the full states (tool lists)
 * are read again shortly after an `mcp.state`, after a list change (`mcp.notification`), after a
 * drift from the pins or its accept (`mcp.drift`), after a config change and after a sign-in.
 */
export function followServers(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reload = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void loadServers(), 120);
  };
  void loadServers();
  const stop = subscribe((event) => {
    const { data } = event;
    if (event.type === "mcp.state") applyStateEvent(data);
    if (event.type === "mcp.log-level") noteLogLevel(String(data.serverId), data.level as LogLevel);
    if (event.type === "mcp.subscription") {
      noteSubscription(String(data.serverId), String(data.uri), data.subscribed === true);
    }
    if (/^mcp\.(state|notification|drift)$|^config\.changed$/.test(event.type)) reload();
  });
  // The sign-in page tells the window that opened it when it is done.
  const onMessage = (event: MessageEvent) => {
    if (event.origin === location.origin && event.data?.type === "lass.oauth") reload();
  };
  addEventListener("message", onMessage);
  return () => {
    clearTimeout(timer);
    stop();
    removeEventListener("message", onMessage);
  };
}

const path = (id: string, action: string) => `/api/mcp/${encodeURIComponent(id)}/${action}`;

/** The tool-server routes; those that answer a server's new state also update {@link servers}. */
export const mcpApi = {
  /** Connects (`force`: reconnects); answers the new state. */
  connect: async (id: string, force = false) =>
    keep(await api().json<ToolServerState>("POST", path(id, "connect"), force ? { force } : {})),
  disconnect: async (id: string) =>
    keep(await api().json<ToolServerState>("POST", path(id, "disconnect"), {})),
  /** Forgets the server's OAuth tokens (remote servers only); answers the new state. */
  signOut: async (id: string) =>
    keep(await api().json<ToolServerState>("POST", path(id, "signout"), {})),
  /** Makes what the server offers now its pins (its drift is accepted); answers the new state. */
  acceptPins: async (id: string) =>
    keep(await api().json<ToolServerState>("POST", path(id, "pins/accept"), {})),
  /** Reads the server's tools, prompts and resources again; answers the new state. */
  refresh: async (id: string) =>
    keep(await api().json<ToolServerState>("POST", path(id, "refresh"), {})),
  call: (id: string, tool: string, args: Record<string, unknown>) =>
    api().json<CallOutcome>("POST", path(id, "call"), { tool, args }),
  prompt: (id: string, name: string, args: Record<string, string>) =>
    api().json<PromptResult>("POST", path(id, "prompt"), { name, args }),
  resource: (id: string, uri: string) =>
    api().json<ResourceResult>("POST", path(id, "resource"), { uri }),
  /** Connects a draft record (not saved) and reports what it found. */
  test: (server: Record<string, unknown>) =>
    api().json<ServerProbe>("POST", "/api/mcp/test", { server }),
  /** Reads another client's config as records; nothing is saved. */
  importConfig: (text: string, format?: string) =>
    api().json<ImportResult>("POST", "/api/mcp/import", {
      json: text,
      ...(format && { format }),
    }),
};
