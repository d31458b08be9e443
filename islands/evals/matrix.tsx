/** The case × model matrix of an eval: pass counts and rates, a cell with failures opens them. */

/** What a cell shows: the runs so far and how many passed. */
export interface Cell {
  runs: number;
  passed: number;
  /** Whether the report with the failed runs' turns is in. */
  final: boolean;
  /** The mean score of the judged turns, when the case has `expect.judge`. */
  score?: number;
}

/** `67%`: a rate as a whole percentage (one decimal below 10%). */
export function percent(rate: number): string {
  const value = rate * 100;
  return `${value < 10 && value > 0 ? value.toFixed(1) : Math.round(value)}%`;
}

/** The class of a cell by its pass rate. */
function grade(cell: Cell): string {
  if (cell.passed === cell.runs) return "pass";
  return cell.passed === 0 ? "fail" : "partial";
}

interface MatrixProps {
  cases: string[];
  models: string[];
  cell: (name: string, model: string) => Cell | undefined;
  /** The open cell, `case\nmodel`. */
  open: string | null;
  onOpen: (name: string, model: string) => void;
}

/** A table: a row per case, a column per model. */
export function Matrix({ cases, models, cell, open, onOpen }: MatrixProps) {
  return (
    <table class="eval-matrix">
      <thead>
        <tr>
          <th scope="col">Case</th>
          {models.map((model) => <th scope="col" key={model}>{model}</th>)}
        </tr>
      </thead>
      <tbody>
        {cases.map((name) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            {models.map((model) => {
              const value = cell(name, model);
              if (!value || value.runs === 0) {
                return <td key={model} class="eval-cell waiting">…</td>;
              }
              const label = `${value.passed}/${value.runs} · ${percent(value.passed / value.runs)}${
                value.score !== undefined ? ` · score ${value.score.toFixed(2)}` : ""
              }`;
              const failed = value.passed < value.runs;
              const what = failed ? "failed" : "judged";
              return (
                <td
                  key={model}
                  class={`eval-cell ${grade(value)}`}
                  data-case={name}
                  data-model={model}
                >
                  {(failed || value.score !== undefined) && value.final
                    ? (
                      <button
                        type="button"
                        aria-pressed={open === `${name}\n${model}`}
                        aria-label={`${label}: show the ${what} runs of ${name} on ${model}`}
                        onClick={() => onOpen(name, model)}
                      >
                        {label}
                      </button>
                    )
                    : label}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
