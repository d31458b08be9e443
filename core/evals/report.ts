/** Eval reports: built from run results, and shard reports merged into one. */
import { z } from "zod";
import type { ChatChunk } from "../chat/chunks.ts";
import { detailsFromIssues, LassError } from "../errors.ts";
import type { EvalCaseReport, EvalReport } from "../../wire/evals.ts";

export type { EvalCaseReport, EvalFailure, EvalReport } from "../../wire/evals.ts";

/** The outcome of one run (one turn of one case on one model). */
export interface RunResult {
  case: string;
  model: string;
  /** The run's number within its case and model, from 1. */
  run: number;
  passed: boolean;
  reasons: string[];
  tokens: number;
  durationMs: number;
  chunks: ChatChunk[];
}

/** passed / runs, and 1 for no runs (nothing failed). */
function rate(passed: number, runs: number): number {
  return runs === 0 ? 1 : passed / runs;
}

/** Totals over the cases: runs, passes, the pass rate, tokens and time. */
function totals(cases: EvalCaseReport[]) {
  const sum = (pick: (c: EvalCaseReport) => number) => cases.reduce((n, c) => n + pick(c), 0);
  const runs = sum((c) => c.runs);
  const passed = sum((c) => c.passed);
  return {
    runs,
    passed,
    passRate: rate(passed, runs),
    tokens: sum((c) => c.tokens),
    durationMs: sum((c) => c.durationMs),
  };
}

/** What a report says besides its cases. */
export interface ReportHead {
  workspace: string;
  models: string[];
  shard?: { index: number; count: number };
}

/**
 * The report of some runs, one entry per case and model in the order of `order` (keys
 * `case\nmodel`), failures by run number.
 */
export function buildReport(head: ReportHead, results: RunResult[], order: string[]): EvalReport {
  const byKey = new Map<string, EvalCaseReport>();
  for (const key of order) {
    const [name, model] = key.split("\n");
    byKey.set(key, {
      name,
      model,
      runs: 0,
      passed: 0,
      passRate: 1,
      tokens: 0,
      durationMs: 0,
      failures: [],
    });
  }
  for (const result of [...results].sort((a, b) => a.run - b.run)) {
    const entry = byKey.get(`${result.case}\n${result.model}`);
    if (!entry) continue;
    entry.runs++;
    entry.tokens += result.tokens;
    entry.durationMs += result.durationMs;
    if (result.passed) entry.passed++;
    else {
      entry.failures.push({
        run: result.run,
        reason: result.reasons.join("; "),
        reasons: result.reasons,
        chunks: result.chunks,
      });
    }
  }
  const cases = [...byKey.values()].filter((entry) => entry.runs > 0);
  for (const entry of cases) entry.passRate = rate(entry.passed, entry.runs);
  return { ...head, cases, ...totals(cases) };
}

/** The shape a report file must have to be merged (extra fields are allowed). */
const ReportFileSchema = z.looseObject({
  workspace: z.string(),
  models: z.array(z.string()),
  cases: z.array(z.looseObject({
    name: z.string(),
    model: z.string(),
    runs: z.int().min(0),
    passed: z.int().min(0),
    tokens: z.number().min(0),
    durationMs: z.number().min(0),
    failures: z.array(z.looseObject({ run: z.int().min(1), reason: z.string() })),
  })),
  shard: z.strictObject({ index: z.int().min(1), count: z.int().min(1) }).optional(),
});

/** Checks that a value (a parsed `--json` file) is a report; `label` names it in the paths. */
export function parseReport(value: unknown, label: string): EvalReport {
  const parsed = ReportFileSchema.safeParse(value);
  if (parsed.success) return parsed.data as unknown as EvalReport;
  const details = detailsFromIssues(parsed.error.issues, label);
  throw new LassError(
    "invalid-request",
    `${label} is not an eval report: ${details[0].path}: ${details[0].message}`,
    details,
  );
}

/** Refuses shards that do not add up to one whole eval: mixed counts, repeats or gaps. */
function checkShards(reports: EvalReport[]): void {
  const shards = reports.map((report) => report.shard);
  if (shards.every((shard) => shard === undefined)) return;
  const count = shards.find((shard) => shard)?.count;
  if (shards.some((shard) => shard?.count !== count)) {
    throw new LassError("invalid-request", "the reports are not shards of one split (--shard i/n)");
  }
  const seen = new Set(shards.map((shard) => shard!.index));
  if (seen.size !== shards.length) {
    throw new LassError("invalid-request", "a shard is given twice");
  }
  const missing = Array.from({ length: count! }, (_, i) => i + 1).filter((i) => !seen.has(i));
  if (missing.length > 0) {
    throw new LassError(
      "invalid-request",
      `shard ${missing.map((i) => `${i}/${count}`).join(", ")} is missing`,
    );
  }
}

/**
 * Joins reports (the shards of one eval, each with its `shard`) into one: per case and model the
 * runs, passes, tokens, time and failures add up; the order is that of shard 1, 2, ...
 */
export function mergeReports(reports: EvalReport[]): EvalReport {
  if (reports.length === 0) throw new LassError("invalid-request", "no reports to merge");
  checkShards(reports);
  const sorted = [...reports].sort((a, b) => (a.shard?.index ?? 0) - (b.shard?.index ?? 0));
  const byKey = new Map<string, EvalCaseReport>();
  for (const report of sorted) {
    for (const entry of report.cases) {
      const key = `${entry.name}\n${entry.model}`;
      const merged = byKey.get(key);
      if (!merged) {
        byKey.set(key, { ...entry, failures: [...entry.failures] });
        continue;
      }
      merged.runs += entry.runs;
      merged.passed += entry.passed;
      merged.tokens += entry.tokens;
      merged.durationMs += entry.durationMs;
      merged.failures.push(...entry.failures);
    }
  }
  const cases = [...byKey.values()];
  for (const entry of cases) {
    entry.passRate = rate(entry.passed, entry.runs);
    entry.failures.sort((a, b) => a.run - b.run);
  }
  const models = [...new Set(sorted.flatMap((report) => report.models))];
  return { workspace: sorted[0].workspace, models, cases, ...totals(cases) };
}
