/**
 * `POST /api/export`: its targets and its answer, shared by the server and the export dialog. No
 * imports, so the route can check a body cheaply.
 */

/** What a workspace can be exported as. */
export const EXPORT_TARGETS = ["sdk-a", "graph-a", "mcp-json", "service"] as const;

/** One export target: an AI SDK script, a LangChain agent, a `.mcp.json`, or a `service.json`. */
export type ExportTarget = typeof EXPORT_TARGETS[number];

/** A variable the exported code or file reads. */
export interface ExportEnvVar {
  name: string;
  /** What it is for, e.g. `API key of model profile "GPT"`. */
  description: string;
  /**
   * The config held a literal value here, which the export left out: the variable must be set.
   * `false`: the config already referred to this variable.
   */
  replacesLiteral: boolean;
}

/** What an export produces: `POST /api/export` answers with it. */
export interface ExportResult {
  /** The file's text. */
  code: string;
  /** A name to save it under. */
  filename: string;
  /** npm packages the code imports, with the exact versions it pins. */
  dependencies: Record<string, string>;
  /** The environment variables it reads. */
  env: ExportEnvVar[];
  /** What did not carry over, as sentences. */
  notes: string[];
}
