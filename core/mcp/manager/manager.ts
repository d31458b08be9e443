/** The tool-server manager: one connection per configured server, its state, and every call to it. */
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import { LassError } from "../../errors.ts";
import { completeSignIn, type SignInResult } from "./sign_in_callback.ts";
import type {
  Completion,
  CompletionRequest,
  LogLevel,
  PingResult,
} from "../../../wire/tool_servers.ts";
import type { GetPromptResult, ReadResourceResult } from "../session/types.ts";
import { type ManagerOptions } from "./types.ts";
import { ToolServerConnections } from "./connections.ts";
import type { Entry } from "./entry.ts";
import type { LogLine } from "./log_limit.ts";
import { type CallHost, type CallOutcome, callTool, type ToolCallOptions } from "./calls.ts";
import * as controls from "./controls.ts";
import * as reads from "./reads.ts";
import type { ToolServerState } from "../../../wire/tool_servers.ts";
import type { PinDrift } from "../../../wire/pinning.ts";
import type { FollowOptions, TraceQuery, ViewMessage, WireSink } from "../session/trace.ts";
import type { TraceMessage, TraceOrigin } from "../../../wire/trace.ts";
import type { SignInTrace } from "../../../wire/oauth_trace.ts";
import { type ProxyTarget, ProxyTargets } from "./proxy_target.ts";
import { resumeTask } from "../tasks/follow.ts";
import { type TaskRecord } from "../../../wire/tool_tasks.ts";
import { TaskRecords } from "../tasks/records.ts";
import { type TaskStatus } from "../../../wire/tool_tasks.ts";
import { whyNotTask } from "../tasks/support.ts";
import { withoutDrift } from "./pins.ts";
import { exportSecretsOf } from "./transport_spec.ts";

/** Owns one connection per configured tool server, and every call, task and sign-in on them. */
export class ToolServerManager {
  readonly #options: ManagerOptions;
  readonly #connections: ToolServerConnections;
  readonly #callTimeoutMs: number;
  readonly #tasks: TaskRecords;
  readonly #proxyTargets: ProxyTargets;

  constructor(options: ManagerOptions) {
    this.#options = options;
    this.#proxyTargets = new ProxyTargets(options.oauth);
    this.#callTimeoutMs = options.callTimeoutMs ?? 120_000;
    this.#tasks = new TaskRecords(options.events, {
      log: (serverId, level, message) => {
        const entry = this.#connections.find(serverId);
        if (entry) this.#connections.log(entry, level, message);
      },
      files: options.taskFiles,
    });
    this.#connections = new ToolServerConnections(options, this.#callTimeoutMs, {
      connected: (entry) => this.#resumeTasks(entry),
      lost: (id, session) => this.#tasks.release(id, session),
      removed: (id) => this.#tasks.abandon(id, "the server was removed from the config"),
      tasksWaiting: (id) => this.#tasks.waitingServers().has(id),
    });
  }

  /** Every server's state, in config order. */
  states(): ToolServerState[] {
    return this.#connections.states();
  }

  /** One server's state; 404 for an unknown id. */
  state(id: string): ToolServerState {
    return this.#connections.state(id);
  }

  /** One server's last log lines (stderr and log messages, 200 at most); 404 for an unknown id. */
  recentLog(id: string): LogLine[] {
    return this.#connections.recentLog(id);
  }

  /** One server's wire trace, oldest first; 404 for an unknown id. */
  trace(id: string, query: TraceQuery): TraceMessage[] {
    this.#connections.entry(id);
    return this.#connections.traces.read(id, query);
  }

  /**
   * One server's buffered trace messages newer than `since` (or its last `limit`), then live
   * ones, until `signal` aborts, the reader cancels or the server is removed; 404 for an unknown id.
   */
  followTrace(id: string, options: FollowOptions = {}): ReadableStream<TraceMessage> {
    this.#connections.entry(id);
    return this.#connections.traces.follow(id, options);
  }

  /**
   * Records MCP Apps bridge messages of a server and says how many (none when its record says
   * `trace: false`); 404 for an unknown id.
   */
  recordView(id: string, messages: readonly ViewMessage[]): number {
    if (this.#connections.entry(id).record.trace === false) return 0;
    this.#connections.traces.recordView(id, messages);
    return messages.length;
  }

  /**
   * A server as Lass's proxy reaches it; 404 for an unknown id or a record with `proxy: false`.
   * Made once per record (a config change brings a new record, and a new target).
   */
  async proxyTarget(id: string): Promise<ProxyTarget> {
    const record = this.#connections.entry(id).record;
    return await this.#proxyTargets.of(record, () => this.#connections.specContext());
  }

  /** A server's drift from its pins as its connection found it (none for an unknown id). */
  drift(id: string): PinDrift | undefined {
    return this.#connections.find(id)?.state.drift;
  }

  /** A trace sink for one proxy session of a server (silent while its record says `trace: false`). */
  proxyChannel(id: string, origin: TraceOrigin): WireSink {
    const enabled = () => this.#connections.find(id)?.record.trace !== false;
    return this.#connections.traces.channel(id, enabled, origin);
  }

  /** A stderr line of a process the proxy started, in the server's log. */
  proxyStderr(id: string, session: string, line: string): void {
    const entry = this.#connections.find(id);
    if (entry) this.#connections.log(entry, "info", `[proxy ${session.slice(0, 8)}] ${line}`);
  }

  /** The secrets of a server's record, for what leaves Lass (a cassette); 404 for an unknown id. */
  secrets(id: string): string[] {
    return exportSecretsOf(this.#connections.entry(id).record, this.#options);
  }

  /** How many trace follow streams of a server are open; for tests and diagnostics. */
  traceFollowers(id: string): number {
    return this.#connections.traces.followers(id);
  }

  /**
   * Connects in the background every server that some workspace uses, and every server with
   * tasks to follow again.
   */
  connectUsed(): void {
    this.#connections.connectUsed();
    // A server with tasks to follow again (kept by the last start) connects as well.
    for (const id of this.#tasks.waitingServers()) this.#connections.connect(id).catch(() => {});
  }

  /**
   * Connects a server (or waits for the connect in progress); `force` reconnects. A server that
   * waits for sign-in keeps its `authUrl` while that flow is valid.
   */
  connect(id: string, options: { force?: boolean } = {}): Promise<ToolServerState> {
    return this.#connections.connect(id, options);
  }

  /** A chat wants this server: it connects in the background (with the backoff after a failure). */
  warm(id: string): void {
    this.#connections.warm(id);
  }

  /** Closes a server's connection; its state becomes `disconnected`. */
  disconnect(id: string): Promise<ToolServerState> {
    return this.#connections.disconnect(id);
  }

  /**
   * Connects a draft record without saving it, lists what it offers, and closes it again.
   * Never throws for a server that fails: the state says why.
   */
  testDraft(record: McpServerConfig): Promise<ToolServerState & { latencyMs: number }> {
    return this.#connections.testDraft(record);
  }

  /**
   * Calls a tool. A tool's own error result (`isError`) is a normal outcome; an unknown server
   * is 404, a server that cannot be reached 502, a call past the deadline 504.
   */
  async callTool(
    id: string,
    tool: string,
    args: Record<string, unknown>,
    options: ToolCallOptions = {},
  ): Promise<CallOutcome> {
    return await callTool(this.#host(), this.#connections.entry(id), tool, args, options);
  }

  /**
   * Starts a tool call that runs as an MCP task and answers as soon as the server made the task;
   * the call goes on in the background and the task's record follows it. A server that answers
   * at once (2026 servers decide per call) gives the call's outcome instead. 400 when the server
   * or the tool cannot run tasks.
   */
  async startToolTask(
    id: string,
    tool: string,
    args: Record<string, unknown>,
    options: Pick<ToolCallOptions, "timeoutMs"> = {},
  ): Promise<{ taskId: string; status: TaskStatus } | CallOutcome> {
    const entry = this.#connections.entry(id);
    await this.#connections.connected(entry);
    const info = entry.state.tools.find((candidate) => candidate.name === tool);
    if (info && !info.disabled && !entry.session!.runsAsTask(tool)) {
      throw new LassError("invalid-request", whyNotTask(entry.state, tool));
    }
    let started: (task: TaskRecord) => void = () => {};
    const created = new Promise<TaskRecord>((resolve) => started = resolve);
    const call = callTool(this.#host(), entry, tool, args, {
      ...options,
      onTask: (task) => started(task),
    });
    call.catch(() => {});
    const first = await Promise.race([created, call]);
    return "taskId" in first ? { taskId: first.taskId, status: first.status } : first;
  }

  /** What Lass knows about one task of a server; 404 for an unknown server or task. */
  task(id: string, taskId: string): TaskRecord {
    this.#connections.entry(id);
    return this.#tasks.get(id, taskId);
  }

  /** The tasks of a server that Lass knows (the last 200 of all servers), newest first. */
  tasks(id: string): TaskRecord[] {
    this.#connections.entry(id);
    return this.#tasks.list(id);
  }

  /**
   * Asks the server to cancel one of its running tasks and answers the task's record once it
   * ended (or after 5 s); 404 for an unknown task, 409 for one that ended already. A task whose
   * connection was lost is answered at once, `cancelRequested`: the cancel goes once Lass follows
   * it again.
   */
  async cancelTask(id: string, taskId: string): Promise<TaskRecord> {
    this.#connections.entry(id);
    return await this.#tasks.cancel(id, taskId);
  }

  /** Reads a resource of a server; a resource the server does not know is 404. */
  async readResource(id: string, uri: string): Promise<ReadResourceResult> {
    return await reads.readResource(this.#host(), this.#connections.entry(id), uri);
  }

  /** Gets a prompt of a server with its arguments; a prompt the server does not know is 404. */
  async getPrompt(
    id: string,
    name: string,
    args: Record<string, string>,
  ): Promise<GetPromptResult> {
    return await reads.getPrompt(this.#host(), this.#connections.entry(id), { name, args });
  }

  /** Suggestions for a prompt argument or resource-template variable; `{values: []}` without the capability. */
  async complete(id: string, request: CompletionRequest): Promise<Completion> {
    return await controls.complete(this.#host(), this.#connections.entry(id), request);
  }

  /** Sets the level of log messages the server sends, kept across reconnects; 409 without logging. */
  async setLogLevel(id: string, level: LogLevel): Promise<void> {
    await controls.setLogLevel(this.#host(), this.#connections.entry(id), level);
  }

  /** Follows a resource (`mcp.resource-updated` events); 409 for a server that cannot send updates. */
  async subscribe(id: string, uri: string): Promise<void> {
    await controls.subscribe(this.#host(), this.#connections.entry(id), uri);
  }

  /** Stops following a resource. */
  async unsubscribe(id: string, uri: string): Promise<void> {
    await controls.unsubscribe(this.#host(), this.#connections.entry(id), uri);
  }

  /** The round trip to the server in ms, and whether `ping`, `server/discover` or HEAD measured it. */
  async ping(id: string): Promise<PingResult> {
    return await controls.ping(this.#host(), this.#connections.entry(id));
  }

  /** Reads the server's lists again (no reconnect) and returns its state. */
  async refresh(id: string): Promise<ToolServerState> {
    return await controls.refreshLists(this.#host(), this.#connections.entry(id));
  }

  /**
   * Makes what a server offers now its pins (its lock entry if the lock has one, else the pins in
   * the data dir) and clears its drift; connects a server that is not connected. 409 when the
   * server's `pinning` is `off`.
   */
  async acceptPins(id: string): Promise<ToolServerState> {
    const entry = this.#connections.entry(id);
    const keeper = this.#options.pins;
    if (!keeper || entry.record.pinning === "off") {
      throw new LassError("conflict", `the tool server ${id} has pinning off: nothing to accept`);
    }
    await this.#connections.connected(entry);
    const session = entry.session;
    const source = await keeper.accept(id, entry.state);
    if (entry.session === session) entry.state = withoutDrift(entry.state);
    keeper.announce(id, undefined, { source });
    return this.state(id);
  }

  /** Sets where Lass really listens; OAuth callback URLs are built from it. */
  setOAuthOrigin(origin: () => string | undefined): void {
    this.#options.oauth?.setOrigin(origin);
  }

  /** Completes a sign-in from the OAuth callback's query and reconnects the server. */
  completeSignIn(params: URLSearchParams): Promise<SignInResult> {
    return completeSignIn({
      oauth: this.#options.oauth,
      find: (id) => this.#connections.find(id),
      log: (entry, level, message) => this.#connections.log(entry, level, message),
      reconnect: (id) => this.connect(id, { force: true }),
    }, params);
  }

  /** Forgets a remote server's OAuth credentials, reconnects it, and returns its new state. */
  async signOut(id: string): Promise<ToolServerState> {
    const entry = this.#remote(id, "sign-out");
    // The open session goes first: its background requests must not start a new sign-in.
    await this.disconnect(id);
    await this.#options.oauth?.signOut(entry.record);
    this.#connections.log(entry, "info", "signed out");
    return await this.connect(id, { force: true });
  }

  /** The steps of a remote server's last OAuth sign-in attempt, secrets masked. */
  signInTrace(id: string): SignInTrace {
    this.#remote(id, "the sign-in trace");
    return this.#options.oauth?.traces.trace(id) ?? { serverId: id, steps: [] };
  }

  /** A configured http or sse server's entry; 400 for stdio. */
  #remote(id: string, what: string): Entry {
    const entry = this.#connections.entry(id);
    const { transport } = entry.record;
    if (transport !== "http" && transport !== "sse") {
      throw new LassError(
        "invalid-request",
        `the tool server ${id} uses ${transport}: ${what} applies to http and sse servers`,
      );
    }
    return entry;
  }

  /**
   * Takes the running tasks the last start kept (`taskFiles`) as lost ones, followed again once
   * their servers connect; tasks of servers no longer in the config are dropped.
   */
  async restoreTasks(): Promise<void> {
    const files = this.#options.taskFiles;
    if (!files) return;
    const stored = await files.load();
    for (const [serverId, tasks] of stored) {
      if (this.#connections.find(serverId)) this.#tasks.restore(serverId, tasks);
      else files.save(serverId, () => []);
    }
  }

  /** Closes every connection; with `taskFiles`, running tasks go on and stay in their files. */
  async close(): Promise<void> {
    await this.#connections.close({ keepTasks: this.#options.taskFiles !== undefined });
    await this.#options.taskFiles?.idle();
    await this.#options.keptEras?.idle();
  }

  /**
   * Follows the server's lost tasks again on its current session (once per session); without one,
   * makes sure a reconnect is planned (the connect follows them).
   */
  #resumeTasks(entry: Entry): void {
    const session = entry.session;
    if (!session || entry.state.status !== "connected") return this.#connections.heal(entry);
    for (const { tool, reference } of this.#tasks.toResume(entry.record.id, session)) {
      const task = { serverId: entry.record.id, tool, reference, timeoutMs: this.#callTimeoutMs };
      this.#connections.log(entry, "info", `following the task ${reference.taskId} again`);
      resumeTask(this.#tasks, session, task, () => this.#resumeTasks(entry)).catch(() => {});
    }
  }

  /** What calls need from the connections. */
  #host(): CallHost {
    const connections = this.#connections;
    return {
      events: this.#options.events,
      callTimeoutMs: this.#callTimeoutMs,
      tasks: this.#tasks,
      connected: (entry) => connections.connected(entry),
      renew: (entry) => connections.connect(entry.record.id, { force: true }).then(() => {}),
      lost: (entry, session, reason) => connections.lost(entry, session, reason),
      resumeTasks: (entry) => this.#resumeTasks(entry),
      log: (entry, level, message) => connections.log(entry, level, message),
      scrub: (entry, text) => connections.scrub(entry, text),
      review: (entry, state) => connections.review(entry, state),
    };
  }
}
