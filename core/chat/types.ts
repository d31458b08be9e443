/** Types the chat tool modules and the chunks share, apart so that neither imports the other. */

/** Where a model-visible tool name leads. */
export interface ToolOrigin {
  /** A tool server's id, or `ui`, `skills`, `agent`. */
  source: string;
  /** The tool's own name at its source. */
  tool: string;
}
