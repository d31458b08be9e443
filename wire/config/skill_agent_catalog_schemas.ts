/**
 * The `skills[]`, `agents[]` and `catalogs[]` records of `service.json`: what a workspace enables
 * besides tool servers.
 */
import { z } from "zod";
import { HttpUrl, Id, Name, StringMap } from "./_record_fields.ts";

/** One `skills[]` record: an Agent Skill from a folder, a SKILL.md path or inline content. */
export const SkillSchema = z.strictObject({
  id: Id,
  path: z.string().min(1).optional().meta({
    description: "Skill folder or SKILL.md, relative to the config file; `~` is expanded",
  }),
  content: z.string().optional().meta({ description: "Inline SKILL.md, used instead of path" }),
  name: z.string().optional().meta({ description: "Overrides the name in the frontmatter" }),
  description: z.string().optional().meta({
    description: "Overrides the description in the frontmatter",
  }),
}).refine((skill) => (skill.path === undefined) !== (skill.content === undefined), {
  message: "needs exactly one of path or content",
  path: ["path"],
});

/** One `agents[]` record: a remote agent. */
export const AgentSchema = z.strictObject({
  id: Id.meta({ description: "Unique id, referenced by workspaces[].agentId" }),
  name: Name,
  protocol: z.enum(["a2a", "ag-ui"]),
  url: HttpUrl.meta({ description: "a2a: agent card or endpoint; ag-ui: run endpoint" }),
  headers: StringMap.optional(),
  shareTools: z.boolean().optional().meta({
    description: "ag-ui: offer the workspace's MCP tools as frontend tools",
  }),
});

/** The id under which the standard A2UI catalog is listed; configured catalogs cannot take it. */
export const STANDARD_CATALOG_ID = "standard";

/** One `catalogs[]` record: a generative-UI component catalog. */
export const CatalogSchema = z.strictObject({
  id: Id.refine((id) => id !== STANDARD_CATALOG_ID, {
    message: `"${STANDARD_CATALOG_ID}" is the standard catalog's id; choose another`,
  }).meta({ description: "Unique id, referenced by workspaces[].generativeUi.catalogIds" }),
  name: z.string().optional().meta({ description: "Display name override" }),
  path: z.string().min(1).optional().meta({
    description: "Catalog JSON file, relative to the config file",
  }),
  url: HttpUrl.optional().meta({ description: "Catalog JSON over http or https" }),
  catalog: z.record(z.string(), z.unknown()).optional().meta({ description: "Inline catalog" }),
}).refine(
  (catalog) =>
    [catalog.path, catalog.url, catalog.catalog].filter((v) => v !== undefined).length === 1,
  { message: "needs exactly one of path, url or catalog", path: ["path"] },
);
