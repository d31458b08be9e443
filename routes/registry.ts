/** The MCP Registry: search it, list a server's versions, add a package or remote as a record. */
import { z } from "zod";
import { readBody, validateQuery } from "./body.ts";
import { json } from "./http.ts";
import type { Routes } from "./context.ts";

const ListQuery = z.object({
  search: z.string().max(200).optional(),
  cursor: z.string().max(1000).optional(),
  limit: z.string().regex(/^\d{1,3}$/, { message: "must be an integer from 1 to 100" })
    .transform(Number).refine((n) => n >= 1 && n <= 100, {
      message: "must be an integer from 1 to 100",
    }).optional(),
  version: z.string().min(1).max(255).optional().meta({
    description: "`latest` (the default: one entry per server), `all`, or an exact version",
  }),
});

const VersionsQuery = z.object({ name: z.string().min(1).max(200) });

const AddBody = z.strictObject({
  name: z.string().min(1).max(200).meta({ description: "The server's name in the registry" }),
  version: z.string().min(1).max(255).meta({
    description: "The server version (`latest` for the newest)",
  }),
  package: z.int().min(0).optional().meta({ description: "Index into the version's packages" }),
  remote: z.int().min(0).optional().meta({ description: "Index into the version's remotes" }),
  id: z.string().min(1).max(64).optional().meta({
    description: "The record's id; default the server's short name, made unique",
  }),
  inputs: z.record(z.string(), z.string()).optional().meta({
    description: "Values of non-secret inputs by key (`env.NAME`, `packageArguments.0`, " +
      "`headers.X-Region`, `url.tenant`); a secret is never taken",
  }),
  preview: z.boolean().optional().meta({ description: "Answer the record without saving it" }),
}).refine((body) => (body.package === undefined) !== (body.remote === undefined), {
  message: "name exactly one of package and remote",
  path: ["package"],
});

/** Registry routes. */
export const registryRoutes: Routes = {
  "/api/registry/servers": {
    GET: async (_req, { service, url }) => {
      const query = validateQuery(ListQuery, url);
      const version = query.version === "all" ? undefined : query.version ?? "latest";
      const client = await service.registry();
      return json(await client.list({ ...query, version }));
    },
  },
  "/api/registry/versions": {
    GET: async (_req, { service, url }) => {
      const { name } = validateQuery(VersionsQuery, url);
      return json(await (await service.registry()).versions(name));
    },
  },
  "/api/registry/add": {
    POST: async (req, { service }) => {
      const body = await readBody(req, AddBody);
      const { addFromRegistry } = await import("../core/mcp/registry/add.ts");
      const client = await service.registry();
      return json(await addFromRegistry(body, { client, config: service.config }));
    },
  },
};
