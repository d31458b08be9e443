/** Requests to a connected tool server: tool calls with their events, and errors in the contract's terms. */
import { outputSchemaDetails } from "./output_errors.ts";
import { LassError } from "../../errors.ts";
import type { EventBus } from "../../events.ts";
import type { CallToolResult, McpSession } from "../session/types.ts";
import type { CallContext, Entry } from "./entry.ts";
import { runAsTask } from "../tasks/follow.ts";
import { startDeadline } from "./deadline.ts";
import type { TaskRecord } from "../../../wire/tool_tasks.ts";
import type { ConnectionState, ToolInfo } from "../../../wire/tool_servers.ts";
import type { PinnedState } from "./pins.ts";
import type { TaskRecords } from "../tasks/records.ts";

let loadedClient: Promise<typeof import("../session/errors.ts")> | undefined;
/** The SDK's error tests (and the SDK under them), loaded on the first request and kept. */
function clientModule(): Promise<typeof import("../session/errors.ts")> {
  return loadedClient ??= import("../session/errors.ts");
}

/** The result of a tool call (`POST /api/mcp/:id/call` answers its first two fields). */
export interface CallOutcome {
  result: CallToolResult;
  durationMs: number;
  /** The tool as the manager found it on the connected server, for the caller to show. */
  tool: ToolInfo;
}

/** Options of a tool call. */
export interface ToolCallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: number, total?: number, message?: string) => void;
  context?: CallContext;
  /** Every change of the task, when the call runs as an MCP task (the first call: it exists). */
  onTask?: (task: TaskRecord) => void;
  /** This call's deadline in ms; default the record's `callTimeoutMs`, else the manager's 120 s. */
  timeoutMs?: number;
}

/**
 * A request's deadline and what progress does to it: the call's own `timeoutMs`, else the
 * record's `callTimeoutMs`, else the manager's; progress restarts it only when the record sets
 * `progressExtendsTimeout` (up to `maxTotalTimeoutMs`).
 */
export function deadlineOf(
  host: Pick<CallHost, "callTimeoutMs">,
  entry: Entry,
  timeoutMs?: number,
): { timeoutMs: number; progressExtendsTimeout?: boolean; maxTotalTimeoutMs?: number } {
  const record = entry.record;
  return {
    timeoutMs: timeoutMs ?? record.callTimeoutMs ?? host.callTimeoutMs,
    ...(record.progressExtendsTimeout && {
      progressExtendsTimeout: true,
      ...(record.maxTotalTimeoutMs !== undefined &&
        { maxTotalTimeoutMs: record.maxTotalTimeoutMs }),
    }),
  };
}

/** What requests need from the manager. */
export interface CallHost {
  events: EventBus;
  callTimeoutMs: number;
  /** The records of calls that run as MCP tasks. */
  tasks: TaskRecords;
  /** Waits for the entry's session (connecting it if needed); throws when it cannot. */
  connected(entry: Entry): Promise<Entry>;
  /** Replaces the entry's session by a new one. */
  renew(entry: Entry): Promise<void>;
  /** The session's peer is gone. */
  lost(entry: Entry, session: McpSession, reason: string): void;
  /** Follows the entry's lost tasks again, on its current session if another one is connected. */
  resumeTasks(entry: Entry): void;
  log(entry: Entry, level: string, message: string): void;
  scrub(entry: Entry, text: string): string;
  /** Reviews new lists of a server against its pins (`reviewPins`). */
  review(entry: Entry, state: ConnectionState): Promise<PinnedState>;
}

/**
 * Calls a tool and records it (`tool.call`, `tool.result`). A tool's own error result (`isError`)
 * is a normal outcome; an unknown tool is 404.
 */
export async function callTool(
  host: CallHost,
  entry: Entry,
  tool: string,
  args: Record<string, unknown>,
  options: ToolCallOptions = {},
): Promise<CallOutcome> {
  const id = entry.record.id;
  const { session } = await host.connected(entry);
  const info = entry.state.tools.find((candidate) => candidate.name === tool);
  if (!info) {
    throw new LassError("not-found", `the tool server ${id} has no tool named ${tool}`);
  }
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
    ...(context.runId ? { runId: context.runId } : { source: "api" }),
    ...(context.toolCallId !== undefined && { toolCallId: context.toolCallId }),
  };
  host.events.emit("tool.call", { ...origin, input: args });
  // Every call asks for progress: each notification is an event, and goes to the caller.
  const onProgress = (progress: number, total?: number, message?: string) => {
    host.events.emit("tool.progress", {
      ...origin,
      progress,
      ...(total !== undefined && { total }),
      ...(message !== undefined && { message }),
    });
    clock.progressed();
    options.onProgress?.(progress, total, message);
  };
  const deadline = deadlineOf(host, entry, options.timeoutMs);
  // One timer over the whole call, a request or a task followed to its end: past it the call is
  // aborted (the server is told), progress or not, unless the record lets progress extend it.
  const clock = startDeadline(deadline, options.signal);
  const started = performance.now();
  entry.calls.push(context);
  let result: CallToolResult;
  try {
    result = await runRequest(
      host,
      entry,
      `${tool} on ${id}`,
      (session) =>
        session.runsAsTask(tool)
          ? runAsTask(host.tasks, session, {
            serverId: id,
            tool,
            args,
            timeoutMs: deadline.timeoutMs,
            signal: clock.signal,
            onProgress,
            onTask: options.onTask,
            onLost: () => host.resumeTasks(entry),
          })
          : session.callTool(tool, args, { ...deadline, signal: clock.signal, onProgress }),
      { signal: options.signal, session: session!, timeoutMs: deadline.timeoutMs },
    ).catch((error) => {
      if (!clock.expired() || options.signal?.aborted) throw error;
      throw new LassError(
        "timeout",
        `${tool} on ${id} got no answer within ${deadline.timeoutMs / 1000} s`,
      );
    });
  } catch (error) {
    const durationMs = Math.round(performance.now() - started);
    const message = (error as Error).message;
    host.events.emit("tool.result", {
      ...origin,
      isError: true,
      durationMs,
      error: message,
      ...(options.signal?.aborted && { cancelled: true }),
    });
    throw error;
  } finally {
    clock.stop();
    entry.calls.splice(entry.calls.indexOf(context), 1);
  }
  const durationMs = Math.round(performance.now() - started);
  host.events.emit("tool.result", {
    ...origin,
    isError: result.isError === true,
    durationMs,
  });
  return { result, durationMs, tool: info };
}

/** Options of {@link runRequest}. */
export interface RequestOptions {
  /** The answer of a request that names something the server does not know: 404 with it. */
  notFound?: string;
  /** The request is sent again on a renewed session (it is never sent a third time). */
  retried?: boolean;
  signal?: AbortSignal;
  /** The session the caller already waited for; without it, the entry's is awaited. */
  session?: McpSession;
  /** The request's deadline, for the timeout's message; default the manager's. */
  timeoutMs?: number;
}

/**
 * Runs a request on a connected session and maps its failures to the contract's errors. A
 * Streamable HTTP session that the server forgot (it restarted) is replaced by a new one and
 * the request is sent again, once.
 */
export async function runRequest<T>(
  host: CallHost,
  entry: Entry,
  what: string,
  run: (session: McpSession) => Promise<T>,
  options: RequestOptions = {},
): Promise<T> {
  const session = options.session ?? (await host.connected(entry)).session!;
  const client = await clientModule();
  try {
    const result = await run(session);
    // Cancelled by the caller, yet answered (a task the server finished with its own result
    // while the cancel was on its way): the caller's cancel wins, as it does for any request.
    if (options.signal?.aborted) throw options.signal.reason;
    return result;
  } catch (error) {
    // The SDK rejects an aborted request with its timeout code: say what really happened.
    if (options.signal?.aborted) throw new LassError("upstream-error", `${what} was cancelled`);
    if (client.isTimeout(error)) {
      throw new LassError(
        "timeout",
        `${what} got no answer within ${(options.timeoutMs ?? host.callTimeoutMs) / 1000} s`,
      );
    }
    if (client.isSessionGone(error) && !options.retried && entry.session === session) {
      host.log(entry, "info", "the server forgot the session: starting a new one");
      await host.renew(entry);
      return await runRequest(host, entry, what, run, {
        ...options,
        session: undefined,
        retried: true,
      });
    }
    if (options.notFound && client.isNotFound(error)) {
      throw new LassError("not-found", options.notFound);
    }
    if (entry.state.status === "needs-auth") {
      throw new LassError(
        "upstream-error",
        `${what} failed: ${`the tool server ${entry.record.id} needs sign-in: open the authUrl of its state (GET /api/mcp)`}`,
      );
    }
    if (entry.session !== session || entry.state.status !== "connected") {
      throw new LassError(
        "upstream-error",
        `${what} failed: ${entry.state.error ?? "the server went away"}`,
      );
    }
    if (session.remote && !(await session.reachable(1000))) {
      host.lost(entry, session, `cannot reach ${entry.record.url}`);
      throw new LassError("upstream-error", `${what} failed: cannot reach ${entry.record.url}`);
    }
    const message = host.scrub(entry, (error as Error).message);
    // A result that breaks the tool's output schema names each error at its path.
    throw new LassError(
      "upstream-error",
      `${what} failed: ${message}`,
      outputSchemaDetails(message),
    );
  }
}
