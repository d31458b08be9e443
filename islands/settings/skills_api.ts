/** Typed calls of the skill routes: `POST /api/skills/preview` and `POST /api/skills/discover`. */
import { api } from "../state.ts";

/** A skill as `POST /api/skills/preview` loads it (see docs/skills.md). */
export interface SkillPreview {
  id: string;
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  allowedTools?: string;
  metadata?: Record<string, string>;
  frontmatter: Record<string, unknown>;
  body: string;
  files: { path: string; size: number }[];
  errors: string[];
  warnings: string[];
}

/** One skill found by `POST /api/skills/discover`. */
export interface DiscoveredSkill {
  name: string;
  description: string;
  /** The skill folder, absolute. */
  path: string;
  errors: string[];
  warnings: string[];
  /** A skill found earlier has the same name and wins. */
  shadowed?: boolean;
}

/** Loads a `skills[]` record (its id may be missing) without saving it. */
export function previewSkill(skill: Record<string, unknown>): Promise<SkillPreview> {
  return api().json<SkillPreview>("POST", "/api/skills/preview", { skill });
}

/** The skills under a folder (absolute, relative to the config file's folder, or under `~`). */
export function discoverSkills(
  path: string,
): Promise<{ skills: DiscoveredSkill[]; truncated?: boolean }> {
  return api().json("POST", "/api/skills/discover", { path });
}
