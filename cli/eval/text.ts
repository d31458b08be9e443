/** `lass eval`'s report as a person reads it, and whether the run keeps within its limits. */
import { percent } from "../../core/evals/junit.ts";
import type { EvalCaseReport, EvalReport } from "../../wire/evals.ts";
import { plural } from "../../wire/words.ts";
import { costWords, formatUsd } from "../../wire/usage.ts";
import { table } from "../table.ts";

/** What the run is judged by: the minimum pass rate and the most it may cost. */
export interface Limits {
  minPassRate: number;
  maxCost?: number;
}

/** Why the run fails its limits, as phrases (none: it passes). */
export function failedLimits(report: EvalReport, limits: Limits): string[] {
  return [
    report.passRate < limits.minPassRate &&
    `below the minimum pass rate ${percent(limits.minPassRate)}`,
    limits.maxCost !== undefined && (report.cost?.usd ?? 0) > limits.maxCost &&
    `it cost ${formatUsd(report.cost!.usd)}, more than --max-cost ${formatUsd(limits.maxCost)}`,
  ].filter((reason): reason is string => typeof reason === "string");
}

/** The mean judge score of a case's judged turns, or `-` without any. */
function meanScore(entry: EvalCaseReport): string {
  const scores = (entry.judgements ?? []).map((judgement) => judgement.score);
  if (scores.length === 0) return "-";
  return (scores.reduce((sum, score) => sum + score, 0) / scores.length).toFixed(2);
}

/** Each judged turn: its score against its threshold, and the judge's reasons. */
function judgementLines(report: EvalReport): string[] {
  return report.cases.flatMap((entry) =>
    (entry.judgements ?? []).map((j) => {
      const where = `${entry.name} · ${entry.model} · run ${j.run}${
        j.turn !== undefined ? ` · turn ${j.turn}` : ""
      }`;
      const mark = j.passed ? "✓" : j.gate ? "✗" : "·";
      const advisory = j.gate ? "" : ", advisory";
      const why = j.error ?? j.reasons.join("; ");
      return `${mark} judged ${where}: score ${j.score} (threshold ${j.threshold}${advisory}) ` +
        `by ${j.judge}${why ? `: ${why}` : ""}`;
    })
  );
}

/** The report as a person reads it: a row per case and model, the failures, the totals. */
export function formatReport(report: EvalReport, limits: Limits): string {
  const judged = report.cases.some((entry) => entry.judgements?.length);
  const rows = [
    ["CASE", "MODEL", "PASSED", "RATE", ...(judged ? ["SCORE"] : []), "TOKENS", "COST", "TIME"],
    ...report.cases.map((entry) => [
      entry.name,
      entry.model,
      `${entry.passed}/${entry.runs}`,
      percent(entry.passRate),
      ...(judged ? [meanScore(entry)] : []),
      String(entry.tokens),
      costWords(entry.cost, entry.runs),
      `${(entry.durationMs / 1000).toFixed(1)} s`,
    ]),
  ];
  const failures = report.cases.flatMap((entry) =>
    entry.failures.map((f) => `✗ ${entry.name} · ${entry.model} · run ${f.run}: ${f.reason}`)
  );
  const judgements = judgementLines(report);
  const verdict = failedLimits(report, limits).join("; ") || "ok";
  const totals =
    `${plural(report.runs, "run")}, ${report.passed} passed (${percent(report.passRate)}), ` +
    `${report.tokens} tokens, ${costWords(report.cost, report.runs)}: ${verdict}`;
  return [
    table(rows),
    ...(judgements.length > 0 ? [judgements.join("\n")] : []),
    ...(failures.length > 0 ? [failures.join("\n")] : []),
    totals,
  ].join("\n\n");
}
