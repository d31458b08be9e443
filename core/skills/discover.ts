/** Finds the skill folders under a path: a bounded walk that knows where clients keep skills. */
import { basename, dirname, join } from "node:path";
import { LassError } from "../errors.ts";
import type { FileSystem } from "../files.ts";
import { loadSkill } from "./load.ts";
import type { DiscoveredSkill } from "../../wire/skills.ts";

/** Folders that hold dependencies, build output or version control, never skills of their own. */
const SKIPPED = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
  "bower_components",
  "dist",
  "build",
  "target",
  "out",
  ".venv",
  "venv",
  "__pycache__",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".next",
  ".nuxt",
  ".turbo",
  ".cache",
  ".gradle",
  "coverage",
]);

/**
 * Where clients keep project skills, looked at first so that their skills take precedence over
 * same-named ones found elsewhere (the cross-client `.agents/skills` first).
 */
const CONVENTIONAL = [
  ".agents/skills",
  ".claude/skills",
  ".github/skills",
  ".cursor/skills",
  ".codex/skills",
  ".gemini/skills",
  ".goose/skills",
  "skills",
];

/** Bounds of {@link discoverSkills}. */
export interface DiscoverLimits {
  /** Deepest folder level below the start that is looked at; default 6. */
  maxDepth?: number;
  /** Most folders looked at; default 2000. */
  maxDirs?: number;
}

/** What a walk found; `truncated` says a bound stopped it early. */
export interface Discovery {
  skills: DiscoveredSkill[];
  truncated: boolean;
}

/** The SKILL.md (or skill.md) among a folder's entries, if any. */
function hasSkillFile(entries: { name: string; isDirectory: boolean }[]): boolean {
  return entries.some((e) => !e.isDirectory && (e.name === "SKILL.md" || e.name === "skill.md"));
}

/**
 * Walks `root` (absolute) for skill folders: a folder with a SKILL.md is one skill and is not
 * descended into (so `root` itself may be the one skill found). The conventional skill folders come first, then the rest breadth-first; build,
 * dependency and version-control folders are skipped, other dot-folders are not. A skill whose
 * name was already found is marked `shadowed`. Each skill is checked as strictly as a preview.
 * Throws 404 when `root` does not exist and 400 when it is a file other than SKILL.md.
 */
export async function discoverSkills(
  fs: FileSystem,
  root: string,
  limits: DiscoverLimits = {},
): Promise<Discovery> {
  const maxDepth = limits.maxDepth ?? 6;
  const maxDirs = limits.maxDirs ?? 2000;
  const info = await fs.stat(root);
  if (info === undefined) throw new LassError("not-found", `there is no folder at ${root}`);
  if (!info.isDirectory) {
    if (!/^skill\.md$/i.test(basename(root))) {
      throw new LassError("invalid-request", `${root} is a file; give a folder or a SKILL.md`, [
        { path: "path", message: "must be a folder or a SKILL.md file" },
      ]);
    }
    return { skills: await loadAll(fs, [dirname(root)]), truncated: false };
  }

  if (hasSkillFile(await fs.entries(root))) {
    return { skills: await loadAll(fs, [root]), truncated: false };
  }
  const found: string[] = [];
  const seen = new Set<string>();
  const queue = [
    ...CONVENTIONAL.map((sub) => ({ dir: join(root, sub), depth: sub.split("/").length })),
    { dir: root, depth: 0 },
  ];
  let truncated = false;
  for (let next = 0; next < queue.length; next++) {
    const { dir, depth } = queue[next];
    const real = await fs.realPath(dir).catch(() => undefined);
    if (real === undefined || seen.has(real)) continue;
    if (seen.size >= maxDirs) {
      truncated = true;
      break;
    }
    seen.add(real);
    const entries = await fs.entries(dir).catch(() => []);
    if (hasSkillFile(entries)) {
      found.push(dir);
      continue;
    }
    const subdirs = [];
    for (const entry of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (SKIPPED.has(entry.name)) continue;
      const isDir = entry.isDirectory ||
        (entry.isSymlink && (await fs.stat(join(dir, entry.name)).catch(() => undefined))
              ?.isDirectory === true);
      if (isDir) subdirs.push({ dir: join(dir, entry.name), depth: depth + 1 });
    }
    if (depth >= maxDepth) truncated ||= subdirs.length > 0;
    else queue.push(...subdirs);
  }
  return { skills: await loadAll(fs, found), truncated };
}

/** Loads the found skill folders (checked strictly) and marks later ones of a taken name. */
async function loadAll(fs: FileSystem, dirs: string[]): Promise<DiscoveredSkill[]> {
  const base = { baseDir: "/", home: "/" };
  const loaded = await Promise.all(
    dirs.map((dir) => loadSkill({ id: "discovered", path: dir }, { fs, base, strictName: true })),
  );
  const first = new Map<string, string>();
  return loaded.map((skill, index) => {
    const winner = first.get(skill.name);
    if (winner === undefined) first.set(skill.name, dirs[index]);
    return {
      name: skill.name,
      description: skill.description,
      path: dirs[index],
      errors: skill.errors,
      warnings: winner === undefined ? skill.warnings : [
        ...skill.warnings,
        `the skill "${skill.name}" at ${winner} takes precedence over this one`,
      ],
      ...(winner !== undefined && { shadowed: true as const }),
    };
  });
}
