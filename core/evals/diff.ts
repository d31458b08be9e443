/**
 * Run against run: two eval reports compared per case and model, by pass rate and by tokens,
 * cost and time per run (means, so runs with different `--repeat` compare).
 */
import type {
  EvalCaseReport,
  EvalDiff,
  EvalDiffRow,
  EvalDiffSide,
  EvalReport,
} from "../../wire/evals.ts";

/**
 * The US dollars of a case's runs, when the report has them: `cost` as a number or as
 * `{usd}` (reports before costs were recorded have neither).
 */
function usdOf(entry: EvalCaseReport): number | undefined {
  const cost = (entry as { cost?: unknown }).cost;
  if (typeof cost === "number" && Number.isFinite(cost)) return cost;
  const usd = (cost as { usd?: unknown } | null | undefined)?.usd;
  return typeof usd === "number" && Number.isFinite(usd) ? usd : undefined;
}

/** One side of a row: the case's per-run means. */
function sideOf(entry: EvalCaseReport): EvalDiffSide {
  const runs = Math.max(entry.runs, 1);
  const usd = usdOf(entry);
  return {
    runs: entry.runs,
    passRate: entry.passRate,
    tokensPerRun: entry.tokens / runs,
    msPerRun: entry.durationMs / runs,
    ...(usd !== undefined && { usdPerRun: usd / runs }),
  };
}

/** current − baseline of each number both sides have. */
function changeOf(baseline: EvalDiffSide, current: EvalDiffSide): EvalDiffRow["change"] {
  return {
    passRate: current.passRate - baseline.passRate,
    tokensPerRun: current.tokensPerRun - baseline.tokensPerRun,
    msPerRun: current.msPerRun - baseline.msPerRun,
    ...(baseline.usdPerRun !== undefined && current.usdPerRun !== undefined &&
      { usdPerRun: current.usdPerRun - baseline.usdPerRun }),
  };
}

/** How far below a pass rate must fall to count (rounding of repeated runs aside). */
const EPSILON = 1e-9;

/**
 * Compares a report with a baseline: a row per case and model of either (the current report's
 * order, then the baseline's rows it lacks), each with both sides' per-run numbers and the
 * change; a row whose pass rate fell is a regression.
 */
export function diffReports(baseline: EvalReport, current: EvalReport): EvalDiff {
  const key = (entry: EvalCaseReport) => `${entry.name}\n${entry.model}`;
  const before = new Map(baseline.cases.map((entry) => [key(entry), entry]));
  const rows: EvalDiffRow[] = current.cases.map((entry) => {
    const old = before.get(key(entry));
    before.delete(key(entry));
    const now = sideOf(entry);
    if (!old) {
      return {
        name: entry.name,
        model: entry.model,
        status: "added",
        current: now,
        regression: false,
      };
    }
    const then = sideOf(old);
    const change = changeOf(then, now)!;
    return {
      name: entry.name,
      model: entry.model,
      status: "both",
      baseline: then,
      current: now,
      change,
      regression: change.passRate < -EPSILON,
    };
  });
  for (const old of before.values()) {
    rows.push({
      name: old.name,
      model: old.model,
      status: "removed",
      baseline: sideOf(old),
      regression: false,
    });
  }
  const head = (report: EvalReport) => ({
    ...(report.id !== undefined && { id: report.id }),
    ...(report.createdAt !== undefined && { createdAt: report.createdAt }),
    passRate: report.passRate,
  });
  return {
    baseline: head(baseline),
    current: head(current),
    rows,
    regressions: rows.filter((row) => row.regression).length,
  };
}
