/** A failed eval run: which expectations failed, and its turn as the chunks told it. */
import type { ChatChunk } from "../../wire/chat.ts";
import type { EvalFailure, EvalJudgement } from "../../wire/evals.ts";
import { priceWords } from "../../wire/usage.ts";
import { RunEventsLink } from "../events/link.tsx";
import { formatDuration, showValue } from "../format.ts";

/** A tool result's output, clipped for the transcript. */
function clipped(value: unknown, max = 600): string {
  const text = showValue(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The turn's chunks as a transcript: text, tool calls with their results, steps, the ending. */
function Transcript({ chunks }: { chunks: ChatChunk[] }) {
  const results = new Map(
    chunks.flatMap((chunk) => chunk.type === "tool-result" ? [[chunk.id, chunk] as const] : []),
  );
  const items = [];
  let text = "";
  let step = 1;
  const flushText = () => {
    if (text.trim() !== "") {
      items.push(<p class="eval-turn-text" key={`text-${items.length}`}>{text}</p>);
    }
    text = "";
  };
  for (const chunk of chunks) {
    if (chunk.type === "text") {
      text += chunk.text;
      continue;
    }
    if (chunk.type === "tool-call") {
      flushText();
      const result = results.get(chunk.id);
      items.push(
        <div class="eval-turn-call" key={chunk.id}>
          <div>
            <code>{chunk.name}</code> <code class="eval-args">{JSON.stringify(chunk.input)}</code>
          </div>
          {result
            ? (
              <pre class={result.isError ? "eval-result error" : "eval-result"}>
                {result.isError ? "error: " : "→ "}
                {clipped(result.output)}
              </pre>
            )
            : <p class="hint">no result</p>}
        </div>,
      );
    } else if (chunk.type === "step") {
      flushText();
      items.push(
        <p class="eval-turn-step hint" key={`step-${step}`}>
          step {step++} ended: {chunk.finishReason}
        </p>,
      );
    } else if (chunk.type === "error") {
      flushText();
      items.push(<p class="error" key="error" role="alert">The turn failed: {chunk.message}</p>);
    } else if (chunk.type === "finish") {
      flushText();
      items.push(
        <p class="hint" key="finish">
          finished in {formatDuration(chunk.durationMs)}
          {chunk.usage.totalTokens !== undefined ? `, ${chunk.usage.totalTokens} tokens` : ""}
          {chunk.cost !== undefined ? `, ${priceWords(chunk)}` : ""}
        </p>,
      );
    }
  }
  flushText();
  return <div class="eval-turn-transcript">{items}</div>;
}

/** One failed run: its reasons, its transcript, a link to its events and the raw chunks. */
export function FailedRun({ failure }: { failure: EvalFailure }) {
  const start = failure.chunks.find((chunk) => chunk.type === "start");
  return (
    <article class="eval-failure" aria-label={`Run ${failure.run}`}>
      <h3>Run {failure.run}{failure.turn !== undefined ? `, turn ${failure.turn}` : ""}</h3>
      <ul class="eval-reasons">
        {failure.reasons.map((reason) => <li key={reason}>{reason}</li>)}
      </ul>
      <Transcript chunks={failure.chunks} />
      {start?.type === "start" ? <RunEventsLink runId={start.runId} /> : null}
      <details>
        <summary>Chunks ({failure.chunks.length})</summary>
        <pre class="eval-chunks">{JSON.stringify(failure.chunks, null, 2)}</pre>
      </details>
    </article>
  );
}

/** The judge's scores of a case's judged turns: score against threshold, and its reasons. */
export function Judgements({ judgements }: { judgements: EvalJudgement[] }) {
  return (
    <section class="eval-judgements" aria-label="Judged turns">
      <h3>Judged</h3>
      <ul>
        {judgements.map((j) => (
          <li
            key={`${j.run}-${j.turn ?? 0}`}
            class={j.passed ? "pass" : j.gate ? "fail" : "advisory"}
          >
            <strong>
              Run {j.run}
              {j.turn !== undefined ? `, turn ${j.turn}` : ""}: score {j.score}
            </strong>{" "}
            (threshold {j.threshold}
            {j.gate ? "" : ", advisory"}, judged by <code>{j.judge}</code>)
            {j.error ? <p class="error">{j.error}</p> : null}
            {j.reasons.length > 0
              ? (
                <ul class="eval-judge-reasons">
                  {j.reasons.map((reason, i) => <li key={i}>{reason}</li>)}
                </ul>
              )
              : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
