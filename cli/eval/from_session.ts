/**
 * `lass eval --from-session <id>`: a case of a stored chat (its prompts, and the tool calls it
 * made with their arguments as expectations), printed as an eval file or added to one.
 */
import { join } from "node:path";
import { LassError } from "../../core/errors.ts";
import { SessionStore } from "../../core/sessions.ts";
import { denoFileSystem } from "../../runtime/deno_fs.ts";
import { plural } from "../../wire/words.ts";
import { CliError } from "../errors.ts";

/** The flags of `lass eval` that this mode reads. */
interface FromSessionFlags {
  config?: string;
  "data-dir"?: string;
  "from-session"?: string;
  turn?: string[];
  name?: string;
  out?: string;
  merge?: boolean;
}

/** The flags that only make sense with --from-session, and those that do not go with it. */
const OWN_FLAGS = ["turn", "name", "out"] as const;
const RUN_FLAGS = ["model", "repeat", "concurrency", "shard", "approve", "replay", "json", "junit"];

/** Refuses --from-session mixed with a file or the run flags, and its own flags without it. */
export function checkFromSessionFlags(
  values: FromSessionFlags & Record<string, unknown>,
  positionals: string[],
): void {
  if (values["from-session"] === undefined) {
    const given = OWN_FLAGS.find((flag) => values[flag] !== undefined);
    if (given) throw new CliError(`--${given} goes with --from-session`);
    return;
  }
  if (positionals.length > 0 || values.merge) {
    throw new CliError("--from-session makes a case; give no eval file and no --merge with it");
  }
  const run = RUN_FLAGS.find((flag) => values[flag] !== undefined);
  if (run) throw new CliError(`--from-session makes a case; --${run} is for running an eval`);
}

/** A turn index given to --turn: a whole number from 0. */
function turnIndex(value: string): number {
  if (!/^\d+$/.test(value)) {
    throw new CliError(`--turn takes a turn's index from 0, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/** A refusal of the session or the file as a command-line failure, each problem on a line. */
function failure(error: unknown): never {
  if (!(error instanceof LassError)) throw error;
  const details = (error.details ?? []).map((d) => `\n  ${d.path || "(top level)"}: ${d.message}`);
  const head = details.length > 0 ? `${error.message.replace(/: .*$/s, "")}:` : error.message;
  throw new CliError(`${head}${details.join("")}`, error.code === "invalid-request" ? 2 : 1);
}

/** Runs `lass eval --from-session <id>`; the exit code. */
export async function fromSession(id: string, values: FromSessionFlags): Promise<number> {
  const turns = values.turn?.map(turnIndex);
  const { locateFiles } = await import("../../lass.ts");
  const { caseDraft } = await import("../../core/evals/from_session.ts");
  const { NEW_FILE_HEADER, saveCaseAt } = await import("../../core/evals/save.ts");
  const { dataDir } = await locateFiles({
    configPath: values.config,
    dataDir: values["data-dir"],
    env: (name) => Deno.env.get(name),
    cwd: Deno.cwd(),
    fs: denoFileSystem,
  });
  const sessions = new SessionStore(join(dataDir, "sessions"), denoFileSystem);
  try {
    const draft = caseDraft(await sessions.get(id), { turns, name: values.name });
    const settings = { workspace: draft.workspace, models: draft.models };
    if (values.out === undefined) {
      const { caseEntry, newFileText } = await import("../../core/evals/append.ts");
      const file = newFileText(
        "stdout.eval.yaml",
        settings,
        caseEntry(draft.yaml),
        NEW_FILE_HEADER,
      );
      console.log(file.text.trimEnd());
      return 0;
    }
    const saved = await saveCaseAt(denoFileSystem, values.out, { case: draft.yaml, ...settings }, {
      uniqueName: values.name === undefined,
    }).catch((error) => {
      if (error instanceof LassError) throw error;
      throw new CliError(`cannot write ${values.out}: ${(error as Error).message}`, 1);
    });
    for (const warning of saved.warnings) {
      console.error(`warning: ${warning.path}: ${warning.message}`);
    }
    console.error(
      `lass: ${saved.created ? "created" : "added to"} ${values.out}: case "${saved.name}" ` +
        `(${plural(saved.cases, "case")} in the file)`,
    );
    return 0;
  } catch (error) {
    failure(error);
  }
}
