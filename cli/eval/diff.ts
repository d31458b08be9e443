/** `lass eval --baseline`: a report compared with an earlier one, as a table a person reads. */
import { percent } from "../../core/evals/junit.ts";
import type { EvalDiff, EvalDiffSide } from "../../wire/evals.ts";
import { plural } from "../../wire/words.ts";
import { table } from "../table.ts";

/** `+3`, `-1.5`, `±0`: a signed change with `digits` decimals. */
function signed(value: number, digits = 0): string {
  const rounded = Number(value.toFixed(digits));
  if (rounded === 0) return "±0";
  return `${rounded > 0 ? "+" : ""}${rounded.toFixed(digits)}`;
}

/** `50% → 100% (+50 pts)`, or one side alone for an added or removed case. */
function passCell(baseline?: EvalDiffSide, current?: EvalDiffSide): string {
  if (!baseline) return `new: ${percent(current!.passRate)}`;
  if (!current) return `removed (was ${percent(baseline.passRate)})`;
  const points = (current.passRate - baseline.passRate) * 100;
  return `${percent(baseline.passRate)} → ${percent(current.passRate)} (${signed(points)} pts)`;
}

/** A per-run number of both sides and its change, or `-` when a side lacks it. */
function numberCell(
  pick: (side: EvalDiffSide) => number | undefined,
  format: (value: number) => string,
  sides: { baseline?: EvalDiffSide; current?: EvalDiffSide },
  signedFormat: (value: number) => string,
): string {
  const before = sides.baseline && pick(sides.baseline);
  const after = sides.current && pick(sides.current);
  if (before === undefined && after === undefined) return "-";
  if (before === undefined) return format(after!);
  if (after === undefined) return format(before);
  return `${format(before)} → ${format(after)} (${signedFormat(after - before)})`;
}

/** The diff as a table (a row per case and model) and a line of totals. */
export function formatDiff(diff: EvalDiff, baselineName: string): string {
  const rows = [
    ["CASE", "MODEL", "PASS RATE", "TOKENS/RUN", "COST/RUN", "TIME/RUN"],
    ...diff.rows.map((row) => {
      const sides = { baseline: row.baseline, current: row.current };
      return [
        `${row.regression ? "▼ " : ""}${row.name}`,
        row.model,
        passCell(row.baseline, row.current),
        numberCell((s) => s.tokensPerRun, (v) => v.toFixed(0), sides, (v) => signed(v)),
        numberCell((s) => s.usdPerRun, (v) => `$${v.toFixed(4)}`, sides, (v) => signed(v, 4)),
        numberCell(
          (s) => s.msPerRun,
          (v) => `${(v / 1000).toFixed(1)} s`,
          sides,
          (v) => `${signed(v / 1000, 1)} s`,
        ),
      ];
    }),
  ];
  const verdict = diff.regressions === 0
    ? "no pass rate fell"
    : `${plural(diff.regressions, "pass rate")} fell`;
  return [
    `Against ${baselineName}:`,
    table(rows),
    `${percent(diff.baseline.passRate)} → ${percent(diff.current.passRate)} in all: ${verdict}`,
  ].join("\n\n");
}
