/** Typed calls of the skill routes: `POST /api/skills/preview` and `POST /api/skills/discover`. */
import type { SkillDiscovery, SkillPreview } from "../../wire/skills.ts";
import { api } from "../state.ts";
import { type RecordDraft, withoutId } from "./form.tsx";

/** Loads a `skills[]` record (saved or a draft) without saving it. */
export function previewSkill(skill: RecordDraft): Promise<SkillPreview> {
  return api().json<SkillPreview>("POST", "/api/skills/preview", { skill: withoutId(skill) });
}

/** The skills under a folder (absolute, relative to the config file's folder, or under `~`). */
export function discoverSkills(path: string): Promise<SkillDiscovery> {
  return api().json<SkillDiscovery>("POST", "/api/skills/discover", { path });
}
