/**
 * MCP Tasks of an open session: tool calls that a server runs as tasks, driven by ext-tasks on
 * either era. 2025 servers (`capabilities.tasks`) go through the SDK client; a 2026 server (the
 * `io.modelcontextprotocol/tasks` extension) answers shapes the SDK rejects, so its `tools/call`
 * and `tasks/*` requests go over a raw JSON-RPC channel tapped into the session's transport.
 */
import {
  type CallToolResult,
  type Client,
  LOG_LEVEL_META_KEY,
  type Tool,
} from "@modelcontextprotocol/client";
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  type TaskEnabledSession,
  type TaskOutcome,
  type TaskView,
  toolDeclarationFromMcpTool,
  type ToolExecution,
} from "@modelcontextprotocol/ext-tasks/client";
import { type JsonValue, taskId as asTaskId } from "@modelcontextprotocol/ext-tasks/core";
import type { TaskGeneration } from "../tasks/support.ts";
import type { RawChannel } from "./raw_channel.ts";
import type {
  TaskCallOptions,
  TaskInputHandlers,
  TaskReference,
  TaskSnapshot,
} from "../tasks/types.ts";
import {
  anyResult,
  neverAborted,
  resultOf,
  snapshotOf,
  toolResultCodec,
  unwrap,
} from "../tasks/results.ts";

/** A tool call's execution as {@link ClientTasks} follows it. */
type FollowedExecution = ToolExecution<CallToolResult>;

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
  /**
   * The tasks extension's declaration of each listed tool, made once per listing: making one
   * walks the whole tool (its schemas too), which cost more than the rest of a call's client side.
   */
  readonly #declarations = new Map<string, ReturnType<typeof toolDeclarationFromMcpTool>>();
  /** The executions being followed (released, not cancelled, when the connection is lost). */
  readonly #active = new Set<FollowedExecution>();
  #session?: TaskEnabledSession;

  constructor(client: Client, options: ClientTasksOptions) {
    this.#client = client;
    this.#options = options;
  }

  /** Keeps the listed tools (their task support and declarations). */
  noteTools(tools: Tool[]): void {
    this.#tools.clear();
    this.#declarations.clear();
    for (const tool of tools) this.#tools.set(tool.name, tool);
    if (this.#options.channel) {
      this.#options.channel.inputSchemaOf = (name) => this.#tools.get(name)?.inputSchema;
    }
  }

  /** A listed tool (the last `tools/list`). */
  tool(name: string): Tool | undefined {
    return this.#tools.get(name);
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
    // Aborted by the caller before the server made the task: the request itself is dropped.
    const local = new AbortController();
    const onAbort = () => local.abort(options.signal?.reason);
    options.signal?.addEventListener("abort", onAbort, { once: true });
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
      options.signal?.removeEventListener("abort", onAbort);
      if (execution.kind === "task") options.onReference?.(execution.serializeReference());
      return await this.#follow(execution as FollowedExecution, options, local);
    } catch (error) {
      throw unwrap(error);
    } finally {
      options.signal?.removeEventListener("abort", onAbort);
      progress?.release();
    }
  }

  /**
   * Follows a task that another session of the same server started (it was lost on the way) to
   * its end, as {@link call} does.
   */
  async resume(reference: TaskReference, options: TaskCallOptions): Promise<CallToolResult> {
    try {
      const execution = await this.#ensure().resumeTask(reference, {
        resultCodec: toolResultCodec,
        requestTimeoutMs: options.timeoutMs,
      });
      return await this.#follow(execution as FollowedExecution, options, new AbortController());
    } catch (error) {
      throw unwrap(error);
    }
  }

  /**
   * Follows an execution to its outcome: status changes go to `onStatus`, aborting the signal
   * cancels the task (or `local`, the request, when there is no task).
   */
  async #follow(
    execution: FollowedExecution,
    options: TaskCallOptions,
    local: AbortController,
  ): Promise<CallToolResult> {
    const modern = this.#options.generation === "v2";
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
    const onAbort = () => {
      if (execution.kind !== "task") return local.abort(options.signal?.reason);
      execution.cancel().catch(() => local.abort(options.signal?.reason));
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    this.#active.add(execution);
    try {
      const { outcome } = await execution.settle({
        onEvent: (event) => {
          if (event.type === "task") report(event.task);
        },
      });
      return resultOf(outcome as TaskOutcome<CallToolResult>, execution.handle?.taskId ?? "");
    } finally {
      this.#active.delete(execution);
      options.signal?.removeEventListener("abort", onAbort);
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

  /**
   * Stops following tasks without cancelling them, for a session whose connection was lost: their
   * calls reject, and a later session may follow them again ({@link resume}).
   */
  async release(): Promise<void> {
    const active = [...this.#active];
    this.#active.clear();
    // Closing the task session would ask each unfinished task to cancel.
    this.#session = undefined;
    await Promise.all(active.map((execution) => execution.detach().catch(() => {})));
  }

  #ensure(): TaskEnabledSession {
    if (this.#session) return this.#session;
    const { handlers, generation, channel } = this.#options;
    const onInputRequest = createApplicationInputHandler({
      // The interaction registry fills in a form's defaults (`checkFormContent`).
      elicitation: async (request, context) =>
        await handlers.elicitation(
          request.params as never,
          context.signal ?? neverAborted,
        ) as never,
      sampling: async (request, context) =>
        await handlers.sampling(request.params as never, context.signal ?? neverAborted) as never,
      roots: () => ({ roots: handlers.roots?.() ?? [] }),
    });
    const tools = {
      currentTool: (name: string) => {
        let declaration = this.#declarations.get(name);
        if (declaration) return declaration;
        const tool = this.#tools.get(name);
        if (!tool) return undefined;
        declaration = toolDeclarationFromMcpTool(tool);
        this.#declarations.set(name, declaration);
        return declaration;
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
