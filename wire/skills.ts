/**
 * `POST /api/skills/preview` and `POST /api/skills/discover`: the server's types, re-exported as
 * types only, so a browser bundle never contains server code.
 */
export type { DiscoveredSkill } from "../core/skills/discover.ts";
export type { SkillFile } from "../core/skills/skill.ts";
import type { DiscoveredSkill } from "../core/skills/discover.ts";
import type { LoadedSkill } from "../core/skills/skill.ts";

/** A skill as `POST /api/skills/preview` loads it: everything but its folder. */
export type SkillPreview = Omit<LoadedSkill, "root">;

/** The answer of `POST /api/skills/discover`; `truncated` when a bound stopped the walk. */
export interface SkillDiscovery {
  skills: DiscoveredSkill[];
  truncated?: true;
}
