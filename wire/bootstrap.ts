/** `GET /api/bootstrap`: everything a client needs to draw the settings and chat on first load. */
import type { ServiceConfigInput } from "./config/schema.ts";
import type { ToolServerState } from "./tool_servers.ts";
import type { CatalogSummary } from "./catalogs.ts";
import type { SkillSummary } from "./skills.ts";

/** What the settings page offers for one provider kind. */
export interface ProviderPreset {
  label: string;
  baseURL?: string;
  /** Environment variables this provider reads, the API key first. */
  envKeys: string[];
  /** The variables an API key is read from when a profile gives none, in order. */
  keyEnv?: string[];
  models?: string[];
}

/** Everything a client needs to draw the settings and chat on first load. */
export interface Bootstrap {
  version: string;
  /** The config as stored in the file: defaults not filled in, unknown top-level fields kept. */
  config: ServiceConfigInput & Record<string, unknown>;
  /**
   * The entity tag of `config` (as `GET /api/config` answers in `ETag`): sent in `If-Match`, a
   * `PUT /api/config` replaces only this config and answers 412 after any other change.
   */
  configEtag: string;
  configPath: string;
  presets: Record<string, ProviderPreset>;
  env: { detected: string[] };
  mcp: ToolServerState[];
  skills: SkillSummary[];
  catalogs: CatalogSummary[];
  /**
   * Where MCP Apps and MCP-UI resources are shown: the origin of the sandbox port (a proxy page
   * only, no API). Absent when Lass runs without one (e.g. the handler mounted elsewhere).
   */
  sandbox?: { origin: string };
}
