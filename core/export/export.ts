/** Exports a workspace as code that runs outside Lass: an AI SDK script, a LangChain agent, a `.mcp.json` or a `service.json`. */
import type { ExportResult, ExportTarget } from "../../wire/export.ts";
import { type ExportSource, planWorkspace } from "./_plan.ts";
import { generateGraphA } from "./graph_a.ts";
import { generateMcpJson } from "./mcp_json.ts";
import { generateSdkA } from "./sdk_a.ts";
import { generateServiceJson } from "./service_json.ts";

/**
 * Generates one target for one workspace. Secrets never appear in the output: references become
 * the target's env lookups and literals become named variables the result lists in `env`.
 * Throws 404 `not-found` for an unknown workspace.
 */
export function exportWorkspace(
  source: ExportSource,
  options: { target: ExportTarget; workspaceId: string },
): ExportResult {
  const { target, workspaceId } = options;
  switch (target) {
    case "sdk-a":
      return generateSdkA(planWorkspace(source, workspaceId));
    case "graph-a":
      return generateGraphA(planWorkspace(source, workspaceId));
    case "mcp-json":
      return generateMcpJson(source, workspaceId);
    case "service":
      return generateServiceJson(source, workspaceId);
  }
}
