/** `GET /api/bootstrap`: everything a client needs to draw the settings and chat on first load. */
import { PROVIDER_PRESETS } from "../core/llm/presets.ts";
import type { CatalogSummary } from "../wire/catalogs.ts";
import type { Service } from "../core/service.ts";
import type { Routes } from "./context.ts";
import { respond } from "./http.ts";

/** Per service: the serialised config part and tool-server states, rebuilt only when they change. */
interface Cached {
  revision: number;
  skillsRevision: number;
  catalogsRevision: number;
  head: string;
  /** The state records serialised in `body` (they are replaced, never changed, on every update). */
  states: readonly object[];
  body: string;
}

const cache = new WeakMap<Service, Cached>();

function bootstrapBody(service: Service, version: string, catalogs: CatalogSummary[]): string {
  let cached = cache.get(service);
  if (
    cached?.revision !== service.config.revision ||
    cached.skillsRevision !== service.skills.revision ||
    cached.catalogsRevision !== service.catalogs.revision
  ) {
    const head = JSON.stringify({
      version,
      config: service.config.stored,
      configEtag: service.config.etag,
      configPath: service.config.path,
      presets: PROVIDER_PRESETS,
      env: { detected: service.detectedEnv },
      skills: service.skills.summaries(),
      catalogs,
    });
    cached = {
      revision: service.config.revision,
      skillsRevision: service.skills.revision,
      catalogsRevision: service.catalogs.revision,
      head,
      states: [],
      body: "",
    };
    cache.set(service, cached);
  }
  const states = service.mcp.states();
  const same = cached.body !== "" && states.length === cached.states.length &&
    states.every((state, i) => state === cached!.states[i]);
  if (!same) {
    cached.states = states;
    cached.body = `${cached.head.slice(0, -1)},"mcp":${JSON.stringify(states)}}`;
  }
  return cached.body;
}

/** Bootstrap routes. */
export const bootstrapRoutes: Routes = {
  "/api/bootstrap": {
    GET: async (_req, ctx) => {
      const { service, version } = ctx;
      // Right after a config change the skills may still be loading: wait, so both agree.
      await service.skills.pending;
      // Catalogs load on first use (and again after their records change).
      const catalogs = await service.catalogs.summaries();
      const body = bootstrapBody(service, version, catalogs);
      const sandboxOrigin = ctx.sandboxOrigin;
      return respond(
        sandboxOrigin
          ? `${body.slice(0, -1)},"sandbox":${JSON.stringify({ origin: sandboxOrigin })}}`
          : body,
      );
    },
  },
};
