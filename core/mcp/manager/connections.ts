/**
 * The connections of the tool-server manager: one entry per configured server, its state, the
 * session's events, healing (heartbeat; backoff reconnects), the processes
 * started and following the config.
 */
import type { McpServerConfig, ServiceConfig } from "../../../wire/config/schema.ts";
import { clip, LassError } from "../../errors.ts";
import type { McpSession, SessionHandlers } from "../session/types.ts";
import {
  detachSession,
  type Entry,
  needsAuthError,
  newEntry,
  planConfigChange,
  stateOf,
  usedServerIds,
} from "./entry.ts";
import { announceRoots, restoreSubscriptions } from "./controls.ts";
import { establish, establishDraft } from "./establish.ts";
import { Opening } from "./opening.ts";
import type { LogLine } from "./log_limit.ts";
import type { ManagerOptions } from "./types.ts";
import { Healing } from "./healing.ts";
import { startHeartbeat } from "./reconnects.ts";
import { StartedProcesses } from "./started_processes.ts";
import { ServerLogs } from "./server_logs.ts";
import { sessionHandlers } from "./session_events.ts";
import { ServerRequests } from "../requests/server_requests.ts";
import { type ConnectionState, type ToolServerState } from "../../../wire/tool_servers.ts";
import { emptyState, stateEvent } from "./state.ts";
import type { SpecContext } from "./transport_spec.ts";
import { ToolServerTraces } from "../session/trace.ts";
import { type PinnedState, repinChanged, reviewPins } from "./pins.ts";

/** What the connections tell their owner besides events. */
export interface ConnectionHooks {
  /** A server got a new session (a connect or a reconnect that succeeded). */
  connected(entry: Entry): void;
  /** A server's session ended on its own; the tasks it followed may still run on the server. */
  lost(id: string, session: McpSession): void;
  /** A server was removed from the config. */
  removed(id: string): void;
  /** Whether a server has lost tasks waiting to be followed again: it keeps healing meanwhile. */
  tasksWaiting(id: string): boolean;
}

/** One connection per configured tool server, kept in the state the config and the peers ask for. */
export class ToolServerConnections {
  readonly #options: ManagerOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #requests: ServerRequests;
  readonly #healing: Healing;
  /** Each server's `mcp.log` events and last lines, secrets scrubbed. */
  readonly #logs: ServerLogs;
  /** The wire trace of each configured server ({@link ToolServerTraces}). */
  readonly traces = new ToolServerTraces();
  /** Each connect's context, and the demo server they share. */
  readonly #opening: Opening;
  /** The stdio processes started and not stopped yet, connects under way included. */
  readonly #processes = new StartedProcesses();
  #unsubscribe: () => void;
  #closed = false;
  readonly #hooks: ConnectionHooks;

  constructor(
    options: ManagerOptions,
    callTimeoutMs: number,
    hooks: ConnectionHooks = {
      connected: () => {},
      lost: () => {},
      removed: () => {},
      tasksWaiting: () => false,
    },
  ) {
    this.#options = options;
    this.#hooks = hooks;
    this.#opening = new Opening(options);
    this.#requests = new ServerRequests({ ...options, callTimeoutMs });
    this.#healing = new Healing({
      config: () => options.config.config,
      current: (entry) => !this.#closed && this.#entries.get(entry.record.id) === entry,
      connect: (id) => void this.connect(id, { retry: true }).catch(() => {}),
      tasksWaiting: (id) => hooks.tasksWaiting(id),
      report: (entry, retry) => this.#setState(entry, { ...entry.state, retry }),
      recentUseMs: options.recentUseMs,
      firstDelayMs: options.reconnectDelayMs,
    });
    this.#logs = new ServerLogs(options);
    for (const record of options.config.config.mcpServers) {
      this.#entries.set(record.id, newEntry(record));
    }
    this.#unsubscribe = options.config.subscribe((config, previous) =>
      this.#configChanged(config, previous)
    );
  }

  /** Every server's state, in config order. */
  states(): ToolServerState[] {
    return [...this.#entries.values()].map(stateOf);
  }

  /** One server's state; 404 for an unknown id. */
  state(id: string): ToolServerState {
    return stateOf(this.entry(id));
  }

  /** Connects in the background every server that some workspace uses. */
  connectUsed(): void {
    for (const id of usedServerIds(this.#options.config.config)) {
      this.connect(id).catch(() => {});
    }
  }

  /**
   * Connects a server (or waits for the connect in progress); `force` reconnects. A server that
   * waits for sign-in keeps its `authUrl` while that flow is valid: another attempt would only
   * replace the URL the user may have open. A connect starts a new round of retries (the failed
   * starts count from 0), except healing's own `retry`, which is no use of the server either.
   */
  async connect(
    id: string,
    options: { force?: boolean; retry?: boolean } = {},
  ): Promise<ToolServerState> {
    const entry = this.entry(id);
    if (!options.retry) entry.usedAt = Date.now();
    if (!options.force) {
      if (entry.state.status === "connected") return stateOf(entry);
      if (this.#options.oauth?.isPending(entry.state.authUrl)) return stateOf(entry);
      if (entry.connecting) {
        await entry.connecting;
        return stateOf(entry);
      }
    }
    if (options.retry) this.#healing.cancel(id);
    else this.#healing.reset(id);
    const generation = ++entry.generation;
    const previous = detachSession(entry);
    entry.stderrTail = [];
    const retry = options.retry ? this.#healing.running(entry) : undefined;
    this.#setState(entry, {
      ...emptyState(entry.record),
      status: "connecting",
      ...(retry && { retry }),
    });
    const attempt = (async () => {
      await previous?.close().catch(() => {});
      await this.#establish(entry, generation);
    })();
    entry.connecting = attempt;
    await attempt;
    if (entry.connecting === attempt) entry.connecting = undefined;
    // A forced connect may have overtaken this one: answer with where that one ends.
    while (entry.connecting) await entry.connecting;
    return stateOf(entry);
  }

  /** Closes a server's connection; its state becomes `disconnected`. */
  async disconnect(id: string): Promise<ToolServerState> {
    const entry = this.entry(id);
    this.#healing.reset(id);
    entry.generation++;
    entry.connecting = undefined;
    const session = detachSession(entry);
    // The state changes now, before the (possibly slow) close, so no later write can undo a
    // connect that starts meanwhile.
    this.#setState(entry, emptyState(entry.record));
    await session?.close().catch(() => {});
    return stateOf(entry);
  }

  /**
   * Connects a draft record without saving it, lists what it offers, and closes it again.
   * Never throws for a server that fails: the state says why.
   */
  testDraft(record: McpServerConfig): Promise<ToolServerState & { latencyMs: number }> {
    // A draft's verdict is not kept for the next start: the draft may never be saved.
    return establishDraft(
      record,
      (entry) => ({ ...this.#context(entry, 1), keptEras: undefined }),
      () => !this.#closed,
    );
  }

  /**
   * Closes every connection and stops following the config. Running tasks are asked to cancel,
   * unless `keepTasks` (they go on, for the next start to follow again).
   */
  async close(options: { keepTasks?: boolean } = {}): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    this.#healing.clear();
    await Promise.all([
      ...[...this.#entries.values()].map((entry) => {
        entry.generation++;
        return detachSession(entry)?.close(options).catch(() => {});
      }),
      // A connect under way has no session to close yet: its processes are stopped here.
      this.#processes.stopAll(),
    ]);
    this.#logs.close();
    await this.#opening.close();
  }

  /** The entry of a configured server, if there is one. */
  find(id: string): Entry | undefined {
    return this.#entries.get(id);
  }

  /** The entry of a configured server; 404 for an unknown id. */
  entry(id: string): Entry {
    const entry = this.#entries.get(id);
    if (!entry) throw new LassError("not-found", `no tool server has id ${id}`);
    return entry;
  }

  /** Where a record's transport is resolved: the env, the config's folder, the demo server. */
  specContext(): SpecContext {
    return this.#opening.specContext();
  }

  /**
   * Waits for a connected session. A server that is reconnecting is waited for up to its
   * `timeoutMs`; one in `error` gets one connect attempt.
   */
  async connected(entry: Entry): Promise<Entry> {
    entry.usedAt = Date.now();
    if (entry.connecting) await entry.connecting;
    if (entry.state.status !== "connected") {
      const state = await this.connect(entry.record.id);
      if (state.status === "needs-auth") throw needsAuthError(entry.record.id);
    }
    if (entry.state.status !== "connected" || !entry.session) {
      throw new LassError(
        "upstream-error",
        `the tool server ${entry.record.id} is not connected: ${
          entry.state.error ?? entry.state.status
        }`,
      );
    }
    return entry;
  }

  async #establish(entry: Entry, generation: number): Promise<void> {
    const current = () => entry.generation === generation && !this.#closed;
    const opened = await establish(entry, this.#context(entry, generation), current);
    if (!opened || !current()) return;
    // The pins are reviewed before the state says `connected`: no chat sees a blocked tool.
    const pinned = await this.review(entry, opened.state);
    if (!current()) return;
    this.#setState(entry, pinned.state);
    pinned.announce();
    if (opened.state.status === "connected") {
      this.#healing.reset(entry.record.id);
      const session = opened.session!;
      if (session.remote) {
        entry.stopHeartbeat = startHeartbeat(
          (timeoutMs) => session.reachable(timeoutMs),
          () =>
            this.lost(entry, session, `cannot reach ${entry.record.url}: the connection was lost`),
        );
      }
      // The connect answers once the resources followed before are followed again.
      await restoreSubscriptions(
        entry,
        session,
        (entry, level, message) => this.log(entry, level, message),
      );
      if (entry.session === session) this.#hooks.connected(entry);
    } else if (opened.state.status === "error") {
      this.#healing.failed(entry);
    }
  }

  #context(entry: Entry, generation: number) {
    return this.#opening.context({
      handlers: this.#handlers(entry, generation),
      signInRequired: (authUrl: string) => this.#signInRequired(entry, generation, authUrl),
      warn: (message: string) => this.log(entry, "warning", message),
      scrub: (text: string) => this.scrub(entry, text),
    });
  }

  #handlers(entry: Entry, generation: number): SessionHandlers {
    return sessionHandlers(entry, generation, {
      events: this.#options.events,
      requests: this.#requests,
      traces: this.traces,
      logs: this.#logs,
      closed: () => this.#closed,
      configured: (id, entry) => this.#entries.get(id) === entry,
      lost: (entry, session, reason) => this.lost(entry, session, reason),
      track: (stop) => this.#processes.track(stop),
      review: (entry, state) => this.review(entry, state),
    });
  }

  /** Reviews a configured server's lists against its pins: the state with its `drift`. */
  review(entry: Entry, state: ConnectionState): Promise<PinnedState> {
    return reviewPins(this.#options.pins, entry, state, (m) => this.log(entry, "warning", m));
  }

  /** A connection that ended on its own: the state says why, and healing starts. */
  lost(entry: Entry, session: McpSession, reason: string): void {
    if (entry.session !== session || this.#closed) return;
    // A connect still reading the lists must not write `connected` over this.
    entry.generation++;
    detachSession(entry);
    // Its tasks may still run on the server: the next session follows them again.
    this.#hooks.lost(entry.record.id, session);
    session.close({ keepTasks: true }).catch(() => {});
    this.#setState(entry, { ...emptyState(entry.record), status: "error", error: clip(reason) });
    this.#healing.later(entry);
  }

  /**
   * A chat wants this server: it connects in the background, at once when it never connected,
   * and with the backoff when it failed (a turn never waits for a server in `error`).
   */
  warm(id: string): void {
    const entry = this.entry(id);
    entry.usedAt = Date.now();
    if (entry.state.status === "disconnected" && !entry.connecting) {
      this.connect(id).catch(() => {});
    } else this.heal(entry);
  }

  /** Reconnects a server in `error` with the backoff, unless one is planned. */
  heal(entry: Entry): void {
    this.#healing.heal(entry);
  }

  /**
   * The server asked for sign-in. During a connect the connect's own error path reports it; on an
   * open connection (a refresh that failed, a step-up to more scopes) the connection closes and
   * the state becomes `needs-auth`.
   */
  #signInRequired(entry: Entry, generation: number, authUrl: string): void {
    if (entry.generation !== generation || this.#closed || !entry.session) return;
    entry.generation++;
    detachSession(entry)?.close().catch(() => {});
    this.#setState(entry, { ...emptyState(entry.record), status: "needs-auth", authUrl });
  }

  /**
   * An `mcp.log` event, bounded, with resolved secrets of the record taken out; at most 50 a
   * second per server, then one event with the number of lines held back (the last 200 lines are
   * kept for `recentLog`).
   */
  log(entry: Entry, level: string, message: string, logger?: string): void {
    this.#logs.log(entry, level, message, logger);
  }

  /** A server's last log lines (200 at most, oldest first); 404 for an unknown id. */
  recentLog(id: string): LogLine[] {
    return this.#logs.recent(this.entry(id));
  }

  /** Replaces the record's secrets (resolved env references, OAuth tokens) in a text. */
  scrub(entry: Entry, text: string): string {
    return this.#logs.scrub(entry, text);
  }

  #setState(entry: Entry, state: ConnectionState): void {
    const before = entry.state.status;
    entry.state = state;
    if (before === state.status && state.status !== "error") return;
    this.#options.events.emit("mcp.state", stateEvent(state));
  }

  /**
   * Follows the config: servers whose connection settings changed reconnect, removed ones close,
   * new ones appear. Settings read at use (name, disabledTools, sampling, approval) apply to the
   * open connection without a reconnect, so calls in flight are not cut off.
   */
  #configChanged(config: ServiceConfig, previous: ServiceConfig): void {
    const plan = planConfigChange(this.#entries, config, previous);
    for (const entry of plan.removed) {
      this.traces.forget(entry.record.id);
      this.#logs.forget(entry);
      const id = entry.record.id;
      entry.generation++;
      this.#healing.reset(id);
      detachSession(entry)?.close().catch(() => {});
      this.#hooks.removed(id);
      this.#options.events.emit("mcp.state", { id, status: "disconnected", removed: true });
    }
    this.#entries.clear();
    for (const [id, entry] of plan.next) this.#entries.set(id, entry);
    // Only now do new ids resolve.
    for (const id of plan.reconnect) this.connect(id, { force: true }).catch(() => {});
    for (const id of plan.close) this.disconnect(id).catch(() => {});
    const report = { events: this.#options.events, log: this.log.bind(this) };
    for (const id of plan.rootsChanged) announceRoots(this.entry(id), report);
    repinChanged(plan.next, previous, (entry, state) => this.review(entry, state));
  }
}
