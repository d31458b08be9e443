/** Typed call of `POST /api/export`, and the targets it supports. */
import type { ExportResult, ExportTarget } from "../../wire/export.ts";
import { api } from "../state.ts";

/** A label of each target of `POST /api/export`, in the server's order (`EXPORT_TARGETS`). */
const LABELS: Record<ExportTarget, string> = {
  "sdk-a": "AI SDK script",
  "graph-a": "LangGraph agent",
  "mcp-json": "Claude Code mcp.json",
  "service": "Lass config",
};

/** The targets of `POST /api/export` with their labels; the browser test checks the order. */
export const EXPORT_TARGETS = Object.entries(LABELS) as [ExportTarget, string][];

/** A workspace as code for `target`. */
export function exportWorkspace(workspaceId: string, target: ExportTarget): Promise<ExportResult> {
  return api().json<ExportResult>("POST", "/api/export", { target, workspaceId });
}
