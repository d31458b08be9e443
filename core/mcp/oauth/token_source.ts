/**
 * Tokens Lass presents but does not keep (a workload's JWT for `jwt-bearer`, the user's ID token
 * for `enterprise-managed`): read from an env reference, a file or a command's output each time a
 * grant needs one, so a token the platform rotated is the one used.
 */
import { type EnvLookup, resolveEnvRef } from "../../config/env_refs.ts";

/** Where a token comes from, as the config says (`oauth.assertion`, `idToken`). */
export type TokenSource = string | { file: string } | { command: string; args?: string[] };

/** How long a token command may run. */
const COMMAND_TIMEOUT_MS = 15_000;

/** A reader of one token source; `field` names it in errors (`oauth.assertion`). */
export function tokenReader(
  source: TokenSource,
  field: string,
  env: EnvLookup,
): () => Promise<string> {
  return async () => {
    const token = (await readSource(source, field, env)).trim();
    if (!token) throw new Error(`${field} gave no token (${describe(source)})`);
    return token;
  };
}

async function readSource(source: TokenSource, field: string, env: EnvLookup): Promise<string> {
  if (typeof source === "string") return resolveEnvRef(source, env);
  if ("file" in source) {
    try {
      const { readFile } = await import("node:fs/promises");
      return await readFile(source.file, "utf8");
    } catch (error) {
      throw new Error(`cannot read ${field} from ${source.file}: ${(error as Error).message}`);
    }
  }
  // Loaded with the first command: no process module at startup.
  const { execFile } = await import("node:child_process");
  return await new Promise((resolve, reject) => {
    execFile(
      source.command,
      source.args ?? [],
      { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 1 << 20 },
      (error, stdout) => {
        if (error) {
          reject(new Error(`${field}: the command ${source.command} failed: ${error.message}`));
        } else resolve(String(stdout));
      },
    );
  });
}

/** A source for messages: the env variable's name, the file or the command (never the token). */
function describe(source: TokenSource): string {
  if (typeof source === "string") return source;
  return "file" in source ? `file ${source.file}` : `command ${source.command}`;
}
