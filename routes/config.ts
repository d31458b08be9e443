/** The config: `GET|PUT /api/config`, `GET /api/config/export` and `GET /api/schema`. */
import { z } from "zod";
import { redactConfig } from "../core/config/redact.ts";
import { CONFIG_JSON_SCHEMA_TEXT } from "../core/config/json_schema.ts";
import { readJson, validateQuery } from "./body.ts";
import { json, respond } from "./http.ts";
import type { Routes } from "./context.ts";

const ExportQuery = z.object({
  redact: z.enum(["1", "true", "0", "false", ""]).optional(),
});

/**
 * The precondition of an `If-Match` header, or `undefined` without one: `*`, or a list of entity
 * tags of which one must be the current one. Strong comparison, so a weak tag (`W/"…"`) never
 * matches.
 */
export function ifMatchCondition(header: string | null): ((etag: string) => boolean) | undefined {
  if (header === null) return undefined;
  const tags = header.split(",").map((tag) => tag.trim()).filter((tag) => tag !== "");
  if (tags.includes("*")) return () => true;
  return (etag) => tags.includes(etag);
}

/** The entity tag of the redacted export: a representation of its own, never one to write over. */
function redactedEtag(etag: string): string {
  return `${etag.slice(0, -1)}-redacted"`;
}

/** Config routes. */
export const configRoutes: Routes = {
  "/api/config": {
    GET: (_req, { service }) => {
      const { text, etag } = service.config;
      return respond(text, { headers: { etag } });
    },
    PUT: async (req, { service }) => {
      const ifMatch = ifMatchCondition(req.headers.get("if-match"));
      const written = await service.config.replace(await readJson(req), { ifMatch });
      return json({ ok: true, config: written.stored }, { headers: { etag: written.etag } });
    },
  },
  "/api/config/export": {
    GET: (_req, { service, url }) => {
      const { redact } = validateQuery(ExportQuery, url);
      const { stored, text, etag } = service.config;
      if (redact === "1" || redact === "true") {
        return json(redactConfig(stored), { headers: { etag: redactedEtag(etag) } });
      }
      return respond(text, { headers: { etag } });
    },
  },
  "/api/schema": {
    GET: () => respond(CONFIG_JSON_SCHEMA_TEXT, { type: "application/schema+json; charset=utf-8" }),
  },
};
