/** Flags that every subcommand shares (`--config`, `--data-dir`) and opening Lass in process. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { LassError } from "../core/errors.ts";
import type { Lass, LassOptions } from "../lass.ts";
import { denoFileSystem } from "../runtime/deno_fs.ts";
import { CliError, isParseArgsError } from "./errors.ts";

/** The `parseArgs` options of the flags every subcommand takes. */
export const COMMON_OPTIONS = {
  config: { type: "string" },
  "data-dir": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/** The help lines of {@link COMMON_OPTIONS}. */
export const COMMON_HELP = `  --config <path>     Config file (default ./service.json if it exists,
                      else $XDG_CONFIG_HOME/lass/service.json)                   [LASS_CONFIG]
  --data-dir <dir>    Sessions and OAuth tokens (default $XDG_DATA_HOME/lass)    [LASS_DATA_DIR]
  --help              Show this help`;

/**
 * `parseArgs` with the common flags added; a usage problem becomes a {@link CliError} (exit 2)
 * that names the command's help.
 */
export function parseFlags<const T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
  command: string,
  allowPositionals = false,
) {
  try {
    return parseArgs({
      args,
      options: { ...COMMON_OPTIONS, ...options },
      strict: true,
      allowPositionals,
    });
  } catch (error) {
    if (isParseArgsError(error)) {
      throw new CliError(`${flagProblem(error)} (see lass ${command} --help)`);
    }
    throw error;
  }
}

/** `parseArgs`'s refusal in the words of the other `lass:` lines. */
function flagProblem(error: TypeError): string {
  const code = (error as { code?: string }).code;
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option) return `unknown option ${option}`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option) {
    return /argument missing/.test(error.message)
      ? `${option} needs a value`
      : `${option} takes no value`;
  }
  return error.message.replace(/^./, (first) => first.toLowerCase());
}

/**
 * A readable line for a problem opening the config: its message, and each detail at its path
 * (then the message's summary alone: it repeats the first detail).
 */
export function describeOpenError(configPath: string, error: unknown): string {
  const details = error instanceof LassError ? error.details ?? [] : [];
  const message = (error as Error).message;
  if (details.length === 0) return `cannot start with ${configPath}: ${message}`;
  const lines = details.map((d) => `\n  ${d.path || "(top level)"}: ${d.message}`);
  return `cannot start with ${configPath}: ${message.replace(/: .*$/s, "")}:${lines.join("")}`;
}

/**
 * Makes zod check values without compiling code for its object schemas. A command that runs once
 * parses each schema a few times, and compiling costs more than it saves (about a tenth of a
 * `lass chat`). Called before any schema is made: the setting is read when a schema is created.
 */
export async function validateWithoutCompiling(): Promise<void> {
  const { z } = await import("zod");
  z.config({ jitless: true });
}

/**
 * How the commands that run and end (chat, check, eval) open Lass: they connect the tool servers
 * they use themselves, follow no edits of the config file, and leave no task for a later start
 * (the task files belong to `lass serve`).
 */
export const RUN_ONCE = {
  connectToolServers: false,
  watchConfig: false,
  keepTasks: false,
} as const;

/**
 * Opens Lass in this process for a subcommand, with the same lookup, env variables and defaults
 * as `lass serve` (`options.fs` may stand in for Deno's file system). A config that cannot be opened is a {@link CliError} with exit code 1.
 */
export async function openLass(
  flags: { config?: string; "data-dir"?: string },
  options: Omit<LassOptions, "configPath" | "dataDir"> = {},
): Promise<Lass> {
  const env = (name: string) => Deno.env.get(name);
  const lookup = {
    configPath: flags.config,
    dataDir: flags["data-dir"],
    env,
    cwd: Deno.cwd(),
    fs: options.fs ?? denoFileSystem,
  };
  // Loaded here, not at the top: `--help` and `demo-server` need none of the service.
  const { createLass, locateFiles } = await import("../lass.ts");
  try {
    const lass = await createLass({ ...options, ...lookup });
    // A mistyped --config would otherwise pass unnoticed on the default config.
    if (lass.service.config.created) {
      console.error(`lass: created ${lass.configPath} with the default config (no file was there)`);
    }
    return lass;
  } catch (error) {
    const { configPath } = await locateFiles(lookup);
    throw new CliError(describeOpenError(configPath, error), 1);
  }
}
