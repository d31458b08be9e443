/** Evals (`POST /api/evals/run`, `lass eval`): the request, the progress lines and the report. */
import type { ChatChunk } from "./chat.ts";
import type { ChatCost, ChatUsage, CostTotal } from "./usage.ts";

/** The body of `POST /api/evals/run`. */
export interface EvalRunRequest {
  /** The eval file's content as an object, or its text (YAML or JSON). */
  eval: Record<string, unknown> | string;
  /** Model profile ids; override the file's `models`. */
  models?: string[];
  /** Runs per case and model; default 1. */
  repeat?: number;
  /** Runs at the same time; default 4. */
  concurrency?: number;
  /** Only the `index`-th (1-based) of `count` stable slices of the runs, e.g. `"2/4"`. */
  shard?: string;
  /** Answer the runs' approval questions: `all` approves, `none` (default) denies. */
  approve?: "all" | "none";
}

/** A run that failed: which expectations and the turn's chunks. */
export interface EvalFailure {
  /** The run's number within its case and model, from 1. */
  run: number;
  /** The turn that failed (from 1), in a case with `turns`; the turns after it did not run. */
  turn?: number;
  /** Every failed expectation, joined with "; ". */
  reason: string;
  reasons: string[];
  chunks: ChatChunk[];
}

/** A judge model's score of one turn against an `expect.judge` rubric. */
export interface EvalJudgement {
  /** The run's number within its case and model, from 1. */
  run: number;
  /** The turn judged (from 1), in a case with `turns`. */
  turn?: number;
  /** The judge's model profile id. */
  judge: string;
  /** 0 to 1; 0 when the judge failed. */
  score: number;
  threshold: number;
  /** `false`: advisory, a low score does not fail the run. */
  gate: boolean;
  /** Whether the score reached the threshold. */
  passed: boolean;
  /** The judge's reasons for the score. */
  reasons: string[];
  /** Why the judge gave no score (its model failed or answered out of shape). */
  error?: string;
  /** The judge model's tokens and their price (absent when it made no call); in the run's cost. */
  usage?: ChatUsage;
  cost?: ChatCost | null;
  costUnknown?: string;
}

/** The result of one case on one model. */
export interface EvalCaseReport {
  name: string;
  model: string;
  runs: number;
  passed: number;
  /** passed / runs (1 when there were no runs). */
  passRate: number;
  /** Tokens of every run together. */
  tokens: number;
  /**
   * What every run cost together: `usd` of the priced runs, and how many runs that called the
   * model had no price (`unpriced`, with the first reason). Absent in reports of an older Lass.
   */
  cost?: CostTotal;
  /** Time of every run together. */
  durationMs: number;
  failures: EvalFailure[];
  /** The judge's scores of the turns with `expect.judge`, by run (and turn). */
  judgements?: EvalJudgement[];
}

/** A whole eval's report (`--json`, and the last line of `POST /api/evals/run`). */
export interface EvalReport {
  workspace: string;
  models: string[];
  cases: EvalCaseReport[];
  runs: number;
  passed: number;
  passRate: number;
  tokens: number;
  /** What every run of every case and model cost together (absent in reports of an older Lass). */
  cost?: CostTotal;
  durationMs: number;
  /** The slice of the runs this report covers, when it is one shard of several. */
  shard?: EvalShard;
  /** The id of the report as kept in `<data dir>/evals/reports/` (`GET /api/evals/reports/:id`). */
  id?: string;
  /** When the run finished and the report was kept. */
  createdAt?: string;
  /** The eval file's name, when the run came from a file. */
  file?: string;
  /** Why the report could not be kept (its numbers are still right). */
  keepError?: string;
}

/** A kept report as `GET /api/evals/reports` lists it: its totals without the cases. */
export interface EvalReportSummary {
  id: string;
  createdAt: string;
  file?: string;
  workspace: string;
  models: string[];
  /** The number of cases × models. */
  cases: number;
  runs: number;
  passed: number;
  passRate: number;
  tokens: number;
  durationMs: number;
}

/** `GET /api/evals/reports`: the kept reports, newest first (at most 100 are kept). */
export interface EvalReportList {
  reports: EvalReportSummary[];
}

/** One side of a compared case: per-run means, so runs with different `--repeat` compare. */
export interface EvalDiffSide {
  runs: number;
  passRate: number;
  tokensPerRun: number;
  msPerRun: number;
  /** US dollars per run, when the report has costs. */
  usdPerRun?: number;
}

/** One case and model in two reports. */
export interface EvalDiffRow {
  name: string;
  model: string;
  /** `added`: only in the current report; `removed`: only in the baseline. */
  status: "both" | "added" | "removed";
  baseline?: EvalDiffSide;
  current?: EvalDiffSide;
  /** current − baseline of each number both sides have (pass rate as a fraction). */
  change?: {
    passRate: number;
    tokensPerRun: number;
    msPerRun: number;
    usdPerRun?: number;
  };
  /** Whether the pass rate fell. */
  regression: boolean;
}

/**
 * Two reports compared (`lass eval --baseline`, `GET /api/evals/reports/:id/diff?baseline=`):
 * a row per case and model of either, in the current report's order, the baseline's others after.
 */
export interface EvalDiff {
  baseline: { id?: string; createdAt?: string; passRate: number };
  current: { id?: string; createdAt?: string; passRate: number };
  rows: EvalDiffRow[];
  /** Rows whose pass rate fell. */
  regressions: number;
}

/**
 * A shard report's slice and the plan it was cut from: `--merge` joins only shards of one plan
 * (same eval file, workspace, models and repeat), each once, none missing.
 */
export interface EvalShard {
  /** This slice, from 1. */
  index: number;
  /** The number of slices. */
  count: number;
  /** `sha256:<hex>` of the eval file's content as parsed (keys sorted, defaults filled in). */
  evalHash: string;
  /** The models of the whole plan, in order. */
  models: string[];
  /** Runs per case and model. */
  repeat: number;
  /** Runs of the whole plan, every shard together. */
  totalRuns: number;
}

/** A progress line of `POST /api/evals/run`, before the report. */
export type EvalProgress =
  | {
    type: "start";
    workspace: string;
    models: string[];
    cases: number;
    /** Runs of this eval (of this shard). */
    runs: number;
  }
  | {
    type: "run";
    case: string;
    model: string;
    run: number;
    passed: boolean;
    reason?: string;
    tokens: number;
    durationMs: number;
    /** Runs finished so far, of `runs` in `start`. */
    done: number;
  };

/** A warning about the eval, before its `start` line: e.g. a misspelt extra field. */
export interface EvalWarning {
  type: "warning";
  /** The dotted path of the field, e.g. `eval.cases.0.expects`. */
  path: string;
  message: string;
}

/** A line of the `POST /api/evals/run` stream. */
export type EvalLine =
  | EvalWarning
  | EvalProgress
  | ({ type: "report" } & EvalReport)
  | { type: "error"; message: string };

/** `GET /api/evals/files`: the eval files in the config file's folder. */
export interface EvalFileList {
  folder: string;
  files: { name: string; size: number; modifiedAt: string }[];
}

/** `GET /api/evals/files/:name`: one eval file's text. */
export interface EvalFileText {
  name: string;
  text: string;
}

/** The body of `POST /api/evals/cases`: a case made from a stored chat. */
export interface EvalCaseRequest {
  sessionId: string;
  /** The user turns to take, by index from 0 (failed turns count); default every finished turn. */
  turns?: number[];
  /** The case's name; default the chat's title (or the prompt, for one turn picked). */
  name?: string;
}

/** A tool call a case expects, as a chat made it: the model's tool name and the arguments. */
export interface DraftCall {
  tool: string;
  args?: Record<string, unknown>;
}

/** One turn of a case made from a chat: its prompt (or message) and the calls it made. */
export interface DraftTurn {
  prompt?: string;
  /** The user message, when it is more than text (files, images). */
  messages?: unknown[];
  expect: { calls?: DraftCall[] };
}

/** A case made from a chat: one turn in the single-prompt form, several in the `turns` form. */
export type DraftCase = { name: string } & (DraftTurn | { turns: DraftTurn[] });

/** The answer of `POST /api/evals/cases`. */
export interface EvalCaseDraft {
  case: DraftCase;
  /** The case as YAML (with a comment naming the chat), for an editor. */
  yaml: string;
  /** The chat's workspace: an eval file's `workspace`. */
  workspace: string;
  /** The chat's model profile, when it had one (not an agent): an eval file's `models`. */
  models?: string[];
  /** The user turns taken, by index. */
  turns: number[];
  session: { id: string; title: string };
}

/** The body of `POST /api/evals/files/:name/cases`: a case to append to an eval file. */
export interface EvalCaseSaveRequest {
  /** The case as an object, or as YAML text (its comments are kept). */
  case: Record<string, unknown> | string;
  /** A new file's `workspace`; for an existing file, a different one is a warning. */
  workspace?: string;
  /** A new file's `models`; for an existing file, a model it lacks is a warning. */
  models?: string[];
}

/** The answer of `POST /api/evals/files/:name/cases` (201 when the file was created). */
export interface EvalCaseSaved {
  /** The eval file's name in the config's folder. */
  file: string;
  created: boolean;
  /** The saved case's name. */
  name: string;
  /** Cases in the file now. */
  cases: number;
  /** What differs between the case's chat and the file, e.g. the workspace its cases run in. */
  warnings: { path: string; message: string }[];
}
