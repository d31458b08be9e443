/** Skill test helpers: the fixture folder, temp copies of it, and SKILL.md texts. */
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeFileSystem } from "../core/files_node.ts";
import type { LoadOptions } from "../core/skills/load.ts";

/** The committed skill fixtures. */
export const SKILL_FIXTURES = fileURLToPath(new URL("./fixtures/skills", import.meta.url));

/** A SKILL.md with this name and description. */
export function skillMd(name: string, description: string, body = `Instructions of ${name}.`) {
  return `---\nname: ${name}\ndescription: ${description}\n---\n\n${body}\n`;
}

/** Writes a file, creating its folders. */
export async function put(path: string, text: string | Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/** Runs `test` with a fresh temp dir, removed afterwards. */
export async function withTempDir(test: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "lass-skills-"));
  try {
    await test(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Copies a fixture (a path under tests/fixtures/skills) into `dir`, returning the copy's path. */
export async function copyFixture(name: string, dir: string): Promise<string> {
  const to = join(dir, name);
  await cp(join(SKILL_FIXTURES, name), to, { recursive: true });
  return to;
}

/** Load options on node:fs, relative paths from `baseDir`. */
export function loadOptions(baseDir: string, strictName: boolean, home = baseDir): LoadOptions {
  return { fs: nodeFileSystem, base: { baseDir, home }, strictName };
}
