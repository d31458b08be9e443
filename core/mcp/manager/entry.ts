/** The manager's record of one tool server: its config, state, open session and bookkeeping. */
import type { McpServerConfig, ServiceConfig } from "../../../wire/config/schema.ts";
import { LassError } from "../../errors.ts";
import type { EraVerdict } from "../session/errors.ts";
import type { LogLevel } from "../../../wire/tool_servers.ts";
import type { McpSession } from "../session/types.ts";
import { type ConnectionState, type ToolServerState } from "../../../wire/tool_servers.ts";
import { emptyState, withSettings } from "./state.ts";
import { defaultWorkspace } from "../../config/workspaces.ts";

/** Who made a tool call: a chat run (and its model) or the API. Server requests during it inherit it. */
export interface CallContext {
  /** The chat run; interactions the call causes carry it and end with it. */
  runId?: string;
  /** The model profile of the chat; sampling requests during the call use it. */
  llmId?: string;
  /**
   * The model's id for this call (or the API caller's `callId`), in its `tool.call`,
   * `tool.progress` and `tool.result` events.
   */
  toolCallId?: string;
}

/** One configured (or draft) tool server. */
export interface Entry {
  record: McpServerConfig;
  /** What the connection tells; {@link stateOf} adds the log level and subscriptions. */
  state: ConnectionState;
  session?: McpSession;
  connecting?: Promise<void>;
  /** The last lines the server wrote to stderr, for error messages. */
  stderrTail: string[];
  /** Increases with every connect and disconnect; late results of older attempts are dropped. */
  generation: number;
  /** The calls in flight, oldest first: a server request is attributed to the newest. */
  calls: CallContext[];
  /** The era verdict of the last connect, valid while the connection settings stay the same. */
  verdict?: { key: string; verdict: EraVerdict };
  /** When a chat or the API last used the server (ms since epoch): recent use keeps it healing. */
  usedAt: number;
  /** Stops the heartbeat of the open session. */
  stopHeartbeat?: () => void;
  /** The log level chosen over the API; each new session asks for it (in memory only). */
  logLevel?: LogLevel;
  /** The resources followed over the API; each new session subscribes to them again. */
  subscriptions: Set<string>;
}

/** A new entry for a record, not connected. */
export function newEntry(record: McpServerConfig): Entry {
  return {
    record,
    state: emptyState(record),
    stderrTail: [],
    generation: 0,
    calls: [],
    usedAt: 0,
    subscriptions: new Set(),
  };
}

/** The last state {@link stateOf} made for each entry. */
const reported = new WeakMap<Entry, { from: ConnectionState; state: ToolServerState }>();

/**
 * A server's state as the API reports it: the connection's, with its log level and
 * subscriptions. The same object while none of them changes (the bootstrap caches by identity).
 */
export function stateOf(entry: Entry): ToolServerState {
  const subscriptions = [...entry.subscriptions];
  const last = reported.get(entry);
  if (
    last && last.from === entry.state && last.state.logLevel === entry.logLevel &&
    last.state.subscriptions.length === subscriptions.length &&
    last.state.subscriptions.every((uri, i) => uri === subscriptions[i])
  ) return last.state;
  const state = {
    ...entry.state,
    ...(entry.logLevel && { logLevel: entry.logLevel }),
    subscriptions,
  };
  reported.set(entry, { from: entry.state, state });
  return state;
}

/** The settings that shape the connection itself; a change of any of them reconnects. */
export function connectionKey(record: McpServerConfig): string {
  const { transport, command, args, env, cwd, url, headers, timeoutMs, oauth, protocolEra } =
    record;
  const { cassette, match, speed } = record;
  const inheritEnv = (record as { inheritEnv?: unknown }).inheritEnv;
  return JSON.stringify({
    transport,
    command,
    args,
    env,
    inheritEnv,
    cwd,
    url,
    headers,
    timeoutMs,
    oauth,
    protocolEra,
    cassette,
    match,
    speed,
  });
}

/** The ids of the tool servers some workspace uses. */
export function usedServerIds(config: ServiceConfig): Set<string> {
  return new Set(config.workspaces.flatMap((workspace) => workspace.mcpServerIds));
}

/** The ids of the tool servers the active workspace (else the first) enables. */
export function activeServerIds(config: ServiceConfig): Set<string> {
  return new Set(defaultWorkspace(config)?.mcpServerIds ?? []);
}

/** What a config change does to the entries: the new map, and who reconnects, closes or goes. */
export interface ConfigPlan {
  next: Map<string, Entry>;
  reconnect: string[];
  close: string[];
  removed: Entry[];
  /** Connected servers whose `roots` changed: they are told, not reconnected. */
  rootsChanged: string[];
}

/**
 * Plans a config change: servers whose connection settings changed reconnect (if they were
 * active or some workspace uses them), others close; settings read at use (name, disabledTools,
 * sampling, approval) apply to the open connection at once, so calls in flight are not cut off.
 */
export function planConfigChange(
  entries: ReadonlyMap<string, Entry>,
  config: ServiceConfig,
  previous: ServiceConfig,
): ConfigPlan {
  const used = usedServerIds(config);
  const before = new Map(previous.mcpServers.map((record) => [record.id, connectionKey(record)]));
  const plan: ConfigPlan = {
    next: new Map(),
    reconnect: [],
    close: [],
    removed: [],
    rootsChanged: [],
  };
  for (const record of config.mcpServers) {
    const existing = entries.get(record.id);
    const entry = existing ?? newEntry(record);
    plan.next.set(record.id, entry);
    if (existing && before.get(record.id) === connectionKey(record)) {
      const roots = (r: McpServerConfig) => JSON.stringify(r.roots ?? []);
      if (existing.session && roots(existing.record) !== roots(record)) {
        plan.rootsChanged.push(record.id);
      }
      existing.record = record;
      existing.state = withSettings(existing.state, record);
      continue;
    }
    const wasActive = existing !== undefined && existing.state.status !== "disconnected";
    entry.record = record;
    if (wasActive || used.has(record.id)) plan.reconnect.push(record.id);
    else if (existing) plan.close.push(record.id);
  }
  for (const [id, entry] of entries) if (!plan.next.has(id)) plan.removed.push(entry);
  return plan;
}

/** The error of a call to a server that waits for the user to sign in. */
export function needsAuthError(id: string): LassError {
  return new LassError(
    "upstream-error",
    `the tool server ${id} needs sign-in: open the authUrl of its state (GET /api/mcp)`,
  );
}

/** Takes the session off an entry (stopping its heartbeat) and returns it for closing. */
export function detachSession(entry: Entry): McpSession | undefined {
  const session = entry.session;
  entry.session = undefined;
  entry.stopHeartbeat?.();
  entry.stopHeartbeat = undefined;
  return session;
}
