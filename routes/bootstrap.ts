/** `GET /api/bootstrap`: everything a client needs to draw the settings and chat on first load. */
import { PROVIDER_PRESETS } from "../core/llm/presets.ts";
import type { Service } from "../core/service.ts";
import type { Routes } from "./context.ts";
import { respond } from "./http.ts";

/** The serialised config part per service, rebuilt only when the config changes. */
const cache = new WeakMap<Service, { revision: number; head: string }>();

function bootstrapBody(service: Service, version: string): string {
  let cached = cache.get(service);
  if (cached?.revision !== service.config.revision) {
    const head = JSON.stringify({
      version,
      config: service.config.stored,
      configPath: service.config.path,
      presets: PROVIDER_PRESETS,
      env: { detected: service.detectedEnv },
      skills: [],
      catalogs: [],
    });
    cached = { revision: service.config.revision, head };
    cache.set(service, cached);
  }
  // Tool-server states change on their own; they are appended fresh each time.
  return `${cached.head.slice(0, -1)},"mcp":${JSON.stringify(service.mcp.states())}}`;
}

/** Bootstrap routes. */
export const bootstrapRoutes: Routes = {
  "/api/bootstrap": {
    GET: (_req, { service, version }) => respond(bootstrapBody(service, version)),
  },
};
