/** UI component catalogs: `GET /api/catalogs` and `POST /api/catalogs/preview`. */
import { z } from "zod";
import { CatalogSchema } from "../wire/config/skill_agent_catalog_schemas.ts";
import { detailsFromIssues, LassError } from "../core/errors.ts";
import { viewOf } from "../core/genui/catalog.ts";
import type { CatalogRecord } from "../core/genui/load.ts";
import { readBody, validateQuery } from "./body.ts";
import type { Routes } from "./context.ts";
import { json } from "./http.ts";

const ListQuery = z.object({
  reload: z.enum(["0", "1", "true", "false"]).optional().meta({
    description: "Load every catalog again (after a catalog file or URL changed)",
  }),
});
const PreviewBody = z.strictObject({
  catalog: z.record(z.string(), z.unknown()).meta({
    description: "A catalogs[] record; id optional",
  }),
});

/** The id of a previewed record that has none yet. */
const DRAFT_ID = "draft";

/** A previewed record, checked like one of the config (its id may be missing). */
function recordOf(catalog: Record<string, unknown>): CatalogRecord {
  const parsed = CatalogSchema.safeParse({ id: DRAFT_ID, ...catalog });
  if (parsed.success) return parsed.data;
  const details = detailsFromIssues(parsed.error.issues, "catalog");
  throw new LassError(
    "invalid-request",
    `the catalog record is invalid: ${details[0].path}: ${details[0].message}`,
    details,
  );
}

/** Catalog routes. */
export const catalogRoutes: Routes = {
  "/api/catalogs": {
    GET: async (_req, { service, url }) => {
      const { reload } = validateQuery(ListQuery, url);
      const fresh = reload === "1" || reload === "true";
      const catalogs = await (fresh ? service.catalogs.reload() : service.catalogs.list());
      return json({ catalogs: catalogs.map(viewOf) });
    },
  },
  "/api/catalogs/preview": {
    POST: async (req, { service }) => {
      const { catalog } = await readBody(req, PreviewBody);
      return json(viewOf(await service.catalogs.preview(recordOf(catalog))));
    },
  },
};
