/** Typed call of `POST /api/export`, and the targets it supports. */
import { api } from "../state.ts";

/**
 * The targets of `POST /api/export`, with a label each. The server's list is
 * `EXPORT_TARGETS` in `core/export/targets.ts`; the browser test checks that both agree.
 */
export const EXPORT_TARGETS = [
  ["sdk-a", "AI SDK script (TypeScript)"],
  ["graph-a", "LangChain agent (TypeScript)"],
  ["mcp-json", "Tool servers as .mcp.json"],
  ["service", "Lass config (service.json)"],
] as const;

/** One export target. */
export type ExportTarget = typeof EXPORT_TARGETS[number][0];

/** An environment variable the exported code reads. */
export interface ExportEnvVar {
  name: string;
  description: string;
  /** The config held a literal secret there: the variable must be set. */
  replacesLiteral?: boolean;
}

/** The answer of `POST /api/export` (see docs/export.md). */
export interface ExportResult {
  code: string;
  filename: string;
  dependencies: Record<string, string>;
  env: ExportEnvVar[];
  notes: string[];
}

/** A workspace as code for `target`. */
export function exportWorkspace(workspaceId: string, target: ExportTarget): Promise<ExportResult> {
  return api().json<ExportResult>("POST", "/api/export", { target, workspaceId });
}
