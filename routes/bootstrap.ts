/** `GET /api/bootstrap`: everything a client needs to draw the settings and chat on first load. */
import { detectedEnvKeys, PROVIDER_PRESETS } from "../core/llm/presets.ts";
import { json } from "./http.ts";
import type { Routes } from "./context.ts";

/** Bootstrap routes. */
export const bootstrapRoutes: Routes = {
  "/api/bootstrap": {
    GET: (_req, { service, version }) =>
      json({
        version,
        config: service.config.stored,
        configPath: service.config.path,
        presets: PROVIDER_PRESETS,
        env: { detected: detectedEnvKeys(service.env) },
        mcp: [],
        skills: [],
        catalogs: [],
      }),
  },
};
