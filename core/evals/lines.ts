/** An eval run as the lines of `POST /api/evals/run`: progress as it happens, then the report. */
import type { ErrorDetail } from "../../wire/errors.ts";
import type { EvalLine } from "../../wire/evals.ts";
import type { PreparedEval } from "./runner.ts";

/**
 * Runs a prepared eval and yields a `warning` line per warning, its progress lines, then
 * `{"type": "report", ...}` (or one `error` line). Aborting `signal`, or ending the generator
 * early, stops the runs.
 */
export async function* evalLines(
  prepared: PreparedEval,
  options: { signal: AbortSignal; warnings?: ErrorDetail[] },
): AsyncGenerator<EvalLine> {
  const { signal } = options;
  const queue: EvalLine[] = (options.warnings ?? []).map((warning) => ({
    type: "warning",
    ...warning,
  }));
  let wake: (() => void) | undefined;
  const push = (line: EvalLine) => {
    queue.push(line);
    wake?.();
  };
  const abort = new AbortController();
  const onAbort = () => abort.abort(signal.reason);
  signal.addEventListener("abort", onAbort, { once: true });
  let finished = false;
  prepared.run({ signal: abort.signal, onProgress: push })
    .then(
      (report) => push({ type: "report", ...report }),
      (error) => {
        if (!abort.signal.aborted) push({ type: "error", message: (error as Error).message });
      },
    )
    .finally(() => {
      finished = true;
      wake?.();
    });
  try {
    while (true) {
      const line = queue.shift();
      if (line) {
        yield line;
        continue;
      }
      if (finished) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Ended early (the client went away): the runs in progress stop.
    if (!finished) abort.abort(new DOMException("the client went away", "AbortError"));
  }
}
