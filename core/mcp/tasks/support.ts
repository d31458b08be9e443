/** Which MCP Tasks a server offers: one rule for the client's choice and for the API's refusal. */
import type { ConnectionState } from "../../../wire/tool_servers.ts";

/** The extension's identifier in `capabilities.extensions` (2026-07-28). */
export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** `v1`: 2025 `capabilities.tasks` for tool calls; `v2`: the 2026 extension; or none. */
export type TaskGeneration = "v1" | "v2" | "none";

/** The task generation a server offers, from its era and capabilities. */
export function taskGenerationOf(
  era: "modern" | "legacy" | undefined,
  capabilities: Record<string, unknown> | undefined,
): TaskGeneration {
  if (era === "modern") {
    const extensions = capabilities?.extensions as Record<string, unknown> | undefined;
    const extension = extensions?.[TASKS_EXTENSION];
    return typeof extension === "object" && extension !== null && !Array.isArray(extension)
      ? "v2"
      : "none";
  }
  const tasks = capabilities?.tasks as { requests?: { tools?: { call?: unknown } } } | undefined;
  return tasks?.requests?.tools?.call !== undefined ? "v1" : "none";
}

/**
 * Why a tool cannot run as a task on a connected server, in words: the
 * server offers no MCP Tasks, or (2025) the tool does not allow them.
 */
export function whyNotTask(state: ConnectionState, tool: string): string {
  if (taskGenerationOf(state.era, state.capabilities) === "none") {
    return state.era === "modern"
      ? `the tool server ${state.id} does not offer MCP Tasks (no ${TASKS_EXTENSION} extension)`
      : `the tool server ${state.id} does not offer MCP Tasks for tool calls (capabilities.tasks)`;
  }
  return `the tool ${tool} of ${state.id} does not run as a task (its execution.taskSupport is not optional or required)`;
}
