/** The files bundled in a skill folder: listed without reading them, and read one at a time, safely. */
import { isAbsolute, join, posix, sep, win32 } from "node:path";
import type { FileSystem } from "../files.ts";
import type { SkillFile } from "../../wire/skills.ts";

/** Folders that never hold skill resources. */
const SKIPPED = new Set([".git", "node_modules"]);

/** Limits of {@link listSkillFiles}. */
export interface ListLimits {
  /** Most files listed; default 200. */
  maxFiles?: number;
  /** Deepest folder level below the skill folder that is listed; default 4. */
  maxDepth?: number;
}

/** Whether `path` is `root` itself or inside it (both absolute, links resolved). */
function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/**
 * Lists the files in a skill folder (not SKILL.md) as sorted POSIX paths relative to it, with
 * their sizes; contents are not read. Skips `.git` and `node_modules`, and links that lead out of
 * the folder. `truncated` says a limit was reached.
 */
export async function listSkillFiles(
  fs: FileSystem,
  root: string,
  limits: ListLimits = {},
): Promise<{ files: SkillFile[]; truncated: boolean }> {
  const maxFiles = limits.maxFiles ?? 200;
  const maxDepth = limits.maxDepth ?? 4;
  const realRoot = await fs.realPath(root);
  const files: SkillFile[] = [];
  let truncated = false;

  async function walk(dir: string, prefix: string, depth: number): Promise<void> {
    const entries = (await fs.entries(dir)).sort((a, b) => a.name < b.name ? -1 : 1);
    for (const entry of entries) {
      if (files.length >= maxFiles) {
        truncated = true;
        return;
      }
      const path = join(dir, entry.name);
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      let isDirectory = entry.isDirectory;
      let isFile = entry.isFile;
      if (entry.isSymlink) {
        const target = await fs.realPath(path).catch(() => undefined);
        if (target === undefined || !isInside(target, realRoot)) continue;
        const info = await fs.stat(target);
        isDirectory = info?.isDirectory ?? false;
        isFile = info !== undefined && !info.isDirectory;
      }
      if (isDirectory) {
        if (SKIPPED.has(entry.name)) continue;
        if (depth >= maxDepth) truncated = true;
        else await walk(path, relative, depth + 1);
      } else if (isFile && !(prefix === "" && /^skill\.md$/i.test(entry.name))) {
        files.push({ path: relative, size: (await fs.stat(path))?.size ?? 0 });
      }
    }
  }

  await walk(realRoot, "", 0);
  return { files, truncated };
}

/** One bundled file as read for the model, or why it cannot be read. */
export type SkillFileRead =
  | { ok: true; path: string; size: number; text: string; truncated: boolean; binary: boolean }
  | { ok: false; error: string };

/** Options of {@link readSkillFile}. */
export interface ReadOptions {
  /** Most bytes read; default 256 KiB. */
  maxBytes?: number;
}

/** Bytes of a file examined for a NUL, which marks it as binary. */
const BINARY_SNIFF = 8000;

/**
 * Reads one file of a skill folder, given its path relative to the folder. Refuses absolute
 * paths, `..` that leaves the folder, and links that lead out of it. Reads at most `maxBytes`
 * (default 256 KiB); a binary file is reported, not decoded.
 */
export async function readSkillFile(
  fs: FileSystem,
  root: string,
  path: string,
  options: ReadOptions = {},
): Promise<SkillFileRead> {
  const maxBytes = options.maxBytes ?? 256 * 1024;
  if (path.trim() === "") return { ok: false, error: "the path is empty" };
  if (isAbsolute(path) || posix.isAbsolute(path) || win32.isAbsolute(path)) {
    return { ok: false, error: `${path} is absolute; give a path relative to the skill folder` };
  }
  const relative = posix.normalize(path.replaceAll("\\", "/"));
  if (relative === ".." || relative.startsWith("../")) {
    return { ok: false, error: `${path} leads out of the skill folder` };
  }
  const realRoot = await fs.realPath(root).catch(() => undefined);
  if (realRoot === undefined) return { ok: false, error: "the skill folder no longer exists" };
  const target = await fs.realPath(join(realRoot, relative)).catch(() => undefined);
  if (target === undefined) return { ok: false, error: `the skill has no file ${relative}` };
  if (!isInside(target, realRoot)) {
    return { ok: false, error: `${path} is a link that leads out of the skill folder` };
  }
  const info = await fs.stat(target);
  if (info === undefined) return { ok: false, error: `the skill has no file ${relative}` };
  if (info.isDirectory) return { ok: false, error: `${relative} is a folder, not a file` };
  const bytes = await fs.readBytes(target, maxBytes);
  if (bytes === undefined) return { ok: false, error: `the skill has no file ${relative}` };
  const size = Math.max(info.size, bytes.length);
  const binary = bytes.subarray(0, BINARY_SNIFF).includes(0);
  // `stream: true` drops a character cut in half at the limit instead of showing U+FFFD.
  const text = binary ? "" : new TextDecoder().decode(bytes, { stream: size > bytes.length });
  return { ok: true, path: relative, size, text, truncated: size > bytes.length, binary };
}
