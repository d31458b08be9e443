/** The export targets of `POST /api/export`: a list with no imports, so the route can check a body cheaply. */

/** What a workspace can be exported as. */
export const EXPORT_TARGETS = ["sdk-a", "graph-a", "mcp-json", "service"] as const;

/** One export target: an AI SDK script, a LangChain agent, a `.mcp.json`, or a `service.json`. */
export type ExportTarget = typeof EXPORT_TARGETS[number];
