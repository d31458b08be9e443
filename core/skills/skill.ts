/** The shape of a loaded Agent Skill, shared by the loader, the registry, the routes and chat. */

/** One file bundled with a skill: a POSIX path relative to the skill folder, and its size. */
export interface SkillFile {
  path: string;
  size: number;
}

/**
 * An Agent Skill as Lass loaded it: the checked frontmatter fields (record overrides applied),
 * the raw frontmatter, the Markdown body and the bundled files (listed, never read).
 * A skill with `errors` cannot be used in chat; `warnings` do not stop it.
 */
export interface LoadedSkill {
  /** The `skills[]` record's id (or the draft id of a preview). */
  id: string;
  name: string;
  description: string;
  license?: string;
  compatibility?: string;
  /** `allowed-tools` as written: a space-separated list. Lass shows it and does not enforce it. */
  allowedTools?: string;
  metadata?: Record<string, string>;
  /** The frontmatter as parsed (every scalar a string), before overrides. */
  frontmatter: Record<string, unknown>;
  /** The Markdown after the closing `---`, trimmed. */
  body: string;
  /** Bundled files other than SKILL.md, capped; empty for inline content. */
  files: SkillFile[];
  errors: string[];
  warnings: string[];
  /** The skill folder (absolute, links resolved); absent for inline content. */
  root?: string;
}

/** What bootstrap and lists show of a skill. */
export interface SkillSummary {
  id: string;
  name: string;
  description: string;
  errors: string[];
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
export function previewOf(skill: LoadedSkill): Omit<LoadedSkill, "root"> {
  const { root: _root, ...shown } = skill;
  return shown;
}
