/** The config: `PUT /api/config`, `GET /api/config/export` and `GET /api/schema`. */
import { z } from "zod";
import { redactConfig } from "../core/config/redact.ts";
import { CONFIG_JSON_SCHEMA_TEXT } from "../core/config/json_schema.ts";
import { readJson, validate } from "./body.ts";
import { json, respond } from "./http.ts";
import type { Routes } from "./context.ts";

const ExportQuery = z.object({
  redact: z.enum(["1", "true", "0", "false", ""]).optional(),
});

/** Config routes. */
export const configRoutes: Routes = {
  "/api/config": {
    PUT: async (req, { service }) => {
      const config = await service.config.replace(await readJson(req));
      return json({ ok: true, config });
    },
  },
  "/api/config/export": {
    GET: (_req, { service, url }) => {
      const { redact } = validate(ExportQuery, Object.fromEntries(url.searchParams));
      if (redact === "1" || redact === "true") return json(redactConfig(service.config.stored));
      return respond(service.config.text);
    },
  },
  "/api/schema": {
    GET: () => respond(CONFIG_JSON_SCHEMA_TEXT, { type: "application/schema+json; charset=utf-8" }),
  },
};
