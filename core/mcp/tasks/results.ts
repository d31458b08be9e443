/**
 * What the tasks of a session translate between ext-tasks and Lass: tool results, task snapshots,
 * form defaults, and the SDK error classes of what ext-tasks wraps.
 */
import { type CallToolResult, ProtocolError } from "@modelcontextprotocol/client";
import {
  DispatchError,
  JsonRpcResponseError,
  type TaskOutcome,
  type TaskView,
} from "@modelcontextprotocol/ext-tasks/client";
import { ProtocolDecodeError, type RuntimeCodec } from "@modelcontextprotocol/ext-tasks/core";
import { TaskEnded, TaskLost, type TaskSnapshot } from "./types.ts";

/** A signal that never aborts, for input requests that come without one. */
export const neverAborted: AbortSignal = new AbortController().signal;

/** A Standard Schema that takes any value (for a request whose answer Lass does not read). */
export const anyResult = {
  "~standard": { version: 1, vendor: "lass", validate: (value: unknown) => ({ value }) },
};

/**
 * Reads a tool result, leniently: a result without `resultType` counts as complete (older
 * servers, and task stores that keep the tool's own result), as the SDK's callTool does.
 */
export const toolResultCodec: RuntimeCodec<CallToolResult> = {
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

/** A task as Lass reports it, from ext-tasks' view of it. */
export function snapshotOf(view: TaskView): TaskSnapshot {
  return {
    taskId: view.taskId,
    status: view.status,
    ...(view.statusMessage !== undefined && { message: view.statusMessage }),
    ...(view.createdAt !== undefined && { createdAt: view.createdAt }),
    ...(view.lastUpdatedAt !== undefined && { updatedAt: view.lastUpdatedAt }),
  };
}

/** The result of a settled call, or the reason it has none. */
export function resultOf(outcome: TaskOutcome<CallToolResult>, taskId: string): CallToolResult {
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
  // The server said the task failed (its final status, or an error answer); anything else is a
  // failure to follow the task, which may still run.
  const cause = outcome.error.cause === undefined ? undefined : unwrap(outcome.error.cause);
  if (outcome.task?.status !== "failed" && !(cause instanceof ProtocolError)) {
    throw new TaskLost(id, outcome.error.message);
  }
  throw new TaskEnded("failed", id, outcome.error.message, outcome.error.code);
}

/** The SDK's error classes for what ext-tasks wraps, so the manager maps them as for any call. */
export function unwrap(error: unknown): unknown {
  let inner = error;
  while (inner instanceof DispatchError && inner.cause !== undefined) inner = inner.cause;
  if (inner instanceof JsonRpcResponseError) {
    return new ProtocolError(inner.code, inner.message, inner.data);
  }
  return inner;
}
