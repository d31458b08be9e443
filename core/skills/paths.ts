/** Where a path in the config points: `~` is the home folder, relative paths start at the config's folder. */
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { EnvLookup } from "../config/env_refs.ts";

/** The user's home folder: `HOME`, then `USERPROFILE`, then what the OS says. */
export function homeDir(env: EnvLookup): string {
  return env("HOME") || env("USERPROFILE") || homedir();
}

/** Where relative and `~` paths are resolved from. */
export interface PathBase {
  /** The folder relative paths start at (the config file's folder). */
  baseDir: string;
  home: string;
}

/** Resolves a configured path to an absolute, normalised one: `~` and `~/x` use the home folder. */
export function resolveUserPath(path: string, base: PathBase): string {
  if (path === "~") return base.home;
  if (path.startsWith("~/") || path.startsWith("~\\")) return join(base.home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(base.baseDir, path);
}
