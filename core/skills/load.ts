/** Loads one `skills[]` record: from a skill folder, a SKILL.md file, or inline content. */
import { basename, dirname, join } from "node:path";
import type { z } from "zod";
import type { SkillSchema } from "../../wire/config/skill_agent_catalog_schemas.ts";
import type { FileSystem } from "../files.ts";
import { type ListLimits, listSkillFiles } from "./bundled_files.ts";
import { parseFrontmatter, splitSkillFile } from "./frontmatter.ts";
import { type PathBase, resolveUserPath } from "./paths.ts";
import type { LoadedSkill } from "./skill.ts";
import { checkBody, checkFrontmatter } from "./validate.ts";

/** One `skills[]` record of the config. */
export type SkillRecord = z.output<typeof SkillSchema>;

/** The largest SKILL.md Lass reads: 1 MiB (the standard recommends well under 5000 tokens). */
const MAX_SKILL_MD_BYTES = 1024 * 1024;

/** How {@link loadSkill} reads and judges a skill. */
export interface LoadOptions {
  fs: FileSystem;
  /** Where relative and `~` paths start. */
  base: PathBase;
  /** A malformed `name` is an error (previews) rather than a warning (chat). */
  strictName: boolean;
  limits?: ListLimits;
}

/** The text of a SKILL.md and what is known about where it came from. */
export interface SkillText {
  id: string;
  text: string;
  /** The record's overrides. */
  name?: string;
  description?: string;
  /** The folder's name, which `name` should match; absent for inline content. */
  dirName?: string;
  strictName: boolean;
}

/** A skill that could not be read at all: the record's own name and description, and why. */
function unreadable(record: SkillRecord, error: string): LoadedSkill {
  const fallback = record.path ? basename(record.path.replace(/[\\/]SKILL\.md$/i, "")) : record.id;
  return {
    id: record.id,
    name: record.name?.trim() || fallback || record.id,
    description: record.description?.trim() ?? "",
    frontmatter: {},
    body: "",
    files: [],
    errors: [error],
    warnings: [],
  };
}

/**
 * Parses a SKILL.md text into a loaded skill without files: frontmatter (failsafe YAML, with
 * the colon retry), overrides, and the checks of the standard.
 */
export function parseSkillText(input: SkillText): LoadedSkill {
  const base = {
    id: input.id,
    name: input.name?.trim() || input.dirName || input.id,
    description: input.description?.trim() ?? "",
    frontmatter: {},
    body: "",
    files: [],
    warnings: [],
  };
  const split = splitSkillFile(input.text);
  if (!split.ok) return { ...base, errors: [split.error] };
  const parsed = parseFrontmatter(split.yaml);
  if (!parsed.ok) return { ...base, body: split.body, errors: [parsed.error] };
  const checked = checkFrontmatter(parsed.data, {
    dirName: input.dirName,
    name: input.name,
    description: input.description,
    strictName: input.strictName,
  });
  return {
    id: input.id,
    ...checked,
    // A nameless skill is still listed under its folder name or id, next to its error.
    name: checked.name || base.name,
    frontmatter: parsed.data,
    body: split.body,
    files: [],
    warnings: [...parsed.warnings, ...checked.warnings],
  };
}

/** Finds the SKILL.md of a folder (`skill.md` is accepted too), with a warning for the latter. */
async function skillFileIn(fs: FileSystem, dir: string) {
  const names = new Set((await fs.entries(dir)).filter((e) => !e.isDirectory).map((e) => e.name));
  if (names.has("SKILL.md")) return { path: join(dir, "SKILL.md"), warnings: [] };
  if (names.has("skill.md")) {
    return { path: join(dir, "skill.md"), warnings: ["the file is named skill.md; use SKILL.md"] };
  }
  return undefined;
}

/**
 * Loads a `skills[]` record. Never throws: a missing folder, an unreadable file or bad
 * frontmatter give a skill whose `errors` say why. Bundled files are listed, not read.
 */
export async function loadSkill(record: SkillRecord, options: LoadOptions): Promise<LoadedSkill> {
  const strictName = options.strictName;
  const overrides = { id: record.id, name: record.name, description: record.description };
  if (record.path === undefined) {
    const skill = parseSkillText({ ...overrides, text: record.content ?? "", strictName });
    return { ...skill, warnings: [...skill.warnings, ...checkBody(skill.body, [])] };
  }
  const { fs } = options;
  const at = resolveUserPath(record.path, options.base);
  try {
    const info = await fs.stat(at);
    if (info === undefined) return unreadable(record, `there is no skill folder or file at ${at}`);
    let dir = at;
    let file = { path: at, warnings: [] as string[] };
    if (info.isDirectory) {
      const found = await skillFileIn(fs, at);
      if (!found) return unreadable(record, `the folder ${at} has no SKILL.md`);
      file = found;
    } else {
      if (!/^skill\.md$/i.test(basename(at))) {
        return unreadable(record, `${at} is not a SKILL.md file or a skill folder`);
      }
      dir = dirname(at);
    }
    const size = (await fs.stat(file.path))?.size ?? 0;
    if (size > MAX_SKILL_MD_BYTES) {
      return unreadable(record, `${file.path} is larger than ${MAX_SKILL_MD_BYTES} bytes`);
    }
    const text = await fs.readText(file.path);
    if (text === undefined) return unreadable(record, `${file.path} disappeared while loading`);
    const skill = parseSkillText({ ...overrides, text, dirName: basename(dir), strictName });
    const root = await fs.realPath(dir);
    const listed = await listSkillFiles(fs, root, options.limits);
    const warnings = [...file.warnings, ...skill.warnings];
    if (listed.truncated) {
      warnings.push(
        `the list of bundled files is cut (${listed.files.length} files shown, folders nested ` +
          "too deep left out); the files past it can still be read by path",
      );
    }
    const known = listed.truncated ? undefined : ["SKILL.md", ...listed.files.map((f) => f.path)];
    warnings.push(...checkBody(skill.body, known));
    return { ...skill, files: listed.files, warnings, root };
  } catch (error) {
    return unreadable(record, `the skill at ${at} cannot be read: ${(error as Error).message}`);
  }
}
