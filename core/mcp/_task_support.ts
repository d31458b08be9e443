/** Which MCP Tasks a server offers: one rule for the client's choice and for the API's refusal. */

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
