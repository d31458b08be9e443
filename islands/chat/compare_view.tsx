/**
 * A compare turn: its columns side by side (stacked on a phone), each with its answer; under
 * them the summary (time, tokens, cost, tool calls, steps) and "Continue with this one".
 */
import { useContext } from "preact/hooks";
import { useSignal } from "@preact/signals";
import { describeError } from "../state.ts";
import { formatDuration } from "../format.ts";
import { AnswerView } from "./answer.tsx";
import { ChatContext } from "./context.ts";
import type { Turn } from "./model.ts";
import type { CompareColumnSummary } from "../../wire/chat.ts";
import { priceWords } from "../../wire/usage.ts";
import type { Interaction } from "../../wire/interactions.ts";

/** Input and output tokens, or a dash. */
function tokenWords(column: CompareColumnSummary): string {
  const { inputTokens, outputTokens } = column.usage;
  if (inputTokens === undefined && outputTokens === undefined) return "–";
  return `${inputTokens ?? "–"} in / ${outputTokens ?? "–"} out`;
}

/** The columns of a compare turn and its summary. */
export function CompareColumns({ turn, pending }: { turn: Turn; pending: Interaction[] }) {
  const chat = useContext(ChatContext);
  const compare = turn.compare!;
  const summary = compare.summary.value;
  const picked = compare.picked.value;
  const messages = compare.messages.value;
  const failure = useSignal<string | undefined>(undefined);
  const isLast = chat?.turns.value.at(-1) === turn;
  const busy = chat?.running.value !== null;
  const pick = async (column: number) => {
    failure.value = undefined;
    try {
      await chat?.pick(turn, column);
    } catch (error) {
      failure.value = `Cannot continue with that column: ${describeError(error)}`;
    }
  };
  return (
    <div class="compare">
      <div class="compare-columns" style={`--compare-columns: ${compare.columns.length}`}>
        {compare.columns.map((column, index) => {
          const label = summary?.[index]?.label ?? compare.labels[index];
          return (
            <section
              key={index}
              class={`compare-column${picked === index ? " compare-picked" : ""}`}
              aria-label={`Column ${index + 1}: ${label}`}
            >
              <h3 class="compare-label">
                <span class="compare-index">{index + 1}</span> {label}
                {picked === index && summary
                  ? (
                    <span class="badge" title="The conversation goes on with this answer">
                      Continuing
                    </span>
                  )
                  : null}
              </h3>
              <AnswerView turn={column} pending={pending} column />
            </section>
          );
        })}
      </div>
      {summary
        ? (
          <table class="compare-summary">
            <caption class="visually-hidden">How each column went</caption>
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">Time</th>
                <th scope="col">Tokens</th>
                <th scope="col">Cost</th>
                <th scope="col">Tool calls</th>
                <th scope="col">Steps</th>
                <th scope="col">
                  <span class="visually-hidden">Continue</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {summary.map((column) => (
                <tr key={column.column} class={column.error ? "compare-failed" : undefined}>
                  <th scope="row">
                    {column.column + 1}. {column.label}
                    {column.error ? <span class="error">{column.error}</span> : null}
                  </th>
                  <td data-label="Time">{formatDuration(column.ms)}</td>
                  <td data-label="Tokens">{tokenWords(column)}</td>
                  <td data-label="Cost" title={column.costUnknown}>{priceWords(column)}</td>
                  <td data-label="Tool calls">{column.toolCalls}</td>
                  <td data-label="Steps">{column.steps}</td>
                  <td>
                    {picked === column.column ? <span class="note">Continuing</span> : (
                      <button
                        type="button"
                        class="chip"
                        disabled={!isLast || busy || !messages[column.column]}
                        title={!isLast
                          ? "Only the last turn's column can be changed"
                          : !messages[column.column]
                          ? "This column did not finish"
                          : "Go on with this column's answer"}
                        onClick={() => void pick(column.column)}
                      >
                        Continue with this one
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
        : null}
      {failure.value ? <p class="error" role="alert">{failure.value}</p> : null}
      {turn.status.value === "error" && summary
        ? <p class="error" role="alert">{turn.error.value}</p>
        : null}
      {turn.status.value === "stopped" ? <p class="note" role="status">Stopped.</p> : null}
    </div>
  );
}
