/**
 * Following a tool call that runs as an MCP task to its end, keeping its record in
 * {@link TaskRecords}: from the call that starts it, or again from a later session after the
 * connection that followed it was lost.
 */
import { clip } from "../../errors.ts";
import type { CallToolResult, McpSession } from "../session/types.ts";
import type { TaskCallOptions, TaskReference } from "./types.ts";
import type { TaskRecord } from "../../../wire/tool_tasks.ts";
import type { TaskRecords } from "./records.ts";

/** What a call that may run as a task reports besides its result. */
export interface TaskCall {
  serverId: string;
  tool: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: number, total?: number, message?: string) => void;
  /** Every change of the task's record (the first call: the task exists). */
  onTask?: (task: TaskRecord) => void;
  /** The task's following was lost (it waits for a session to follow it again). */
  onLost?: () => void;
}

/**
 * Calls a tool through the session's task path, keeping the task's record. A task that fails or
 * is cancelled rejects with its reason; once the task exists, a failure is never retried as a
 * new call (that would run the tool twice). A task whose following is lost (the connection went)
 * rejects, and its record waits for another session of the server ({@link resumeTask}). The
 * result is checked against the tool's output schema as the SDK's `callTool` does (the record
 * keeps what the server answered; the call fails as a call outside tasks would).
 */
export async function runAsTask(
  records: TaskRecords,
  session: McpSession,
  call: TaskCall,
): Promise<CallToolResult> {
  const check = session.outputCheck(call.tool);
  const result = await followTask(
    records,
    session,
    call,
    undefined,
    (hooks) =>
      session.callToolTask(call.tool, call.args, {
        timeoutMs: call.timeoutMs,
        signal: call.signal,
        onProgress: call.onProgress,
        ...hooks,
      }),
  );
  check(result);
  return result;
}

/** Follows a lost task again on a new session of its server, to its end; its record says how it ended. */
export async function resumeTask(
  records: TaskRecords,
  session: McpSession,
  task: { serverId: string; tool: string; reference: TaskReference; timeoutMs: number },
  onLost?: () => void,
): Promise<void> {
  const call = { ...task, onLost };
  await followTask(
    records,
    session,
    call,
    task.reference.taskId,
    (hooks) => session.resumeToolTask(task.reference, { timeoutMs: task.timeoutMs, ...hooks }),
  );
}

/** Runs `follow` with hooks that keep the task's record, and ends the record as the task ends. */
async function followTask(
  records: TaskRecords,
  session: McpSession,
  call: Pick<TaskCall, "serverId" | "tool" | "onTask" | "onLost">,
  knownTaskId: string | undefined,
  follow: (hooks: Pick<TaskCallOptions, "onStatus" | "onReference">) => Promise<CallToolResult>,
): Promise<CallToolResult> {
  const { serverId, tool } = call;
  let taskId = knownTaskId;
  let reference: TaskReference | undefined;
  const report = (record: TaskRecord | undefined) => {
    if (record) call.onTask?.({ ...record });
  };
  try {
    const result = await follow({
      onStatus: (snapshot) => {
        taskId = snapshot.taskId;
        report(
          records.observe(serverId, tool, snapshot, () => session.cancelTask(snapshot.taskId)),
        );
        // The reference may come before the first status, which makes the record.
        if (reference) records.refer(serverId, reference, session);
      },
      onReference: (known) => {
        reference = known;
        records.refer(serverId, known, session);
      },
    });
    if (taskId) report(records.end(serverId, taskId, { status: "completed", result }));
    return result;
  } catch (error) {
    if (!taskId) throw error;
    const { TaskEnded, TaskLost } = await import("./types.ts");
    if (error instanceof TaskEnded && error.status === "cancelled") {
      report(records.end(serverId, taskId, { status: "cancelled" }));
      throw error;
    }
    const lost = error instanceof TaskLost ? records.lose(serverId, taskId) : undefined;
    if (lost === "waiting") {
      call.onLost?.();
      throw new Error(
        `following the task ${taskId} failed (${
          (error as Error).message
        }): Lass follows it again once it reconnects to ${serverId}`,
      );
    }
    if (lost === "ended") throw new Error(records.get(serverId, taskId).error!.message);
    const message = error instanceof TaskEnded
      ? error.message
      : `Lass lost track of the task: ${(error as Error)?.message ?? error}`;
    const code = error instanceof TaskEnded ? error.code : undefined;
    report(records.end(serverId, taskId, {
      status: "failed",
      error: { message: clip(message), ...(code !== undefined && { code }) },
    }));
    throw error instanceof TaskEnded ? error : new Error(message);
  }
}
