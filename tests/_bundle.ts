/**
 * Helpers of the bundle tests: `dist/lass.js` and `dist/mod.js` built once (when stale), a file
 * copied alone into an empty folder, and the doc recipes that run there (processes: _process.ts).
 */
import { copyFile, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { buildBundles } from "../scripts/build_bundle.ts";
import { START_PERMISSIONS, START_RUN } from "../scripts/permissions.ts";

export { START_PERMISSIONS, START_RUN };

/** `dist/lass.js` and `dist/mod.js`, built by `deno task build`'s script when a source is newer. */
export async function builtBundles(): Promise<{ lassJs: string; modJs: string }> {
  const { files } = await buildBundles({ ifStale: true });
  const [lassJs, modJs] = files;
  return { lassJs, modJs };
}

/** A new empty temp folder holding only a copy of `file`; the copy's path. */
export async function copyAlone(
  file: string,
  prefix: string,
): Promise<{ dir: string; copy: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const copy = join(dir, basename(file));
  await copyFile(file, copy);
  return { dir, copy };
}

/**
 * The program of a fenced code block in a doc page whose first line is `// <name>: ...` (the
 * mounting recipes of docs/mounting.md), so that the tests run what the docs show.
 */
export async function recipeFrom(doc: URL, name: string): Promise<string> {
  const text = await readFile(doc, "utf8");
  for (const [, code] of text.matchAll(/```js\n([\s\S]*?)```/g)) {
    if (code.startsWith(`// ${name}:`)) return code;
  }
  throw new Error(`${doc.pathname} has no code block starting with // ${name}:`);
}
