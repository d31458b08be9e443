/** An eval report as JUnit XML: one suite per model, one test case per eval case. */
import { type JUnitCase, junitXml } from "../junit.ts";
import type { EvalCaseReport, EvalReport } from "../../wire/evals.ts";
import { costWords } from "../../wire/usage.ts";

/** The percentage of a rate, e.g. `66.7%`. */
export function percent(rate: number): string {
  return `${Math.round(rate * 1000) / 10}%`;
}

function junitCase(entry: EvalCaseReport, minPassRate: number): JUnitCase {
  const summary = `${entry.passed} of ${entry.runs} runs passed (${percent(entry.passRate)}), ` +
    `${entry.tokens} tokens, ${costWords(entry.cost, entry.runs)}`;
  const details = entry.failures.map((failure) => `run ${failure.run}: ${failure.reason}`);
  return {
    name: entry.name,
    className: `eval.${entry.model}`,
    timeMs: entry.durationMs,
    systemOut: [summary, ...details].join("\n"),
    ...(entry.passRate < minPassRate && {
      failure: {
        message: `pass rate ${percent(entry.passRate)} is below ${percent(minPassRate)}: ` +
          (entry.failures[0]?.reason ?? ""),
        text: details.join("\n"),
      },
    }),
  };
}

/** The report as JUnit XML; a case and model fails below `minPassRate` (default 1). */
export function evalJunit(report: EvalReport, minPassRate = 1): string {
  const suites = report.models.map((model) => ({
    name: `eval ${model}`,
    cases: report.cases.filter((entry) => entry.model === model).map((entry) =>
      junitCase(entry, minPassRate)
    ),
  }));
  return junitXml(suites.filter((suite) => suite.cases.length > 0), "lass eval");
}
