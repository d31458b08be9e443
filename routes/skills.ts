/** Agent Skills: preview one skill record, and discover the skill folders under a path. */
import { basename } from "node:path";
import { z } from "zod";
import { SkillSchema } from "../wire/config/skill_agent_catalog_schemas.ts";
import { detailsFromIssues, LassError } from "../core/errors.ts";
import type { SkillRecord } from "../core/skills/load.ts";
import { previewOf } from "../core/skills/skill.ts";
import { readBody } from "./body.ts";
import type { Routes } from "./context.ts";
import { json } from "./http.ts";

const PreviewBody = z.strictObject({
  skill: z.union([
    z.string().min(1).meta({ description: "A skill folder or SKILL.md" }),
    z.record(z.string(), z.unknown()).meta({ description: "A skills[] record; id optional" }),
  ]),
});
const DiscoverBody = z.strictObject({ path: z.string().min(1) });

/** The draft id of a record previewed before it has one. */
const DRAFT_ID = "draft";

/** A preview's skill as a checked record: a bare path, or a record whose id may still be missing. */
function recordOf(skill: string | Record<string, unknown>): SkillRecord {
  if (typeof skill === "string") {
    const name = basename(skill.replace(/[\\/]+(SKILL\.md)?$/i, ""));
    const id = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name) ? name : DRAFT_ID;
    return { id, path: skill };
  }
  const parsed = SkillSchema.safeParse({ id: DRAFT_ID, ...skill });
  if (parsed.success) return parsed.data;
  const details = detailsFromIssues(parsed.error.issues, "skill");
  throw new LassError(
    "invalid-request",
    `the skill record is invalid: ${details[0].path}: ${details[0].message}`,
    details,
  );
}

/** Skill routes. */
export const skillRoutes: Routes = {
  "/api/skills/preview": {
    POST: async (req, { service }) => {
      const { skill } = await readBody(req, PreviewBody);
      return json(previewOf(await service.skills.preview(recordOf(skill))));
    },
  },
  "/api/skills/discover": {
    POST: async (req, { service }) => {
      const { path } = await readBody(req, DiscoverBody);
      const found = await service.skills.discover(path);
      return json({ skills: found.skills, ...(found.truncated && { truncated: true }) });
    },
  },
};
