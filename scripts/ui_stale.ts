/**
 * Whether the web UI's build is stale: `build/ui/` missing or older than any of its sources.
 * Apart from the builder (`build_ui.ts`), so that `lass serve`'s check once it listens loads no
 * `node:` module and no bundler code when the build is fresh.
 */
import { mtimeOf, newestIn } from "./_build_files.ts";

/** The checkout's root folder. */
export const ROOT = new URL("../", import.meta.url);
/** The build folder the server serves `/assets/` from (see `routes/assets.ts`). */
export const UI_OUT = new URL("build/ui/", ROOT);
const SOURCE_DIRS = ["islands/", "wire/", "static/"];
const SOURCE_FILES = ["deno.json", "scripts/build_ui.ts", "scripts/ui_stale.ts"];

/** Whether `build/ui/` is missing or older than any of its sources. */
export async function uiIsStale(): Promise<boolean> {
  const built = await mtimeOf(new URL("manifest.json", UI_OUT));
  if (built === 0) return true;
  const sources = await Promise.all([
    ...SOURCE_DIRS.map((dir) => newestIn(new URL(dir, ROOT))),
    ...SOURCE_FILES.map((file) => mtimeOf(new URL(file, ROOT))),
  ]);
  return Math.max(...sources) > built;
}
