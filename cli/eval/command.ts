/** `lass eval`: runs an eval file's cases on models in process, or merges shard reports. */
import { basename } from "node:path";
import type { EvalReport } from "../../wire/evals.ts";
import { LassError } from "../../core/errors.ts";
import type { EvalProgress } from "../../wire/evals.ts";
import { plural } from "../../wire/words.ts";
import { CliError } from "../errors.ts";
import { followInterrupt } from "../interrupt.ts";
import { writeReportFile } from "../output.ts";
import { COMMON_HELP, openLass, parseFlags, RUN_ONCE } from "../options.ts";
import { Spinner } from "../spinner.ts";
import { failedLimits, formatReport, type Limits } from "./text.ts";

/** The help of `lass eval`. */
export const EVAL_HELP = `Usage: lass eval <file.eval.yaml|json> [options]
       lass eval --merge <report.json>... [--json <file>] [--junit <file>] [--min-pass-rate R]
       lass eval <file> --baseline <report.json> [--fail-on-regression]
       lass eval --from-session <id> [--turn <n>]... [--name <name>] [--out <file.eval.yaml>]

Runs each case of the eval file as one chat turn on each model, --repeat times, and checks the
turn against the case's expectations (tools called with which arguments, in order, tools not
called, the answer's text, steps and tokens, a judge model's score against a rubric). A case with
turns runs them as one conversation. Prints a table of pass rates per case and model on stdout
and each failed run on stderr. Every report is kept in <data dir>/evals/reports/ (the newest 100).
The file's reference: docs/evals.md.

Exit code 0 when the pass rate reaches --min-pass-rate, the cost stays within --max-cost and
(with --fail-on-regression) no pass rate fell, 1 otherwise, 2 for a usage error or an invalid eval
file (every problem at its path).

Options:
  --model <id>          A model profile to run on; repeat the flag for several (default the
                        file's models, else the workspace's model); one given twice runs once
  --repeat <n>          Runs per case and model (default 1)
  --concurrency <n>     Runs at the same time (default 4)
  --shard <i/n>         Only the i-th of n stable slices of the runs (a CI matrix job each)
  --min-pass-rate <r>   The pass rate (0 to 1) below which the exit code is 1 (default 1)
  --max-cost <usd>      The cost in US dollars above which the exit code is 1; runs whose
                        model has no price count nothing (a warning names them)
  --approve all|none    Answer the runs' tool approval questions (default none: denied)
  --json <file>         Write the report as JSON (- for stdout, instead of the table); missing
                        folders are created
  --junit <file>        Write a JUnit XML report (a test case per eval case and model)
  --replay <dir>        Replace each tool server of the workspace by its recording,
                        <dir>/<serverId>.cassette.json (lass record), answered at once:
                        no live server is started or reached (docs/recordings.md)
  --merge               Join the shard reports given as arguments into one report: the shards
                        of one run (same file, models, --repeat), each once, none missing
  --baseline <file>     Compare with an earlier report (a --json file, or a kept one from
                        <data dir>/evals/reports/): per case and model the change in pass rate,
                        tokens, cost and time per run
  --fail-on-regression  With --baseline: exit 1 when any case's pass rate fell
  --from-session <id>   Make a case of a stored chat: its prompts, and the tool calls it made
                        with their arguments as expectations. Prints an eval file with the case
                        (the chat's workspace and model as its settings) on stdout
  --turn <n>            With --from-session: only this user turn (from 0); repeat the flag for
                        several (default every turn that finished)
  --name <name>         With --from-session: the case's name (default the chat's title)
  --out <file>          With --from-session: add the case to this eval file (its comments and
                        cases stay), or create it; a name it has gets " (2)" unless --name
${COMMON_HELP}
`;

/** A whole number of at least 1 given to `flag`. */
function count(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < 1) {
    throw new CliError(
      `${flag} must be a whole number of at least 1, not ${JSON.stringify(value)}`,
    );
  }
  return number;
}

/** The minimum pass rate, 0 to 1. */
function passRate(value: string | undefined): number {
  if (value === undefined) return 1;
  const rate = Number(value);
  if (value.trim() === "" || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new CliError(
      `--min-pass-rate must be a number from 0 to 1, not ${JSON.stringify(value)}`,
    );
  }
  return rate;
}

/** The most a run may cost, in US dollars (a number of at least 0), if given. */
function maxCost(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const usd = Number(value.replace(/^\$/, ""));
  if (value.trim() === "" || !Number.isFinite(usd) || usd < 0) {
    throw new CliError(
      `--max-cost must be an amount of US dollars of at least 0, not ${JSON.stringify(value)}`,
    );
  }
  return usd;
}

/** A usage error (exit 2) for an invalid eval or report, with every problem at its path. */
function invalid(error: unknown): never {
  if (!(error instanceof LassError) || error.code !== "invalid-request") throw error;
  const details = (error.details ?? []).map((d) => `\n  ${d.path || "(top level)"}: ${d.message}`);
  // With details, the message's summary (up to its first colon) heads the list of problems.
  const head = details.length > 0 ? `${error.message.replace(/: .*$/s, "")}:` : error.message;
  throw new CliError(`${head}${details.join("")}`);
}

/** Reads a text file named on the command line; a missing one is a usage error. */
async function readArgumentFile(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch (error) {
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Shows progress: a spinner on a terminal, and each failed run as a line on stderr. */
function progress(spinner: Spinner) {
  let total = 0;
  return (line: EvalProgress) => {
    if (line.type === "start") {
      total = line.runs;
      spinner.start(`running ${plural(total, "run")} on ${line.models.join(", ")}`);
      return;
    }
    if (!line.passed) {
      spinner.stop();
      console.error(`✗ ${line.case} · ${line.model} · run ${line.run}: ${line.reason}`);
    }
    spinner.start(`${line.done}/${total} runs done`);
  };
}

/** What `runFile` takes from the flags. */
interface RunFlags {
  config?: string;
  "data-dir"?: string;
  model?: string[];
  repeat?: number;
  concurrency?: number;
  shard?: string;
  approve?: "all" | "none";
  replay?: string;
}

/** Runs the eval file: the report. Warnings about the file go to stderr. */
async function runFile(path: string, values: RunFlags): Promise<EvalReport> {
  const { readEvalText } = await import("../../core/evals/file.ts");
  const { parseShard } = await import("../../core/evals/shard.ts");
  let raw;
  let shard;
  try {
    raw = readEvalText(await readArgumentFile(path), path);
  } catch (error) {
    invalid(error);
  }
  try {
    shard = values.shard === undefined ? undefined : parseShard(values.shard, "--shard");
  } catch (error) {
    if (error instanceof LassError) throw new CliError(error.message);
    throw error;
  }
  const replay = values.replay === undefined
    ? undefined
    : await (await import("./replay.ts")).replayFileSystem(values, values.replay);
  const lass = await openLass(values, { ...RUN_ONCE, ...(replay && { fs: replay.fs }) });
  const spinner = new Spinner();
  const interrupt = followInterrupt();
  try {
    const { checkEval } = await import("../../core/evals/check.ts");
    const { prepareEval } = await import("../../core/evals/runner.ts");
    let prepared;
    try {
      // The schema and the references against the config: every problem at once.
      const { file, warnings } = checkEval(lass.service, raw, { models: values.model });
      if (replay) {
        const { checkReplayed } = await import("./replay.ts");
        checkReplayed(lass.service.config.config, file.workspace, replay.replaced, values.replay!);
      }
      for (const warning of warnings) console.error(`warning: ${warning.path}: ${warning.message}`);
      prepared = prepareEval(lass.service, file, {
        models: values.model,
        repeat: values.repeat,
        concurrency: values.concurrency,
        shard,
        approve: values.approve,
        file: basename(path),
      });
    } catch (error) {
      invalid(error);
    }
    return await prepared.run({ signal: interrupt.signal, onProgress: progress(spinner) });
  } finally {
    spinner.stop();
    interrupt.dispose();
    await lass.close();
  }
}

/** Reads a report file (a `--json` file or a kept one); a refusal names the file. */
async function readReportFile(path: string): Promise<EvalReport> {
  const { parseReport } = await import("../../core/evals/merge.ts");
  const text = await readArgumentFile(path);
  try {
    return parseReport(JSON.parse(text), path);
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new CliError(`${path} is not JSON: ${error.message}`);
    }
    invalid(error);
  }
}

/** Reads and merges shard reports; a refusal names the file. */
async function mergeFiles(paths: string[]): Promise<EvalReport> {
  const { mergeReports } = await import("../../core/evals/merge.ts");
  const reports = [];
  for (const path of paths) reports.push(await readReportFile(path));
  try {
    return mergeReports(reports, paths);
  } catch (error) {
    invalid(error);
  }
}

function parseEvalFlags(args: string[]) {
  return parseFlags(
    args,
    {
      model: { type: "string", multiple: true },
      repeat: { type: "string" },
      concurrency: { type: "string" },
      shard: { type: "string" },
      "min-pass-rate": { type: "string" },
      "max-cost": { type: "string" },
      approve: { type: "string" },
      json: { type: "string" },
      junit: { type: "string" },
      merge: { type: "boolean" },
      replay: { type: "string" },
      baseline: { type: "string" },
      "fail-on-regression": { type: "boolean" },
      "from-session": { type: "string" },
      turn: { type: "string", multiple: true },
      name: { type: "string" },
      out: { type: "string" },
    },
    "eval",
    true,
  );
}

/** Runs `lass eval`; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseEvalFlags(args);
  if (values.help) return console.log(EVAL_HELP), 0;
  const { fromSession, checkFromSessionFlags } = await import("./from_session.ts");
  checkFromSessionFlags(values, positionals);
  if (values["from-session"] !== undefined) {
    return await fromSession(values["from-session"], values);
  }
  const limits: Limits = {
    minPassRate: passRate(values["min-pass-rate"]),
    maxCost: maxCost(values["max-cost"]),
  };
  if (values.approve !== undefined && values.approve !== "all" && values.approve !== "none") {
    throw new CliError(`--approve must be all or none, not ${JSON.stringify(values.approve)}`);
  }
  if (values.merge) {
    const runFlag = ["model", "repeat", "concurrency", "shard", "approve", "replay"] as const;
    const given = runFlag.find((flag) => values[flag] !== undefined);
    if (given) throw new CliError(`--merge joins reports; --${given} is for running an eval`);
    if (positionals.length === 0) throw new CliError("--merge needs the report files to join");
  } else if (positionals.length !== 1) {
    throw new CliError("give one eval file (see lass eval --help)");
  }
  if (values["fail-on-regression"] && values.baseline === undefined) {
    throw new CliError("--fail-on-regression needs --baseline <report.json> to compare with");
  }
  // The baseline is read before the run: a wrong path fails at once, not after every run.
  const baseline = values.baseline === undefined
    ? undefined
    : await readReportFile(values.baseline);
  const report = values.merge ? await mergeFiles(positionals) : await runFile(positionals[0], {
    ...values,
    repeat: count(values.repeat, "--repeat"),
    concurrency: count(values.concurrency, "--concurrency"),
    approve: values.approve as RunFlags["approve"],
  });
  // The results first: a report file that cannot be written never hides them.
  console.log(
    values.json === "-" ? JSON.stringify(report, null, 2) : formatReport(report, limits),
  );
  const unpriced = report.cost?.unpriced ?? 0;
  if (limits.maxCost !== undefined && unpriced > 0) {
    console.error(
      `warning: --max-cost counts only priced runs; ${plural(unpriced, "run")} had no price: ` +
        report.cost!.costUnknown,
    );
  }
  const { evalJunit } = await import("../../core/evals/junit.ts");
  if (values.json !== undefined && values.json !== "-") {
    await writeReportFile(values.json, JSON.stringify(report, null, 2) + "\n", "JSON report");
  }
  if (values.junit !== undefined) {
    await writeReportFile(values.junit, evalJunit(report, limits.minPassRate), "JUnit report");
  }
  let regressions = 0;
  if (baseline) {
    const [{ diffReports }, { formatDiff }] = await Promise.all([
      import("../../core/evals/diff.ts"),
      import("./diff.ts"),
    ]);
    const diff = diffReports(baseline, report);
    regressions = diff.regressions;
    // With the report as JSON on stdout, the comparison goes to stderr.
    const print = values.json === "-" ? console.error : console.log;
    print(`\n${formatDiff(diff, values.baseline!)}`);
  }
  if (report.keepError) console.error(`warning: the report was not kept: ${report.keepError}`);
  const failed = failedLimits(report, limits);
  if (values["fail-on-regression"] === true && regressions > 0) {
    failed.push(`${plural(regressions, "pass rate")} fell against the baseline`);
  }
  if (failed.length > 0) console.error(`lass eval: the run failed: ${failed.join("; ")}`);
  return failed.length === 0 ? 0 : 1;
}
