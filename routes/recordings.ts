/** Recordings of a tool server: its cassette from the trace, and verify against a cassette. */
import { z } from "zod";
import { CassetteSchema } from "../wire/cassette.ts";
import { readBody, validateQuery } from "./body.ts";
import { json } from "./http.ts";
import type { Routes } from "./context.ts";

const CassetteQuery = z.object({
  since: z.string().regex(/^\d{1,15}$/, { message: "must be a non-negative integer" })
    .transform(Number).optional(),
  session: z.string().min(1).max(256).optional().meta({
    description: "A proxy session's id: its messages; without it, Lass's own session's",
  }),
  download: z.enum(["0", "1"]).optional(),
});

const VerifyBody = z.strictObject({
  cassette: CassetteSchema.meta({ description: "The cassette to verify the server against" }),
  ignore: z.array(
    z.string().regex(/^(\/.*)?$/, { message: "must be a JSON pointer (starting with /)" }),
  ).default([]).meta({
    description: "JSON pointers into an answer left out of the comparison; `*` matches any segment",
  }),
});

/** Recording routes. */
export const recordingRoutes: Routes = {
  "/api/mcp/:id/cassette": {
    GET: async (_req, { service, params, url }) => {
      const query = validateQuery(CassetteQuery, url);
      const { serverCassette } = await import("../core/mcp/recordings/of_server.ts");
      const cassette = serverCassette(service.mcp, params.id, query);
      const download = query.download === "1"
        ? { "content-disposition": `attachment; filename="${params.id}.cassette.json"` }
        : undefined;
      return json(cassette, { headers: download });
    },
  },
  "/api/mcp/:id/verify": {
    POST: async (req, { service, params }) => {
      const { cassette, ignore } = await readBody(req, VerifyBody);
      const { verifyCassette } = await import("../core/mcp/recordings/verify.ts");
      return json(await verifyCassette(service.mcp, params.id, cassette, { ignore }));
    },
  },
};
