/**
 * MCP Tasks behind `client.ts`: tool calls that a server runs as tasks, driven by ext-tasks on
 * either era. 2025 servers (`capabilities.tasks`) go through the SDK client; a 2026 server (the
 * `io.modelcontextprotocol/tasks` extension) answers shapes the SDK rejects, so its `tools/call`
 * and `tasks/*` requests go over a raw JSON-RPC channel tapped into the session's transport.
 */
import {
  type CallToolResult,
  type Client,
  LOG_LEVEL_META_KEY,
  ProtocolError,
  SdkError,
  SdkErrorCode,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/client";
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  DispatchError,
  type DispatchOptions,
  type JsonRpcResponse,
  JsonRpcResponseError,
  type TaskEnabledSession,
  type TaskOutcome,
  type TaskView,
  toolDeclarationFromMcpTool,
} from "@modelcontextprotocol/ext-tasks/client";
import {
  type JsonValue,
  ProtocolDecodeError,
  type RuntimeCodec,
  taskId as asTaskId,
} from "@modelcontextprotocol/ext-tasks/core";
import { paramHeaders } from "./_param_headers.ts";

import type { TaskGeneration } from "./_task_support.ts";

/** A task's status; the last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What a task looks like at one moment. */
export interface TaskSnapshot {
  taskId: string;
  status: TaskStatus;
  /** The server's status message (how far the work got, what it waits for). */
  message?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** Options of a call that may run as a task. */
export interface TaskCallOptions {
  timeoutMs: number;
  /** Aborting it cancels the task on the server (or the request, before the task exists). */
  signal?: AbortSignal;
  /** Progress notifications of a call the server answers without a task. */
  onProgress?: (progress: number, total?: number, message?: string) => void;
  /** Every change of the task's status or message, the created task first. */
  onStatus?: (task: TaskSnapshot) => void;
}

/** A task that ended without a result: it failed (with the server's error) or was cancelled. */
export class TaskEnded extends Error {
  readonly status: "failed" | "cancelled";
  readonly taskId: string;
  /** The JSON-RPC code of a failure, when the server gave one. */
  readonly code?: number;

  constructor(status: "failed" | "cancelled", taskId: string, message: string, code?: number) {
    super(message);
    this.name = "TaskEnded";
    this.status = status;
    this.taskId = taskId;
    if (code !== undefined) this.code = code;
  }
}

/** The requests a task may put to Lass while it runs (the session's own handlers). */
export interface TaskInputHandlers {
  sampling(params: never, signal: AbortSignal): Promise<unknown>;
  elicitation(params: never, signal: AbortSignal): Promise<unknown>;
  /** The roots offered to the server; without it, none. */
  roots?(): { uri: string; name?: string }[];
}

type Message = { id?: string | number; method?: string; params?: Record<string, unknown> } & {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

interface Pending {
  settle(response: JsonRpcResponse): void;
  fail(error: unknown): void;
  /** Re-arms the request's deadline (progress arrived). */
  rearm(): void;
  token?: string;
}

const RAW_ID_PREFIX = "lass-task-";

/**
 * A raw JSON-RPC channel under the SDK client: requests with ids of its own go out through the
 * session's transport, and their answers (and progress for their tokens) are taken out of the
 * incoming messages before the client sees them. Install it after `Client.connect`.
 */
/**
 * The extra headers of one raw request: those ext-tasks asks for, and for a `tools/call` the
 * SEP-2243 `Mcp-Param-*` mirror of its arguments (the SDK's `callTool` would send them too).
 */
function headersOf(
  method: string,
  params: Record<string, unknown> | undefined,
  options: DispatchOptions,
  inputSchemaOf: (tool: string) => unknown,
): { headers?: Record<string, string> } {
  const headers: Record<string, string> = { ...options.context?.headers };
  if (method === "tools/call" && typeof params?.name === "string") {
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    Object.assign(headers, paramHeaders(inputSchemaOf(params.name), args));
  }
  return Object.keys(headers).length > 0 ? { headers } : {};
}

export class RawChannel {
  readonly #transport: Transport;
  /** The input schema of a listed tool, for the `Mcp-Param-*` headers of its calls. */
  inputSchemaOf: (tool: string) => unknown = () => undefined;
  readonly #pending = new Map<string, Pending>();
  readonly #progress = new Map<
    string,
    (progress: number, total?: number, message?: string) => void
  >();
  #next = 0;

  constructor(transport: Transport) {
    this.#transport = transport;
    const inner = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!this.#take(message as Message)) inner?.(message, extra);
    };
    // Requests still waiting when the connection ends get no answer: fail them.
    const innerClose = transport.onclose;
    transport.onclose = () => {
      const closed = new SdkError(SdkErrorCode.ConnectionClosed, "the connection closed");
      for (const pending of [...this.#pending.values()]) pending.fail(closed);
      innerClose?.();
    };
  }

  /** A progress token whose notifications go to `listener`, until `release` is called. */
  progressToken(
    listener: (progress: number, total?: number, message?: string) => void,
  ): { token: string; release: () => void } {
    const token = `${RAW_ID_PREFIX}progress-${++this.#next}`;
    this.#progress.set(token, listener);
    return { token, release: () => this.#progress.delete(token) };
  }

  /** Sends one request (as ext-tasks framed it) and waits for its answer. */
  dispatch = (request: JsonValue, options: DispatchOptions = {}): Promise<JsonRpcResponse> => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const id = `${RAW_ID_PREFIX}${++this.#next}`;
    const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    const signal = options.signal;
    const timeoutMs = options.context?.requestTimeoutMs;
    const stream = new AbortController();
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        this.#pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const abandon = () => {
        // 2026 cancellation: close the request's stream (HTTP) or say so (stdio).
        if (this.#transport.hasPerRequestStream) stream.abort();
        else {
          this.#transport.send({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason: "cancelled by Lass" },
          }).catch(() => {});
        }
      };
      const onAbort = () => {
        done();
        abandon();
        reject(signal!.reason);
      };
      const arm = () => {
        if (!timeoutMs) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          done();
          abandon();
          reject(new SdkError(SdkErrorCode.RequestTimeout, `${method} timed out`));
        }, timeoutMs);
      };
      const fail = (error: unknown) => {
        if (!this.#pending.has(id)) return;
        done();
        reject(error);
      };
      this.#pending.set(id, {
        settle: (response) => {
          done();
          resolve(response);
        },
        fail,
        rearm: () => {
          if (options.context?.resetTimeoutOnProgress) arm();
        },
        ...(typeof token === "string" && { token }),
      });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      arm();
      this.#transport.send({ jsonrpc: "2.0", id, method, params } as never, {
        requestSignal: stream.signal,
        onRequestStreamEnd: () =>
          fail(
            new SdkError(
              SdkErrorCode.ConnectionClosed,
              `the server closed the stream of ${method} before it answered`,
            ),
          ),
        ...(headersOf(method, params, options, this.inputSchemaOf)),
      }).catch(fail);
    });
  };

  /** Whether an incoming message was ours (and is now handled). */
  #take(message: Message): boolean {
    if (message.method === "notifications/progress") {
      const params = message.params as
        | { progressToken?: unknown; progress: number; total?: number; message?: string }
        | undefined;
      const token = params?.progressToken;
      const listener = typeof token === "string" ? this.#progress.get(token) : undefined;
      if (!listener || !params) return false;
      for (const pending of this.#pending.values()) if (pending.token === token) pending.rearm();
      listener(params.progress, params.total, params.message);
      return true;
    }
    if (message.method !== undefined || typeof message.id !== "string") return false;
    const pending = this.#pending.get(message.id);
    if (!pending) return message.id.startsWith(RAW_ID_PREFIX);
    pending.settle(
      message.error
        ? { kind: "error", error: message.error as never }
        : { kind: "result", result: (message.result ?? {}) as JsonValue },
    );
    return true;
  }
}

/** What {@link ClientTasks} needs from the session that owns it. */
export interface ClientTasksOptions {
  generation: TaskGeneration;
  /** The raw channel (2026 servers only). */
  channel?: RawChannel;
  handlers: TaskInputHandlers;
  clientInfo: Record<string, unknown>;
  clientCapabilities: Record<string, unknown>;
  protocolVersion?: string;
  /** The log level a 2026 task call asks for (the session's current one). */
  logLevel: () => string;
}

/** The tasks of one session: which tools run as tasks, calls that follow them, and control. */
export class ClientTasks {
  readonly #client: Client;
  readonly #options: ClientTasksOptions;
  readonly #tools = new Map<string, Tool>();
  #session?: TaskEnabledSession;

  constructor(client: Client, options: ClientTasksOptions) {
    this.#client = client;
    this.#options = options;
  }

  /** Keeps the listed tools (their task support and declarations). */
  noteTools(tools: Tool[]): void {
    this.#tools.clear();
    for (const tool of tools) this.#tools.set(tool.name, tool);
    if (this.#options.channel) {
      this.#options.channel.inputSchemaOf = (name) => this.#tools.get(name)?.inputSchema;
    }
  }

  /**
   * Whether a call of `tool` goes through tasks: a 2026 server with the extension decides per
   * call (so every call may); a 2025 server only for tools whose `execution.taskSupport` allows it.
   */
  runsAsTask(tool: string): boolean {
    if (this.#options.generation === "v2") return true;
    if (this.#options.generation !== "v1") return false;
    const support = (this.#tools.get(tool) as { execution?: { taskSupport?: string } } | undefined)
      ?.execution?.taskSupport;
    return support === "optional" || support === "required";
  }

  /** Calls `name`; a task is followed to its end. Aborting the signal cancels the task. */
  async call(
    name: string,
    args: Record<string, unknown>,
    options: TaskCallOptions,
  ): Promise<CallToolResult> {
    const session = this.#ensure();
    const modern = this.#options.generation === "v2";
    const progress = modern && options.onProgress
      ? this.#options.channel!.progressToken(options.onProgress)
      : undefined;
    const local = new AbortController();
    let cancel: (() => Promise<void>) | undefined;
    const onAbort = () => {
      if (!cancel) return local.abort(options.signal?.reason);
      cancel().catch(() => local.abort(options.signal?.reason));
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let last: TaskSnapshot | undefined;
    let pulling = false;
    const report = (view: TaskView) => {
      const snapshot = snapshotOf(view);
      if (last && last.status === snapshot.status && last.message === snapshot.message) return;
      last = snapshot;
      options.onStatus?.(snapshot);
      // A 2025 server queues its questions until the client asks for the result (the spec's
      // input_required flow); ext-tasks asks only at the end, so ask now.
      if (snapshot.status === "input_required" && !modern && !pulling) {
        pulling = true;
        this.#client.request(
          { method: "tasks/result", params: { taskId: snapshot.taskId } } as never,
          anyResult as never,
          { timeout: options.timeoutMs, signal: local.signal },
        ).catch(() => {});
      }
    };
    try {
      if (options.signal?.aborted) throw options.signal.reason;
      const execution = await session.callTool(name, args as Record<string, JsonValue>, {
        signal: local.signal,
        task: { preference: "prefer" },
        resultCodec: toolResultCodec,
        requestTimeoutMs: options.timeoutMs,
        resetTimeoutOnProgress: true,
        ...(modern && {
          metadata: {
            [LOG_LEVEL_META_KEY]: this.#options.logLevel(),
            ...(progress && { progressToken: progress.token }),
          },
        }),
      });
      if (execution.kind === "task") {
        cancel = () => execution.cancel();
        if (options.signal?.aborted) onAbort();
      }
      const { outcome } = await execution.settle({
        onEvent: (event) => {
          if (event.type === "task") report(event.task);
        },
      });
      return resultOf(outcome as TaskOutcome<CallToolResult>, execution.handle?.taskId ?? "");
    } catch (error) {
      throw unwrap(error);
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      progress?.release();
    }
  }

  /** The server's view of a task (`tasks/get`). */
  async get(taskId: string, timeoutMs: number): Promise<TaskSnapshot> {
    try {
      const view = await this.#ensure().task(asTaskId(taskId), { requestTimeoutMs: timeoutMs })
        .snapshot();
      return snapshotOf(view);
    } catch (error) {
      throw unwrap(error);
    }
  }

  /** Asks the server to cancel a task; a task this session follows ends as `cancelled`. */
  async cancel(taskId: string): Promise<void> {
    try {
      await this.#ensure().cancelTask(asTaskId(taskId));
    } catch (error) {
      throw unwrap(error);
    }
  }

  /** Stops following tasks (unfinished ones are asked to cancel, without waiting). */
  async close(): Promise<void> {
    await this.#session?.close().catch(() => {});
  }

  #ensure(): TaskEnabledSession {
    if (this.#session) return this.#session;
    const { handlers, generation, channel } = this.#options;
    const onInputRequest = createApplicationInputHandler({
      elicitation: async (request, context) =>
        withDefaults(
          request.params,
          await handlers.elicitation(request.params as never, context.signal ?? neverAborted),
        ) as never,
      sampling: async (request, context) =>
        await handlers.sampling(request.params as never, context.signal ?? neverAborted) as never,
      roots: () => ({ roots: handlers.roots?.() ?? [] }),
    });
    const tools = {
      currentTool: (name: string) => {
        const tool = this.#tools.get(name);
        return tool && toolDeclarationFromMcpTool(tool);
      },
    };
    const common = {
      endpointId: "lass",
      tools,
      onInputRequest,
      maxInputRounds: 10,
      onError: () => {},
    };
    this.#session = generation === "v2"
      ? createTaskSessionFromClient(this.#client, {
        ...common,
        rawDispatch: channel!.dispatch,
        v2RequestFraming: {
          protocolVersion: this.#options.protocolVersion ?? "2026-07-28",
          clientInfo: this.#options.clientInfo as Record<string, JsonValue>,
          clientCapabilities: this.#options.clientCapabilities as Record<string, JsonValue>,
        },
      })
      : createTaskSessionFromClient(this.#client, common);
    return this.#session;
  }
}

const neverAborted = new AbortController().signal;

/** A Standard Schema that takes any value (for a request whose answer Lass does not read). */
const anyResult = {
  "~standard": { version: 1, vendor: "lass", validate: (value: unknown) => ({ value }) },
};

/**
 * Reads a tool result, leniently: a result without `resultType` counts as complete (older
 * servers, and task stores that keep the tool's own result), as the SDK's callTool does.
 */
const toolResultCodec: RuntimeCodec<CallToolResult> = {
  parse(value) {
    const result = value as Record<string, unknown> | null;
    if (
      typeof result !== "object" || result === null || Array.isArray(result) ||
      !Array.isArray(result.content)
    ) {
      return {
        success: false,
        error: new ProtocolDecodeError("a tool result must have a content array"),
      };
    }
    return { success: true, value: result as unknown as CallToolResult };
  },
};

/**
 * A form answer with the schema's defaults for the fields it leaves out, as the SDK does for the
 * requests it handles (Lass announces `elicitation.form.applyDefaults`).
 */
function withDefaults(params: Record<string, unknown>, answer: unknown): unknown {
  const result = answer as { action?: string; content?: Record<string, unknown> };
  if (result?.action !== "accept" || params.mode === "url") return answer;
  const schema = params.requestedSchema as
    | { properties?: Record<string, { default?: unknown }> }
    | undefined;
  const content = { ...result.content };
  for (const [name, property] of Object.entries(schema?.properties ?? {})) {
    if (content[name] === undefined && property?.default !== undefined) {
      content[name] = property.default;
    }
  }
  return { ...result, content };
}

function snapshotOf(view: TaskView): TaskSnapshot {
  return {
    taskId: view.taskId,
    status: view.status,
    ...(view.statusMessage !== undefined && { message: view.statusMessage }),
    ...(view.createdAt !== undefined && { createdAt: view.createdAt }),
    ...(view.lastUpdatedAt !== undefined && { updatedAt: view.lastUpdatedAt }),
  };
}

/** The result of a settled call, or the reason it has none. */
function resultOf(outcome: TaskOutcome<CallToolResult>, taskId: string): CallToolResult {
  if (outcome.status === "completed") {
    // The 2026 wire shape says `resultType: "complete"`; the SDK's callTool leaves it out.
    const { resultType: _, ...result } = outcome.result as CallToolResult & { resultType?: string };
    return result as CallToolResult;
  }
  const id = outcome.task?.taskId ?? taskId;
  if (outcome.status === "cancelled") {
    throw new TaskEnded("cancelled", id, `the task ${id} was cancelled`);
  }
  // A call the server answered at once failed as any request does.
  if (!id) throw unwrap(outcome.error.cause ?? outcome.error);
  throw new TaskEnded("failed", id, outcome.error.message, outcome.error.code);
}

/** The SDK's error classes for what ext-tasks wraps, so the manager maps them as for any call. */
function unwrap(error: unknown): unknown {
  let inner = error;
  while (inner instanceof DispatchError && inner.cause !== undefined) inner = inner.cause;
  if (inner instanceof JsonRpcResponseError) {
    return new ProtocolError(inner.code, inner.message, inner.data);
  }
  return inner;
}
