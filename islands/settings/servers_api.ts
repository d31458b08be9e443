/**
 * The tool-server settings' data: live states of the configured servers (from the bootstrap, then
 * `GET /api/mcp`, kept current by the `mcp.*` events of the app's one stream) and typed wrappers
 * of the tool-server routes the settings use.
 */
import { signal } from "@preact/signals";
import type { ToolServerState } from "../../wire/bootstrap.ts";
import { api, bootstrap, describeError, subscribe } from "../state.ts";
import type { RecordDraft } from "./kit.tsx";

/** The states by server id; `null` until first read. */
export const serverStates = signal<Map<string, ToolServerState> | null>(null);
/** Why the states could not be read, if they could not. */
export const statesError = signal<string | null>(null);

/** The state of one server, from the live states, else from the bootstrap. */
export function stateOf(id: string): ToolServerState | undefined {
  return serverStates.value?.get(id) ?? bootstrap.value?.mcp.find((state) => state.id === id);
}

/** Reads `GET /api/mcp` into {@link serverStates}. */
export async function loadStates(): Promise<void> {
  try {
    const answer = await api().json<{ servers: ToolServerState[] }>("GET", "/api/mcp");
    serverStates.value = new Map(answer.servers.map((state) => [state.id, state]));
    statesError.value = null;
  } catch (error) {
    statesError.value = describeError(error);
  }
}

/** Puts a state a route answered in place of the one with its id. */
function keep(state: ToolServerState): ToolServerState {
  const next = new Map(serverStates.peek() ?? []);
  next.set(state.id, state);
  serverStates.value = next;
  return state;
}

/** Applies an `mcp.state` event at once (the status, error and sign-in URL it carries). */
function applyStateEvent(data: Record<string, unknown>): void {
  const id = String(data.id ?? "");
  const known = serverStates.peek()?.get(id);
  if (!known) return;
  const next = new Map(serverStates.peek()!);
  if (data.removed) next.delete(id);
  else {
    const { error: _error, authUrl: _authUrl, ...rest } = known;
    next.set(id, {
      ...rest,
      status: data.status as ToolServerState["status"],
      ...(typeof data.error === "string" && { error: data.error }),
      ...(typeof data.authUrl === "string" && { authUrl: data.authUrl }),
    });
  }
  serverStates.value = next;
}

/**
 * Reads the states and keeps them current until the returned function is called: an `mcp.state`
 * event applies at once, and the full states (tool lists) are read again shortly after it, after
 * a list change (`mcp.notification`) and after a config change.
 */
export function followStates(): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reload = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void loadStates(), 120);
  };
  void loadStates();
  const stop = subscribe((event) => {
    if (event.type === "mcp.state") applyStateEvent(event.data);
    if (/^mcp\.(state|notification)$|^config\.changed$/.test(event.type)) reload();
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

/** The answer of `POST /api/mcp/test`: the draft's state after connecting, and how long it took. */
export type ServerProbe = ToolServerState & { ok: boolean; latencyMs: number };

/** The answer of `POST /api/mcp/import`. */
export interface ImportPreview {
  servers: RecordDraft[];
  warnings: string[];
  format: string;
}

/** The client formats `POST /api/mcp/import` reads, with their labels. */
export const IMPORT_FORMATS: [string, string][] = [
  ["claude-desktop", "Claude Desktop"],
  ["claude-code", "Claude Code"],
  ["cursor", "Cursor"],
  ["vscode", "VS Code"],
  ["windsurf", "Windsurf"],
  ["zed", "Zed"],
  ["cline", "Cline"],
  ["continue", "Continue (YAML)"],
  ["goose", "Goose (YAML)"],
  ["codex", "Codex (TOML)"],
  ["gemini", "Gemini CLI"],
];

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A draft as `POST /api/mcp/test` takes it: a usable id and name (stand-ins when missing). */
export function testableServer(draft: RecordDraft): Record<string, unknown> {
  const id = ID.test(draft.id) && !draft.id.includes("__") ? draft.id : "draft";
  const name = typeof draft.name === "string" && draft.name.trim() !== "" ? draft.name : id;
  return { ...draft, id, name };
}

/** The tool-server routes of the settings. */
export const serversApi = {
  connect: async (id: string, force = false) =>
    keep(await api().json<ToolServerState>("POST", path(id, "connect"), force ? { force } : {})),
  disconnect: async (id: string) =>
    keep(await api().json<ToolServerState>("POST", path(id, "disconnect"), {})),
  /** Forgets the server's OAuth tokens (remote servers only); answers the new state. */
  signOut: async (id: string) =>
    keep(await api().json<ToolServerState>("POST", path(id, "signout"), {})),
  /** Connects a draft (not saved) and reports what it found. */
  test: (server: Record<string, unknown>) =>
    api().json<ServerProbe>("POST", "/api/mcp/test", { server }),
  /** Reads a client's config; nothing is saved. */
  preview: (text: string, format?: string) =>
    api().json<ImportPreview>("POST", "/api/mcp/import", {
      json: text,
      ...(format && { format }),
    }),
};
