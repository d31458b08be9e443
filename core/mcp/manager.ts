/** The tool-server manager: one connection per configured server, its state, and every call to it. */
import type { EnvLookup } from "../config/env_refs.ts";
import type { McpServerConfig, ServiceConfig } from "../config/schema.ts";
import type { ConfigStore } from "../config/store.ts";
import { clip, isNetworkFailure, LassError } from "../errors.ts";
import type { EventBus } from "../events.ts";
import type { InteractionRegistry } from "../interactions.ts";
import { type OAuthSignIn, type ServerAuthProvider, SignInFailure } from "./oauth/sign_in.ts";
import type {
  CallToolResult,
  GetPromptResult,
  InProcessServer,
  McpSession,
  ReadResourceResult,
  SessionHandlers,
  SessionOpener,
} from "./client.ts";
import { type Sampler, ServerRequests } from "./server_requests.ts";
import {
  emptyState,
  type ToolInfo,
  toolInfo,
  type ToolServerState,
  withSettings,
} from "./state.ts";
import {
  describeConnectError,
  scrubSecrets,
  secretsOf,
  transportSpecOf,
} from "./transport_spec.ts";

export type { Sampler } from "./server_requests.ts";
export type { ServerStatus, ToolInfo, ToolServerState } from "./state.ts";

/** What the manager needs; everything with a side effect comes in here. */
export interface ManagerOptions {
  config: ConfigStore;
  events: EventBus;
  interactions: InteractionRegistry;
  env: EnvLookup;
  /** Whether a path exists (a stdio server's working directory is checked before it starts). */
  exists: (path: string) => boolean;
  /** Opens sessions; default: the MCP SDK (loaded on first use). */
  open?: SessionOpener;
  /** The built-in demo server; default: `core/mcp/demo_server.ts` (loaded on first use). */
  demoServer?: () => Promise<() => InProcessServer>;
  /** Completes sampling requests; without it they are refused with a clear error. */
  sampler?: Sampler;
  /** Deadline of a tool call, resource read or prompt; default 120 s. */
  callTimeoutMs?: number;
  /** OAuth sign-in for http and sse servers; without it a 401 is an error. */
  oauth?: OAuthSignIn;
}

/** What `GET /oauth/callback` did: signed in (and the server's state after its reconnect), or not. */
export type SignInResult =
  | { ok: true; serverId: string; state?: ToolServerState }
  | { ok: false; reason: SignInFailure["kind"]; serverId?: string };

/** Who made a tool call: a chat run (and its model) or the API. Server requests during it inherit it. */
export interface CallContext {
  /** The chat run; interactions the call causes carry it and end with it. */
  runId?: string;
  /** The model profile of the chat; sampling requests during the call use it. */
  llmId?: string;
  /** The model's id for this call, in `tool.call` / `tool.result` events. */
  toolCallId?: string;
}

/** The result of `POST /api/mcp/:id/call`. */
export interface CallOutcome {
  result: CallToolResult;
  durationMs: number;
}

interface Entry {
  record: McpServerConfig;
  state: ToolServerState;
  session?: McpSession;
  connecting?: Promise<void>;
  /** The last lines the server wrote to stderr, for error messages. */
  stderrTail: string[];
  /** Increases with every connect and disconnect; late results of older attempts are dropped. */
  generation: number;
  /** The calls in flight, oldest first: a server request is attributed to the newest. */
  calls: CallContext[];
}

const STDERR_TAIL_LINES = 20;

/** Owns one connection per configured tool server. */
export class ToolServerManager {
  readonly #options: ManagerOptions;
  readonly #entries = new Map<string, Entry>();
  readonly #requests: ServerRequests;
  readonly #callTimeoutMs: number;
  #unsubscribe: () => void;
  #closed = false;

  constructor(options: ManagerOptions) {
    this.#options = options;
    this.#callTimeoutMs = options.callTimeoutMs ?? 120_000;
    this.#requests = new ServerRequests({ ...options, callTimeoutMs: this.#callTimeoutMs });
    for (const record of options.config.config.mcpServers) {
      this.#entries.set(record.id, {
        record,
        state: emptyState(record),
        stderrTail: [],
        generation: 0,
        calls: [],
      });
    }
    this.#unsubscribe = options.config.subscribe((config, previous) =>
      this.#configChanged(config, previous)
    );
  }

  /** Every server's state, in config order. */
  states(): ToolServerState[] {
    return [...this.#entries.values()].map((entry) => entry.state);
  }

  /** One server's state; 404 for an unknown id. */
  state(id: string): ToolServerState {
    return this.#entry(id).state;
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
   * replace the URL the user may have open.
   */
  async connect(id: string, options: { force?: boolean } = {}): Promise<ToolServerState> {
    const entry = this.#entry(id);
    if (!options.force) {
      if (entry.state.status === "connected") return entry.state;
      if (this.#options.oauth?.isPending(entry.state.authUrl)) return entry.state;
      if (entry.connecting) {
        await entry.connecting;
        return entry.state;
      }
    }
    const generation = ++entry.generation;
    const previous = entry.session;
    entry.session = undefined;
    entry.stderrTail = [];
    this.#setState(entry, { ...emptyState(entry.record), status: "connecting" });
    const attempt = (async () => {
      await previous?.close().catch(() => {});
      await this.#establish(entry, generation);
    })();
    entry.connecting = attempt;
    await attempt;
    if (entry.connecting === attempt) entry.connecting = undefined;
    // A forced connect may have overtaken this one: answer with where that one ends.
    while (entry.connecting) await entry.connecting;
    return entry.state;
  }

  /** Closes a server's connection; its state becomes `disconnected`. */
  async disconnect(id: string): Promise<ToolServerState> {
    const entry = this.#entry(id);
    entry.generation++;
    entry.connecting = undefined;
    const session = entry.session;
    entry.session = undefined;
    // The state changes now, before the (possibly slow) close, so no later write can undo a
    // connect that starts meanwhile.
    this.#setState(entry, emptyState(entry.record));
    await session?.close().catch(() => {});
    return entry.state;
  }

  /**
   * Calls a tool. A tool's own error result (`isError`) is a normal outcome; an unknown server
   * is 404, a server that cannot be reached 502, a call past the deadline 504.
   */
  async callTool(
    id: string,
    tool: string,
    args: Record<string, unknown>,
    options: {
      signal?: AbortSignal;
      onProgress?: (progress: number, total?: number) => void;
      context?: CallContext;
    } = {},
  ): Promise<CallOutcome> {
    const entry = this.#entry(id);
    const info = await this.#toolOf(entry, tool);
    if (info.disabled) {
      throw new LassError(
        "invalid-request",
        `the tool ${tool} of ${id} is disabled in the config (disabledTools)`,
      );
    }
    const context = options.context ?? {};
    const origin = {
      serverId: id,
      tool,
      ...(context.runId
        ? { runId: context.runId, toolCallId: context.toolCallId }
        : { source: "api" }),
    };
    this.#options.events.emit("tool.call", { ...origin, input: args });
    const started = performance.now();
    entry.calls.push(context);
    let result: CallToolResult;
    try {
      result = await this.#request(
        entry,
        `${tool} on ${id}`,
        (session) =>
          session.callTool(tool, args, {
            timeoutMs: this.#callTimeoutMs,
            signal: options.signal,
            onProgress: options.onProgress,
          }),
      );
    } catch (error) {
      const durationMs = Math.round(performance.now() - started);
      const message = (error as Error).message;
      this.#options.events.emit("tool.result", {
        ...origin,
        isError: true,
        durationMs,
        error: message,
      });
      throw error;
    } finally {
      entry.calls.splice(entry.calls.indexOf(context), 1);
    }
    const durationMs = Math.round(performance.now() - started);
    this.#options.events.emit("tool.result", {
      ...origin,
      isError: result.isError === true,
      durationMs,
    });
    return { result, durationMs };
  }

  /** Reads a resource of a server. */
  async readResource(id: string, uri: string): Promise<ReadResourceResult> {
    const entry = await this.#connected(this.#entry(id));
    return await this.#request(
      entry,
      `reading ${uri} from ${id}`,
      (session) => session.readResource(uri, { timeoutMs: this.#callTimeoutMs }),
    );
  }

  /** Gets a prompt of a server with its arguments. */
  async getPrompt(
    id: string,
    name: string,
    args: Record<string, string>,
  ): Promise<GetPromptResult> {
    const entry = await this.#connected(this.#entry(id));
    return await this.#request(
      entry,
      `the prompt ${name} of ${id}`,
      (session) => session.getPrompt(name, args, { timeoutMs: this.#callTimeoutMs }),
    );
  }

  /**
   * Connects a draft record without saving it, lists what it offers, and closes it again.
   * Never throws for a server that fails: the state says why.
   */
  async testDraft(record: McpServerConfig): Promise<ToolServerState & { latencyMs: number }> {
    const entry: Entry = {
      record,
      state: emptyState(record),
      stderrTail: [],
      generation: 1,
      calls: [],
    };
    const started = performance.now();
    await this.#establish(entry, 1, { quiet: true });
    const latencyMs = Math.round(performance.now() - started);
    entry.generation++;
    await entry.session?.close().catch(() => {});
    return { ...entry.state, latencyMs };
  }

  /** Sets where Lass really listens; OAuth callback URLs are built from it. */
  setOAuthOrigin(origin: () => string | undefined): void {
    this.#options.oauth?.setOrigin(origin);
  }

  /**
   * Completes a sign-in from the callback's query and reconnects the server. An unknown or
   * expired `state` changes nothing. A refused or failed sign-in is logged for its server, which
   * reconnects to offer a fresh sign-in URL.
   */
  async completeSignIn(params: URLSearchParams): Promise<SignInResult> {
    const oauth = this.#options.oauth;
    if (!oauth) return { ok: false, reason: "unknown-state" };
    let serverId: string;
    try {
      ({ serverId } = await oauth.complete(params));
    } catch (error) {
      if (!(error instanceof SignInFailure)) throw error;
      const entry = error.serverId ? this.#entries.get(error.serverId) : undefined;
      if (entry) {
        this.#log(entry, "warning", `sign-in failed: ${error.reason ?? error.kind}`);
        if (entry.state.status === "needs-auth") {
          this.connect(entry.record.id, { force: true }).catch(() => {});
        }
      }
      return { ok: false, reason: error.kind, ...(error.serverId && { serverId: error.serverId }) };
    }
    const entry = this.#entries.get(serverId);
    // A draft of `POST /api/mcp/test`: its tokens wait in the store until the record is saved.
    if (!entry) return { ok: true, serverId };
    this.#log(entry, "info", "signed in");
    return { ok: true, serverId, state: await this.connect(serverId, { force: true }) };
  }

  /** Forgets a remote server's OAuth credentials, reconnects it, and returns its new state. */
  async signOut(id: string): Promise<ToolServerState> {
    const entry = this.#entry(id);
    if (entry.record.transport === "stdio") {
      throw new LassError(
        "invalid-request",
        `the tool server ${id} uses stdio: sign-out applies to http and sse servers`,
      );
    }
    await this.#options.oauth?.signOut(entry.record);
    this.#log(entry, "info", "signed out");
    return await this.connect(id, { force: true });
  }

  /** Closes every connection and stops following the config. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#unsubscribe();
    await Promise.all([...this.#entries.values()].map((entry) => {
      entry.generation++;
      return this.#teardown(entry);
    }));
  }

  #entry(id: string): Entry {
    const entry = this.#entries.get(id);
    if (!entry) throw new LassError("not-found", `no tool server has id ${id}`);
    return entry;
  }

  async #connected(entry: Entry): Promise<Entry> {
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

  async #toolOf(entry: Entry, tool: string): Promise<ToolInfo> {
    await this.#connected(entry);
    const info = entry.state.tools.find((candidate) => candidate.name === tool);
    if (!info) {
      throw new LassError(
        "not-found",
        `the tool server ${entry.record.id} has no tool named ${tool}`,
      );
    }
    return info;
  }

  /** Runs a request on a connected session and maps its failures to the contract's errors. */
  async #request<T>(
    entry: Entry,
    what: string,
    run: (session: McpSession) => Promise<T>,
  ): Promise<T> {
    const session = (await this.#connected(entry)).session!;
    try {
      return await run(session);
    } catch (error) {
      const { isTimeout } = await import("./client.ts");
      if (isTimeout(error)) {
        throw new LassError(
          "timeout",
          `${what} got no answer within ${this.#callTimeoutMs / 1000} s`,
        );
      }
      if (entry.state.status === "needs-auth") {
        throw new LassError(
          "upstream-error",
          `${what} failed: ${needsAuthError(entry.record.id).message}`,
        );
      }
      if (entry.session !== session || entry.state.status !== "connected") {
        throw new LassError(
          "upstream-error",
          `${what} failed: ${entry.state.error ?? "the server went away"}`,
        );
      }
      if (isNetworkFailure(error) && entry.record.url) {
        // A remote server that stopped answering: the state says so, the next use reconnects.
        entry.generation++;
        entry.session = undefined;
        session.close().catch(() => {});
        const reason = `cannot reach ${entry.record.url}`;
        this.#setState(entry, { ...emptyState(entry.record), status: "error", error: reason });
        throw new LassError("upstream-error", `${what} failed: ${reason}`);
      }
      const message = this.#scrub(entry, (error as Error).message);
      throw new LassError("upstream-error", `${what} failed: ${message}`);
    }
  }

  async #establish(
    entry: Entry,
    generation: number,
    options: { quiet?: boolean } = {},
  ): Promise<void> {
    const current = () => entry.generation === generation && !this.#closed;
    let auth: ServerAuthProvider | undefined;
    try {
      let spec = await transportSpecOf(entry.record, {
        env: this.#options.env,
        configPath: this.#options.config.path,
        exists: this.#options.exists,
        demoServer: this.#options.demoServer ?? defaultDemoServer,
      });
      if (spec.kind === "http" || spec.kind === "sse") {
        auth = this.#options.oauth?.forSession(
          entry.record,
          (authUrl) => this.#signInRequired(entry, generation, authUrl),
        );
        if (auth) spec = { ...spec, auth: auth.sessionAuth };
      }
      const open = this.#options.open ?? (await import("./client.ts")).openSession;
      const session = await open(spec, this.#handlers(entry, generation), {
        timeoutMs: entry.record.timeoutMs,
      });
      if (!current()) {
        await session.close();
        return;
      }
      entry.session = session;
      // The lists are part of the connect: `timeoutMs` bounds them too. Tools must list; a
      // server whose prompts or resources fail to list still connects, and the log says why.
      const deadline = entry.record.timeoutMs;
      const optional = <T>(what: string, list: Promise<T[]>) =>
        list.catch((error) => {
          this.#log(entry, "warning", `listing ${what} failed: ${(error as Error).message}`);
          return [] as T[];
        });
      const [tools, prompts, resources, resourceTemplates] = await Promise.all([
        session.listTools(deadline),
        optional("prompts", session.listPrompts(deadline)),
        optional("resources", session.listResources(deadline)),
        optional("resource templates", session.listResourceTemplates(deadline)),
      ]);
      if (!current()) return;
      const disabled = entry.record.disabledTools ?? [];
      const state: ToolServerState = {
        ...emptyState(entry.record),
        status: "connected",
        serverInfo: session.serverInfo,
        capabilities: session.capabilities,
        instructions: session.instructions,
        tools: tools.map((tool) => toolInfo(entry.record.id, tool, disabled)),
        prompts,
        resources,
        resourceTemplates,
        connectedAt: new Date().toISOString(),
      };
      options.quiet ? (entry.state = state) : this.#setState(entry, state);
    } catch (error) {
      if (!current()) return;
      const session = entry.session;
      entry.session = undefined;
      await session?.close().catch(() => {});
      const state: ToolServerState = auth?.authUrl
        ? { ...emptyState(entry.record), status: "needs-auth", authUrl: auth.authUrl }
        : {
          ...emptyState(entry.record),
          status: "error",
          error: this.#scrub(
            entry,
            auth?.authRunning
              ? clip(
                `the server requires sign-in, and OAuth sign-in failed: ${
                  (error as Error)?.message ?? error
                }`,
              )
              : describeConnectError(entry.record, error, entry.stderrTail),
          ),
        };
      options.quiet ? (entry.state = state) : this.#setState(entry, state);
    }
  }

  #handlers(entry: Entry, generation: number): SessionHandlers {
    const id = entry.record.id;
    const events = this.#options.events;
    return {
      sampling: (params, signal) =>
        this.#requests.sample(entry.record, params, signal, entry.calls.at(-1)),
      elicitation: (params, signal) =>
        this.#requests.elicit(id, params, signal, entry.calls.at(-1)),
      log: (level, data, logger) =>
        this.#log(entry, level, typeof data === "string" ? data : JSON.stringify(data), logger),
      stderr: (line) => {
        entry.stderrTail.push(clip(this.#scrub(entry, line), 500));
        if (entry.stderrTail.length > STDERR_TAIL_LINES) entry.stderrTail.shift();
        this.#log(entry, "stderr", line);
      },
      listChanged: (kind) => {
        events.emit("mcp.notification", {
          serverId: id,
          method: `notifications/${kind}/list_changed`,
        });
        if (entry.generation === generation) this.#refresh(entry, kind).catch(() => {});
      },
      closed: () => {
        // Before the session exists the connect's own error path reports the failure.
        if (entry.generation !== generation || this.#closed || !entry.session) return;
        // A connect still reading the lists must not write `connected` over this.
        entry.generation++;
        entry.session = undefined;
        const tail = entry.stderrTail.slice(-5).join("\n");
        this.#setState(entry, {
          ...emptyState(entry.record),
          status: "error",
          error: clip(tail ? `the server exited\nstderr:\n${tail}` : "the connection closed"),
        });
      },
    };
  }

  /**
   * The server asked for sign-in. During a connect the connect's own error path reports it; on an
   * open connection (a refresh that failed, a step-up to more scopes) the connection closes and
   * the state becomes `needs-auth`.
   */
  #signInRequired(entry: Entry, generation: number, authUrl: string): void {
    if (entry.generation !== generation || this.#closed || !entry.session) return;
    entry.generation++;
    const session = entry.session;
    entry.session = undefined;
    session.close().catch(() => {});
    this.#setState(entry, { ...emptyState(entry.record), status: "needs-auth", authUrl });
  }

  /** An `mcp.log` event, bounded, with resolved secrets of the record taken out. */
  #log(entry: Entry, level: string, message: string, logger?: string): void {
    this.#options.events.emit("mcp.log", {
      serverId: entry.record.id,
      level,
      ...(logger && { logger }),
      message: clip(this.#scrub(entry, message)),
    });
  }

  /** Replaces the record's secrets (resolved env references, OAuth tokens) in a text. */
  #scrub(entry: Entry, text: string): string {
    const oauth = this.#options.oauth?.secrets(entry.record) ?? [];
    return scrubSecrets(text, [...secretsOf(entry.record, this.#options.env), ...oauth]);
  }

  /** Re-reads one list after a list-changed notification; only that list of the state changes. */
  async #refresh(entry: Entry, kind: "tools" | "prompts" | "resources"): Promise<void> {
    const session = entry.session;
    if (!session) return;
    let change: Partial<ToolServerState>;
    if (kind === "tools") {
      const disabled = entry.record.disabledTools ?? [];
      const tools = await session.listTools();
      change = { tools: tools.map((tool) => toolInfo(entry.record.id, tool, disabled)) };
    } else if (kind === "prompts") {
      change = { prompts: await session.listPrompts() };
    } else {
      const [resources, resourceTemplates] = await Promise.all([
        session.listResources(),
        session.listResourceTemplates(),
      ]);
      change = { resources, resourceTemplates };
    }
    // The state may have moved on while the list was read: apply only the list, to the current state.
    if (entry.session === session) entry.state = { ...entry.state, ...change };
  }

  async #teardown(entry: Entry): Promise<void> {
    const session = entry.session;
    entry.session = undefined;
    await session?.close().catch(() => {});
  }

  #setState(entry: Entry, state: ToolServerState): void {
    const before = entry.state.status;
    entry.state = state;
    if (before === state.status && state.status !== "error") return;
    this.#options.events.emit("mcp.state", {
      id: state.id,
      status: state.status,
      ...(state.error && { error: state.error }),
      ...(state.authUrl && { authUrl: state.authUrl }),
    });
  }

  /**
   * Follows the config: servers whose connection settings changed reconnect, removed ones close,
   * new ones appear. Settings read at use (name, disabledTools, sampling, approval) apply to the
   * open connection without a reconnect, so calls in flight are not cut off.
   */
  #configChanged(config: ServiceConfig, previous: ServiceConfig): void {
    const used = usedServerIds(config);
    const before = new Map(previous.mcpServers.map((record) => [record.id, connectionKey(record)]));
    const next = new Map<string, Entry>();
    const reconnect: string[] = [];
    const close: string[] = [];
    for (const record of config.mcpServers) {
      const existing = this.#entries.get(record.id);
      const entry = existing ??
        { record, state: emptyState(record), stderrTail: [], generation: 0, calls: [] };
      next.set(record.id, entry);
      if (existing && before.get(record.id) === connectionKey(record)) {
        existing.record = record;
        existing.state = withSettings(existing.state, record);
        continue;
      }
      const wasActive = existing !== undefined && existing.state.status !== "disconnected";
      entry.record = record;
      if (wasActive || used.has(record.id)) reconnect.push(record.id);
      else if (existing) close.push(record.id);
    }
    for (const [id, entry] of this.#entries) {
      if (next.has(id)) continue;
      entry.generation++;
      this.#teardown(entry);
      this.#options.events.emit("mcp.state", { id, status: "disconnected", removed: true });
    }
    this.#entries.clear();
    for (const [id, entry] of next) this.#entries.set(id, entry);
    // Only now do new ids resolve.
    for (const id of reconnect) this.connect(id, { force: true }).catch(() => {});
    for (const id of close) this.disconnect(id).catch(() => {});
  }
}

/** The error of a call to a server that waits for the user to sign in. */
function needsAuthError(id: string): LassError {
  return new LassError(
    "upstream-error",
    `the tool server ${id} needs sign-in: open the authUrl of its state (GET /api/mcp)`,
  );
}

/** The settings that shape the connection itself; a change of any of them reconnects. */
function connectionKey(record: McpServerConfig): string {
  const { transport, command, args, env, cwd, url, headers, timeoutMs, oauth } = record;
  return JSON.stringify({ transport, command, args, env, cwd, url, headers, timeoutMs, oauth });
}

/** The ids of the tool servers some workspace uses. */
function usedServerIds(config: ServiceConfig): Set<string> {
  return new Set(config.workspaces.flatMap((workspace) => workspace.mcpServerIds));
}

async function defaultDemoServer(): Promise<() => InProcessServer> {
  const { createDemoServer } = await import("./demo_server.ts");
  return createDemoServer;
}
