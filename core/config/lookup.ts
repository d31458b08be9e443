/** Where the config file and the data dir are: the lookup order of DESIGN.md section 2. */
import { join, resolve } from "node:path";

/** What the lookup reads: flags, environment, working dir and a file-exists probe. */
export interface LookupInput {
  configFlag?: string;
  dataDirFlag?: string;
  env: (name: string) => string | undefined;
  cwd: string;
  home: string;
  exists: (path: string) => boolean;
}

/**
 * The config file: `--config` > `LASS_CONFIG` > `./service.json` if it exists >
 * `$XDG_CONFIG_HOME/lass/service.json` (default `~/.config/lass/service.json`).
 */
export function findConfigPath(input: LookupInput): string {
  const explicit = input.configFlag || input.env("LASS_CONFIG");
  if (explicit) return resolve(input.cwd, explicit);
  const local = join(input.cwd, "service.json");
  if (input.exists(local)) return local;
  const configHome = input.env("XDG_CONFIG_HOME") || join(input.home, ".config");
  return join(configHome, "lass", "service.json");
}

/** The data dir: `--data-dir` > `LASS_DATA_DIR` > `$XDG_DATA_HOME/lass` (default `~/.local/share/lass`). */
export function findDataDir(input: LookupInput): string {
  const explicit = input.dataDirFlag || input.env("LASS_DATA_DIR");
  if (explicit) return resolve(input.cwd, explicit);
  const dataHome = input.env("XDG_DATA_HOME") || join(input.home, ".local", "share");
  return join(dataHome, "lass");
}
