/** Report files a command writes (`--json <file>`, `--junit <file>`). */
import { dirname } from "node:path";
import { CliError } from "./errors.ts";

/**
 * Writes a report file, creating its missing parent folders first (as pytest and jest-junit
 * do); a failure is exit 1 with the path. `what` names the report, e.g. `JUnit report`.
 */
export async function writeReportFile(path: string, text: string, what: string): Promise<void> {
  try {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, text);
  } catch (error) {
    throw new CliError(`cannot write the ${what} ${path}: ${(error as Error).message}`, 1);
  }
}
