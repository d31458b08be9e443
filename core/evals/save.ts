/**
 * Saving a case into an eval file: one beside the config file (`POST /api/evals/files/:name/cases`)
 * or at a path (`lass eval --from-session --out`). An existing file keeps its content and comments
 * and gets the case at the end; a missing one is created. Every write is checked first, so a file
 * is never left invalid, and is atomic.
 */
import { basename, dirname, join } from "node:path";
import type { EvalCaseSaved, EvalCaseSaveRequest } from "../../wire/evals.ts";
import type { ErrorDetail } from "../../wire/errors.ts";
import { LassError } from "../errors.ts";
import { type FileSystem, SerialQueue, writeFileAtomic } from "../files.ts";
import { appendedText, caseEntry, newFileText, renamed } from "./append.ts";
import { checkEvalFile, invalidEval, readEvalText } from "./file.ts";
import { isEvalFileName, MAX_EVAL_FILE_BYTES } from "./folder.ts";

/** The first line of a file Lass creates for a case. */
export const NEW_FILE_HEADER =
  " Eval cases saved from Lass chats: lass eval <this file> runs them (docs/evals.md)";

/** One write at a time: two saves into one file both keep their case. */
const writes = new SerialQueue();

/** How to save a case. */
export interface SaveOptions {
  /** A name the file already has gets " (2)", " (3)", ... instead of being refused. */
  uniqueName?: boolean;
  /** The workspace a file without `workspace` runs in, for the warning about a different one. */
  defaultWorkspace?: string;
}

/** A record's field, when the value is a record. */
function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The names of a file's cases. */
function caseNames(file: unknown): string[] {
  const cases = field(file, "cases");
  return Array.isArray(cases)
    ? cases.map((c) => field(c, "name")).filter((n) => typeof n === "string") as string[]
    : [];
}

/** `name`, or `name (2)`, `name (3)`, ...: the first that is not taken. */
function freeName(name: string, taken: string[]): string {
  let candidate = name;
  for (let n = 2; taken.includes(candidate); n++) candidate = `${name} (${n})`;
  return candidate;
}

/**
 * Checks the file with the case added: the case's problems at `case.<path>`; the file's own
 * problems (it was invalid before) as 400 naming the file, at their paths in it.
 */
function checkResult(value: unknown, name: string): void {
  const { problems } = checkEvalFile(value);
  if (problems.length === 0) return;
  const index = (field(value, "cases") as unknown[]).length - 1;
  const mine = `cases.${index}`;
  const ofCase = problems.flatMap((problem) =>
    problem.path === mine || problem.path.startsWith(`${mine}.`)
      ? [{ ...problem, path: `case${problem.path.slice(mine.length)}` }]
      : []
  );
  if (ofCase.length > 0) throw invalidEval(ofCase);
  throw new LassError(
    "invalid-request",
    `${name} is not a valid eval file; fix it before adding cases: ` +
      `${problems[0].path || "(top level)"}: ${problems[0].message}`,
    problems.map((problem) => ({ ...problem, path: `file.${problem.path}`.replace(/\.$/, "") })),
  );
}

/** What differs between the case's chat and an existing file's settings. */
function settingsWarnings(
  file: unknown,
  input: EvalCaseSaveRequest,
  defaultWorkspace: string | undefined,
): ErrorDetail[] {
  const warnings: ErrorDetail[] = [];
  const workspace = field(file, "workspace") ?? defaultWorkspace;
  if (input.workspace && workspace !== undefined && workspace !== input.workspace) {
    warnings.push({
      path: "workspace",
      message:
        `the file's cases run in workspace "${workspace}"; the chat was in "${input.workspace}"`,
    });
  }
  const models = field(file, "models");
  const missing = (input.models ?? []).filter((id) =>
    Array.isArray(models) && !models.includes(id)
  );
  if (missing.length > 0) {
    warnings.push({
      path: "models",
      message: `the file's cases run on ${(models as string[]).join(", ")}; ` +
        `the chat used ${missing.join(", ")}`,
    });
  }
  return warnings;
}

/** The text of the file at `path`, or undefined; a file over 1 MiB is 413 `too-large`. */
async function readExisting(fs: FileSystem, path: string): Promise<string | undefined> {
  const bytes = await fs.readBytes(path, MAX_EVAL_FILE_BYTES + 1);
  if (!bytes) return undefined;
  if (bytes.byteLength > MAX_EVAL_FILE_BYTES) {
    throw new LassError(
      "too-large",
      `${basename(path)} is larger than ${MAX_EVAL_FILE_BYTES} bytes`,
    );
  }
  return new TextDecoder().decode(bytes);
}

/**
 * Adds a case to the eval file at `path` (YAML, or JSON when it ends in `.json`), creating it with
 * the request's `workspace` and `models` when it is missing. An invalid case is 400 with its
 * problems at `case.<path>`, and so is a name the file has (unless `uniqueName`).
 */
export function saveCaseAt(
  fs: FileSystem,
  path: string,
  input: EvalCaseSaveRequest,
  options: SaveOptions = {},
): Promise<EvalCaseSaved> {
  const name = basename(path);
  let entry = caseEntry(input.case);
  return writes.run(async () => {
    const existing = await readExisting(fs, path);
    const before = existing === undefined ? undefined : readEvalText(existing, name, "file");
    const wanted = entry.value.name;
    if (options.uniqueName && typeof wanted === "string") {
      entry = renamed(entry, freeName(wanted, caseNames(before)));
    }
    const result = existing === undefined
      ? newFileText(name, input, entry, NEW_FILE_HEADER)
      : appendedText(name, existing, entry);
    checkResult(result.value, name);
    const mode = existing === undefined ? 0o644 : ((await fs.stat(path))?.mode ?? 0o644) & 0o777;
    await writeFileAtomic(fs, path, result.text, { mode });
    return {
      file: name,
      created: existing === undefined,
      name: String(entry.value.name),
      cases: caseNames(result.value).length,
      warnings: existing === undefined
        ? []
        : settingsWarnings(before, input, options.defaultWorkspace),
    };
  });
}

/**
 * Adds a case to the eval file `fileName` in the config file's folder. The name is an eval file's
 * name there and nothing else (no folder, no `..`, ending in `.eval.yaml`, `.yml` or `.json`), and
 * an existing entry of that name must be a plain file, not a link: 400 `invalid-request` at `file`.
 */
export async function saveCaseInFolder(
  fs: FileSystem,
  configPath: string,
  fileName: string,
  input: EvalCaseSaveRequest,
  options: SaveOptions = {},
): Promise<EvalCaseSaved> {
  const refuse = (message: string) =>
    new LassError("invalid-request", `cannot save into ${JSON.stringify(fileName)}: ${message}`, [
      { path: "file", message },
    ]);
  if (!isEvalFileName(fileName)) {
    throw refuse(
      "an eval file is named like cases.eval.yaml (.eval.yml, .eval.json) and sits in the " +
        "config's folder: no folder, no '..', not hidden",
    );
  }
  const folder = dirname(configPath);
  const entry = (await fs.entries(folder)).find((candidate) => candidate.name === fileName);
  if (entry && (entry.isSymlink || !entry.isFile)) {
    throw refuse(
      entry.isSymlink ? "it is a link; Lass writes only plain files" : "it is not a file",
    );
  }
  return await saveCaseAt(fs, join(folder, fileName), input, options);
}
