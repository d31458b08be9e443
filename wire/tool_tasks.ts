/**
 * The MCP task routes' records (`GET /api/mcp/:id/tasks`, `GET /api/mcp/:id/tasks/:taskId`, the
 * `mcp.task` event): what Lass knows about a tool call that runs as a task.
 */
import type { CallToolResult } from "@modelcontextprotocol/client";

/** A task's status; the last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** What Lass knows about one task (`GET /api/mcp/:id/tasks/:taskId`). */
export interface TaskRecord {
  taskId: string;
  serverId: string;
  tool: string;
  status: TaskStatus;
  /** The server's status message. */
  message?: string;
  createdAt: string;
  updatedAt: string;
  /** The tool's result, once `completed`. */
  result?: CallToolResult;
  /** Why it failed, once `failed` (with the JSON-RPC code when the server gave one). */
  error?: { message: string; code?: number };
  /**
   * A cancel was asked while Lass had lost track of the task (its connection went): Lass sends it
   * to the server once it follows the task again.
   */
  cancelRequested?: true;
}
