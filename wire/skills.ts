/**
 * The shapes of a skill the server lists (`GET /api/bootstrap`), loads (`POST /api/skills/preview`)
 * or finds (`POST /api/skills/discover`), shared by the server and the settings page.
 */

/** What `GET /api/bootstrap` and the lists show of a configured skill. */
export interface SkillSummary {
  id: string;
  name: string;
  description: string;
  errors: string[];
}

/** One file bundled with a skill: a POSIX path relative to the skill folder, and its size. */
export interface SkillFile {
  path: string;
  size: number;
}

/**
 * A skill as `POST /api/skills/preview` loads it: the checked frontmatter fields (record overrides
 * applied), the raw frontmatter, the Markdown body and the bundled files (listed, never read).
 * A skill with `errors` cannot be used in chat; `warnings` do not stop it.
 */
export interface SkillPreview {
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
}

/** One skill a walk found. */
export interface DiscoveredSkill {
  name: string;
  description: string;
  /** The skill folder, absolute. */
  path: string;
  errors: string[];
  warnings: string[];
  /** Another skill of the same name was found before this one, and wins. */
  shadowed?: true;
}

/** The answer of `POST /api/skills/discover`; `truncated` when a bound stopped the walk. */
export interface SkillDiscovery {
  skills: DiscoveredSkill[];
  truncated?: true;
}
