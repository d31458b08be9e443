/**
 * The kept eval runs (`GET /api/evals/reports`): a list to show any of them again, and two of
 * them compared per case and model (`GET /api/evals/reports/:id/diff`).
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { EvalDiff, EvalDiffSide, EvalReportSummary } from "../../wire/evals.ts";
import { timeAgo } from "../format.ts";
import { describeError } from "../state.ts";
import { diffEvalReports } from "./api.ts";
import { percent } from "./matrix.tsx";

/** `+3`, `-1.5`, `±0`: a signed number with `digits` decimals. */
function signed(value: number, digits = 0): string {
  const rounded = Number(value.toFixed(digits));
  if (rounded === 0) return "±0";
  return `${rounded > 0 ? "+" : ""}${rounded.toFixed(digits)}`;
}

/** A run as a choice: when, which file, its pass rate. */
function runLabel(run: EvalReportSummary): string {
  const when = new Date(run.createdAt).toLocaleString();
  return `${when} · ${run.file ?? "pasted eval"} · ${percent(run.passRate)}`;
}

/** One number of both sides and its change: `120 → 80 (-40)`, or the side that has it. */
function change(
  sides: { baseline?: EvalDiffSide; current?: EvalDiffSide },
  pick: (side: EvalDiffSide) => number | undefined,
  format: (value: number) => string,
  formatChange: (value: number) => string,
): string {
  const before = sides.baseline && pick(sides.baseline);
  const after = sides.current && pick(sides.current);
  if (before === undefined && after === undefined) return "–";
  if (before === undefined) return format(after!);
  if (after === undefined) return format(before);
  return `${format(before)} → ${format(after)} (${formatChange(after - before)})`;
}

/** The pass rate of both sides, or that the case is new or gone. */
function passChange(sides: { baseline?: EvalDiffSide; current?: EvalDiffSide }): string {
  if (!sides.baseline) return `new: ${percent(sides.current!.passRate)}`;
  if (!sides.current) return `removed (was ${percent(sides.baseline.passRate)})`;
  const points = (sides.current.passRate - sides.baseline.passRate) * 100;
  return `${percent(sides.baseline.passRate)} → ${percent(sides.current.passRate)} (${
    signed(points)
  } pts)`;
}

/** Two runs compared: a row per case and model; a pass rate that fell is marked. */
export function DiffTable({ diff }: { diff: EvalDiff }) {
  return (
    <div class="eval-scroll">
      <p class="eval-diff-summary" role="status">
        {percent(diff.baseline.passRate)} → {percent(diff.current.passRate)} in all:{" "}
        {diff.regressions === 0
          ? "no pass rate fell"
          : `${diff.regressions} pass ${diff.regressions === 1 ? "rate" : "rates"} fell`}
      </p>
      <table class="eval-diff">
        <thead>
          <tr>
            <th scope="col">Case</th>
            <th scope="col">Model</th>
            <th scope="col">Pass rate</th>
            <th scope="col">Tokens/run</th>
            <th scope="col">Cost/run</th>
            <th scope="col">Time/run</th>
          </tr>
        </thead>
        <tbody>
          {diff.rows.map((row) => (
            <tr
              key={`${row.name}\n${row.model}`}
              class={row.regression ? "regression" : row.status}
              data-case={row.name}
              data-model={row.model}
            >
              <th scope="row">
                {row.regression ? <span aria-label="pass rate fell">▼</span> : null}
                {row.name}
              </th>
              <td>{row.model}</td>
              <td>{passChange(row)}</td>
              <td>{change(row, (s) => s.tokensPerRun, (v) => v.toFixed(0), (v) => signed(v))}</td>
              <td>
                {change(row, (s) => s.usdPerRun, (v) => `$${v.toFixed(4)}`, (v) => signed(v, 4))}
              </td>
              <td>
                {change(
                  row,
                  (s) => s.msPerRun,
                  (v) => `${(v / 1000).toFixed(1)} s`,
                  (v) => `${signed(v / 1000, 1)} s`,
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface PastRunsProps {
  runs: EvalReportSummary[];
  /** The id of the run the page shows. */
  shown: string | null;
  onShow: (id: string) => void;
}

/** The kept runs, newest first: each can be shown again, and any two compared. */
export function PastRuns({ runs, shown, onShow }: PastRunsProps) {
  const baseline = useSignal(runs[1]?.id ?? "");
  const current = useSignal(runs[0]?.id ?? "");
  const diff = useSignal<EvalDiff | null>(null);
  const error = useSignal<string | null>(null);
  // A new run becomes the compared one, the one before it the baseline.
  useEffect(() => {
    current.value = runs[0]?.id ?? "";
    baseline.value = runs[1]?.id ?? "";
  }, [runs[0]?.id]);
  const compare = async (event: Event) => {
    event.preventDefault();
    error.value = null;
    try {
      diff.value = await diffEvalReports(current.value, baseline.value);
    } catch (failure) {
      diff.value = null;
      error.value = describeError(failure);
    }
  };
  const choices = runs.map((run) => <option key={run.id} value={run.id}>{runLabel(run)}</option>);
  return (
    <section class="eval-past" aria-labelledby="eval-past-title">
      <h2 id="eval-past-title">Past runs</h2>
      <div class="eval-scroll">
        <table class="eval-runs">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Passed</th>
              <th scope="col">File</th>
              <th scope="col">Models</th>
              <th scope="col">
                <span class="visually-hidden">Show</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {runs.map((run) => (
              <tr key={run.id} data-run={run.id} class={run.id === shown ? "shown" : undefined}>
                <td title={run.createdAt}>{timeAgo(run.createdAt)}</td>
                <td>{run.passed}/{run.runs} · {percent(run.passRate)}</td>
                <td>{run.file ?? "pasted eval"}</td>
                <td>{run.models.join(", ")}</td>
                <td>
                  <button
                    type="button"
                    aria-pressed={run.id === shown}
                    aria-label={`Show the run of ${run.createdAt}`}
                    onClick={() =>
                      onShow(run.id)}
                  >
                    Show
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {runs.length >= 2
        ? (
          <form class="eval-compare" onSubmit={compare}>
            <label for="eval-baseline">Baseline</label>
            <select
              id="eval-baseline"
              value={baseline.value}
              onChange={(event) => baseline.value = event.currentTarget.value}
            >
              {choices}
            </select>
            <label for="eval-current">Compared run</label>
            <select
              id="eval-current"
              value={current.value}
              onChange={(event) => current.value = event.currentTarget.value}
            >
              {choices}
            </select>
            <button type="submit">Compare</button>
          </form>
        )
        : <p class="hint">Run an eval twice to compare two runs.</p>}
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      {diff.value ? <DiffTable diff={diff.value} /> : null}
    </section>
  );
}
