/** The shape of a loaded Agent Skill, shared by the loader, the registry, the routes and chat. */
import type { SkillPreview, SkillSummary } from "../../wire/skills.ts";

/**
 * An Agent Skill as Lass loaded it: what the preview shows, and the folder it was read from.
 * A skill with `errors` cannot be used in chat; `warnings` do not stop it.
 */
export interface LoadedSkill extends SkillPreview {
  /** The skill folder (absolute, links resolved); absent for inline content. */
  root?: string;
}

/** The summary of a loaded skill. */
export function summaryOf(skill: LoadedSkill): SkillSummary {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    errors: skill.errors,
  };
}

/** A loaded skill as the preview endpoint returns it: everything but the folder. */
export function previewOf(skill: LoadedSkill): SkillPreview {
  const { root: _root, ...shown } = skill;
  return shown;
}
