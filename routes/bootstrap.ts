/** `GET /api/bootstrap`: everything a client needs to draw the settings and chat on first load. */
import { PROVIDER_PRESETS } from "../core/llm/presets.ts";
import type { Service } from "../core/service.ts";
import type { Routes } from "./context.ts";
import { respond } from "./http.ts";

/** The serialised body per service, rebuilt only when the config changes. */
const cache = new WeakMap<Service, { revision: number; body: string }>();

function bootstrapBody(service: Service, version: string): string {
  const cached = cache.get(service);
  if (cached?.revision === service.config.revision) return cached.body;
  const body = JSON.stringify({
    version,
    config: service.config.stored,
    configPath: service.config.path,
    presets: PROVIDER_PRESETS,
    env: { detected: service.detectedEnv },
    mcp: [],
    skills: [],
    catalogs: [],
  });
  cache.set(service, { revision: service.config.revision, body });
  return body;
}

/** Bootstrap routes. */
export const bootstrapRoutes: Routes = {
  "/api/bootstrap": {
    GET: (_req, { service, version }) => respond(bootstrapBody(service, version)),
  },
};
