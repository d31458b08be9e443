/**
 * The MCP task routes' answers (`GET /api/mcp/:id/tasks`, `GET /api/mcp/:id/tasks/:taskId`): the
 * server's types, re-exported as types only, so a browser bundle never contains server code.
 */
export type { TaskRecord, TaskStatus } from "../core/mcp/tasks.ts";
