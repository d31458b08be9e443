/**
 * Builds the web UI (`deno task build:ui`): the Preact islands bundled by `deno bundle` for the
 * browser (minified, code-split) plus the files of `static/`, into `build/ui/` with a
 * `manifest.json` that the server reads (entry, styles, preloads, sizes, hashes).
 *
 * `--if-stale` (and `buildUi({ ifStale: true })`, which `lass serve` runs once it listens) builds
 * only when a source (islands/, wire/, static/, deno.json, this script) is newer than the
 * manifest, prints nothing when it succeeds, and a failure then only warns (on stderr).
 * Concurrent builds (parallel tests) take turns through a lock file.
 */
import { copyFile, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { runDeno, withLock } from "./_build_files.ts";
import { ROOT, UI_OUT, uiIsStale } from "./ui_stale.ts";

const LOCK = new URL("build/.ui-build.lock", ROOT);
/** Entry modules of the bundle; later pages are loaded from them with `import()`. */
const ENTRIES = ["islands/app.tsx"];

/** What {@link buildUi} did. */
export interface BuildResult {
  built: boolean;
  ms: number;
  manifest: Manifest;
}

interface Manifest {
  version: 1;
  builtAt: string;
  entry: string;
  styles: string[];
  preload: string[];
  files: Record<string, { bytes: number; gzipBytes: number; hash: string }>;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function gzipSize(bytes: Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

/** The modules a module imports statically (`import ... from "./x.js"`, `import "./x.js"`). */
function staticImports(code: string): string[] {
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["']\.\/([\w.-]+\.js)["']/g)].map((m) => m[1]);
}

async function bundle(outdir: URL): Promise<void> {
  await runDeno([
    "bundle",
    "--quiet",
    "--platform",
    "browser",
    "--minify",
    "--code-splitting",
    "--outdir",
    fileURLToPath(outdir),
    ...ENTRIES,
  ], fileURLToPath(ROOT));
}

async function build(): Promise<Manifest> {
  const stamp = `${Deno.pid}-${Date.now()}`;
  const tmp = new URL(`build/ui.tmp-${stamp}/`, ROOT);
  await rm(tmp, { recursive: true, force: true });
  try {
    await bundle(tmp);
    const staticDir = new URL("static/", ROOT);
    const sheets: string[] = [];
    for (const name of (await readdir(staticDir).catch(() => [])).sort()) {
      if (name.endsWith(".css")) sheets.push(name);
      else await copyFile(new URL(name, staticDir), new URL(name, tmp));
    }
    // One style sheet: app.css (the variables and the shell) first, then each page's sheet.
    sheets.sort((a, b) => Number(b === "app.css") - Number(a === "app.css"));
    const css = await Promise.all(
      sheets.map(async (name) =>
        `/* ${name} */\n${await readFile(new URL(name, staticDir), "utf8")}`
      ),
    );
    if (css.length > 0) await writeFile(new URL("app.css", tmp), css.join("\n"));
    const names = (await readdir(tmp)).sort();
    const files: Manifest["files"] = {};
    const code = new Map<string, string>();
    for (const name of names) {
      const bytes = new Uint8Array(await readFile(new URL(name, tmp)));
      if (name.endsWith(".js")) code.set(name, new TextDecoder().decode(bytes));
      files[name] = {
        bytes: bytes.byteLength,
        gzipBytes: await gzipSize(bytes),
        hash: (await sha256Hex(bytes)).slice(0, 16),
      };
    }
    const entry = ENTRIES[0].replace(/^.*\//, "").replace(/\.tsx?$/, ".js");
    const preload = new Set<string>();
    const walk = (name: string) => {
      for (const imported of staticImports(code.get(name) ?? "")) {
        if (!preload.has(imported) && code.has(imported)) {
          preload.add(imported);
          walk(imported);
        }
      }
    };
    walk(entry);
    const manifest: Manifest = {
      version: 1,
      builtAt: new Date().toISOString(),
      entry,
      styles: names.filter((name) => name.endsWith(".css")),
      preload: [...preload],
      files,
    };
    await writeFile(new URL("manifest.json", tmp), JSON.stringify(manifest, null, 2) + "\n");
    // Swap the folders: readers see the old build or the new one, each with its own manifest.
    const old = new URL(`build/ui.old-${stamp}/`, ROOT);
    await rename(UI_OUT, old).catch(() => {});
    await rename(tmp, UI_OUT);
    await rm(old, { recursive: true, force: true });
    return manifest;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Builds the UI (with `ifStale`, only when it is missing or out of date). */
export async function buildUi(options: { ifStale?: boolean } = {}): Promise<BuildResult> {
  const started = performance.now();
  const fresh = async () => {
    const manifest = JSON.parse(await readFile(new URL("manifest.json", UI_OUT), "utf8"));
    return { built: false, ms: Math.round(performance.now() - started), manifest };
  };
  if (options.ifStale && !await uiIsStale()) return await fresh();
  return await withLock(LOCK, async () => {
    // Another build may have finished while this one waited for the lock.
    if (options.ifStale && !await uiIsStale()) return await fresh();
    const manifest = await build();
    return { built: true, ms: Math.round(performance.now() - started), manifest };
  });
}

/** One line per file: size and gzipped size. */
export function describe(manifest: Manifest): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return Object.entries(manifest.files).map(([name, file]) =>
    `  ${name.padEnd(28)} ${kb(file.bytes).padStart(9)} ${kb(file.gzipBytes).padStart(9)} gzip`
  ).join("\n");
}

if (import.meta.main) {
  const ifStale = Deno.args.includes("--if-stale");
  try {
    const result = await buildUi({ ifStale });
    // `--if-stale` is the quiet check: a caller's stdout stays its own.
    if (result.built && !ifStale) {
      console.log(`web UI built in ${result.ms} ms into build/ui/:\n${describe(result.manifest)}`);
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (!ifStale) {
      console.error(`lass: could not build the web UI: ${message}`);
      Deno.exit(1);
    }
    // Starting Lass must not depend on the UI: warn, and let the pages say how to build it.
    console.error(`lass: could not build the web UI (the API works without it): ${message}`);
  }
}
