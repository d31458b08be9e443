/** Eval reports built from run results (`merge.ts` joins shard reports). */
import type { ChatChunk, ChatStep } from "../../wire/chat.ts";
import type { EvalCaseReport, EvalJudgement, EvalReport, EvalShard } from "../../wire/evals.ts";
import { addCost, noCost, type Priced, sumPriced } from "../../wire/usage.ts";

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
  /** What the run cost; undefined when no step of it finished (no model call was paid for). */
  cost?: Priced;
  durationMs: number;
  /** The failed turn's chunks, or the last turn's when the run passed. */
  chunks: ChatChunk[];
  /** The judge's scores of the run's turns with `expect.judge`. */
  judgements?: EvalJudgement[];
}

/**
 * What a run's turn cost, from its chunks: the `finish` chunk's price, or for a turn that failed
 * that of the steps it finished; undefined when none did.
 */
export function runCost(chunks: readonly ChatChunk[]): Priced | undefined {
  const steps: ChatStep[] = [];
  for (const chunk of chunks) {
    if (chunk.type === "finish") {
      return { cost: chunk.cost, ...(chunk.costUnknown && { costUnknown: chunk.costUnknown }) };
    }
    if (chunk.type === "step") {
      const { type: _, ...step } = chunk;
      steps.push(step);
    }
  }
  if (steps.length === 0) return undefined;
  const { cost, costUnknown } = sumPriced(steps);
  return { cost, ...(costUnknown && { costUnknown }) };
}

/** passed / runs, and 1 for no runs (nothing failed). */
export function rate(passed: number, runs: number): number {
  return runs === 0 ? 1 : passed / runs;
}

/** Totals over the cases: runs, passes, the pass rate, tokens, cost and time. */
export function totals(cases: EvalCaseReport[]) {
  const sum = (pick: (c: EvalCaseReport) => number) => cases.reduce((n, c) => n + pick(c), 0);
  const runs = sum((c) => c.runs);
  const passed = sum((c) => c.passed);
  // Reports of an older Lass have no cost: they add nothing.
  const cost = cases.reduce((total, c) => c.cost ? addCost(total, c.cost) : total, noCost());
  return {
    runs,
    passed,
    passRate: rate(passed, runs),
    tokens: sum((c) => c.tokens),
    cost,
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
      cost: noCost(),
      durationMs: 0,
      failures: [],
    });
  }
  for (const result of [...results].sort((a, b) => a.run - b.run)) {
    const entry = byKey.get(`${result.case}\n${result.model}`);
    if (!entry) continue;
    entry.runs++;
    entry.tokens += result.tokens;
    if (result.cost) addCost(entry.cost!, result.cost);
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
