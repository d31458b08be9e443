/** The values the config schema fills in for absent fields, which the server also falls back on. */

/** Defaults the schema fills in when a field is absent. */
export const CONFIG_DEFAULTS = {
  version: 1,
  maxSteps: 12,
  timeoutMs: 30_000,
  toolServerWaitMs: 3000,
  sampling: "ask",
  renderToolName: "render_ui",
} as const;

/** The MCP Registry Lass searches when the config names no `registryUrl`: the official one. */
export const DEFAULT_REGISTRY_URL = "https://registry.modelcontextprotocol.io";
