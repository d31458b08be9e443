/** Eval reports built from run results (`merge.ts` joins shard reports). */
import type { ChatChunk } from "../../wire/chat.ts";
import type { EvalCaseReport, EvalJudgement, EvalReport, EvalShard } from "../../wire/evals.ts";

/** The outcome of one run (one turn of one case on one model). */
export interface RunResult {
  case: string;
  model: string;
  /** The run's number within its case and model, from 1. */
  run: number;
  passed: boolean;
  reasons: string[];
  /** The turn that failed, in a case with `turns`. */
  turn?: number;
  tokens: number;
  durationMs: number;
  /** The failed turn's chunks, or the last turn's when the run passed. */
  chunks: ChatChunk[];
  /** The judge's scores of the run's turns with `expect.judge`. */
  judgements?: EvalJudgement[];
}

/** passed / runs, and 1 for no runs (nothing failed). */
export function rate(passed: number, runs: number): number {
  return runs === 0 ? 1 : passed / runs;
}

/** Totals over the cases: runs, passes, the pass rate, tokens and time. */
export function totals(cases: EvalCaseReport[]) {
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
  shard?: EvalShard;
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
    if (result.judgements?.length) {
      entry.judgements = [...entry.judgements ?? [], ...result.judgements];
    }
    if (result.passed) entry.passed++;
    else {
      entry.failures.push({
        run: result.run,
        ...(result.turn !== undefined && { turn: result.turn }),
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
