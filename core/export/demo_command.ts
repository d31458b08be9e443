/** How exported code starts Lass's built-in demo tool server: Lass's own CLI, `demo-server` over stdio. */
import process from "node:process";
import { fileURLToPath } from "node:url";
import type { CommandLine } from "./_plan.ts";

/**
 * The command line of Lass's `demo-server` subcommand, found from where this module runs: the
 * source tree (`deno run main.ts`), a bundle (`dist/lass.js`, one file) or a compiled binary.
 * The demo server needs no permissions, so it runs with none and never prompts.
 */
export function demoServerCommand(moduleUrl: string = import.meta.url): CommandLine {
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
