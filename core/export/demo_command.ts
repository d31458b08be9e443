/** How exported code starts Lass's built-in demo tool server: Lass's own CLI, `demo-server` over stdio. */
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { CommandLine } from "./_plan.ts";

/** A bundle (`dist/lass.js`) as its unpacked entry learns of it from the loader. */
export interface BundleInfo {
  /** The bundle's own file. */
  url: string;
  /** The permission flags a `deno run` of the bundle needs to find or unpack its modules. */
  permissions: string[];
}

/** The `dist/lass.js` this process runs from, its modules unpacked from a cache folder. */
let unpackedBundle: BundleInfo | undefined;

/** Tells the demo command that this process runs from `bundle` (called by its entry). */
export function useUnpackedBundle(bundle: BundleInfo): void {
  unpackedBundle = bundle;
}

/**
 * The command line of Lass's `demo-server` subcommand, found from where this module runs: the
 * source tree (`deno run main.ts`), a one-file bundle (`dist/mod.js`), `dist/lass.js` (whose
 * modules are unpacked elsewhere) or a compiled binary. The demo server needs no permissions, so
 * it runs with none (but those `dist/lass.js` needs to find its modules) and never prompts.
 */
export function demoServerCommand(
  moduleUrl: string = import.meta.url,
  bundle: BundleInfo | undefined = unpackedBundle,
): CommandLine {
  if (bundle) {
    const entry = bundle.url.startsWith("file:") ? fileURLToPath(bundle.url) : bundle.url;
    return {
      command: "deno",
      args: ["run", "--quiet", "--no-prompt", ...bundle.permissions, entry, "demo-server"],
    };
  }
  const url = new URL(moduleUrl);
  if (url.pathname.includes("/deno-compile-")) {
    return { command: process.execPath, args: ["demo-server"] };
  }
  const main = /\/core\/export\/[^/]+\.ts$/.test(url.pathname)
    ? new URL("../../main.ts", url)
    : url;
  const entry = main.protocol === "file:" ? fileURLToPath(main) : main.href;
  return { command: "deno", args: ["run", "--quiet", "--no-prompt", entry, "demo-server"] };
}
