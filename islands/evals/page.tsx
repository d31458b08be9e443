/**
 * The Evals page: an eval file pasted or picked from the config's folder, run on the server
 * (`POST /api/evals/run`), its case × model matrix filling as runs finish, a failed run's turn
 * one click away, and the kept runs: the latest shown on return, any two compared.
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { ErrorDetail } from "../../wire/errors.ts";
import type { EvalReport, EvalReportSummary } from "../../wire/evals.ts";
import { plural } from "../../wire/words.ts";
import { costWords } from "../../wire/usage.ts";
import { ApiError } from "../api.ts";
import { formatDuration, timeAgo } from "../format.ts";
import { describeError } from "../state.ts";
import { listEvalReports, readEvalReport, runEval } from "./api.ts";
import { FilePicker, Problems, Warnings } from "./form_parts.tsx";
import { type Cell, Matrix, percent } from "./matrix.tsx";
import { PastRuns } from "./past_runs.tsx";
import { FailedRun, Judgements } from "./turn.tsx";

/** What the editor holds at first: two cases the demo model and demo tools pass. */
const SAMPLE = `# An eval: cases run as chat turns on the workspace (docs/evals.md)
models: [demo]
cases:
  - name: adds two numbers
    prompt: Add 2 and 3 with a tool
    expect:
      calls:
        - tool: demo__add
          args: { a: 2, b: 3 }
      text: { contains: ["5"] }
      maxSteps: 3
      # A judge model scores the answer against a rubric (the demo model looks for its key terms)
      judge: { rubric: 'States the sum "5"' }
  - name: adds, then echoes
    # Turns run as one conversation, each checked on its own
    turns:
      - prompt: Add 4 and 5 with a tool
        expect: { calls: [{ tool: demo__add }] }
      - prompt: Echo "done" with a tool
        expect: { calls: [{ tool: demo__echo }] }
  - name: answers without tools
    prompt: Reply with the word pong
    expect:
      notCalled: [demo__add]
      text: { regex: "^pong$" }
`;

/** The state of the page's one run. */
interface Progress {
  status: "running" | "done" | "stopped" | "failed";
  runs: number;
  done: number;
  models: string[];
  /** Case names in the order their first run finished (the report's order replaces it). */
  cases: string[];
  cells: Map<string, Cell>;
  report?: EvalReport;
  message?: string;
}

/** A progress line folded into the page's state. */
function counted(progress: Progress, name: string, model: string, passed: boolean): Progress {
  const key = `${name}\n${model}`;
  const cell = progress.cells.get(key) ?? { runs: 0, passed: 0, final: false };
  const cells = new Map(progress.cells).set(key, {
    ...cell,
    runs: cell.runs + 1,
    passed: cell.passed + (passed ? 1 : 0),
  });
  const cases = progress.cases.includes(name) ? progress.cases : [...progress.cases, name];
  return { ...progress, cells, cases, done: progress.done + 1 };
}

/** The state once the report is in: its cases, in its order, with their failures. */
function reported(progress: Progress, report: EvalReport): Progress {
  const cells = new Map<string, Cell>();
  for (const entry of report.cases) {
    const scores = (entry.judgements ?? []).map((judgement) => judgement.score);
    cells.set(`${entry.name}\n${entry.model}`, {
      runs: entry.runs,
      passed: entry.passed,
      final: true,
      ...(scores.length > 0 &&
        { score: scores.reduce((sum, score) => sum + score, 0) / scores.length }),
    });
  }
  const cases = [...new Set(report.cases.map((entry) => entry.name))];
  return { ...progress, status: "done", report, cells, cases, models: report.models };
}

/** The page's state showing a finished (or kept) report. */
function shownReport(report: EvalReport): Progress {
  const empty: Progress = {
    status: "done",
    runs: report.runs,
    done: report.runs,
    models: report.models,
    cases: [],
    cells: new Map(),
  };
  return reported(empty, report);
}

/** The summary line of a finished run, and when it ran if it is a kept one. */
function Summary({ report }: { report: EvalReport }) {
  return (
    <>
      <p class="eval-summary" role="status">
        {report.passed} of {plural(report.runs, "run")} passed ({percent(report.passRate)}),{" "}
        {report.tokens} tokens, {report.cost ? `${costWords(report.cost, report.runs)}, ` : ""}
        {formatDuration(report.durationMs)} of turns
      </p>
      {report.createdAt
        ? (
          <p class="hint eval-when">
            Run {timeAgo(report.createdAt)}
            {report.file ? ` from ${report.file}` : ""}
          </p>
        )
        : null}
      {report.keepError ? <p class="hint">This run was not kept: {report.keepError}</p> : null}
    </>
  );
}

/** The Evals page. */
export default function EvalsPage() {
  const text = useSignal(SAMPLE);
  const models = useSignal("");
  const repeat = useSignal("1");
  const approve = useSignal(false);
  const progress = useSignal<Progress | null>(null);
  const problems = useSignal<{ message: string; details: ErrorDetail[] } | null>(null);
  const warnings = useSignal<{ path: string; message: string }[]>([]);
  const open = useSignal<string | null>(null);
  const running = useSignal<AbortController | null>(null);
  const kept = useSignal<EvalReportSummary[]>([]);
  const shown = useSignal<string | null>(null);
  const keptError = useSignal<string | null>(null);

  /** Shows a kept run in place of the page's results. */
  const show = async (id: string) => {
    try {
      const report = await readEvalReport(id);
      progress.value = shownReport(report);
      shown.value = id;
      open.value = null;
    } catch (failure) {
      keptError.value = describeError(failure);
    }
  };
  /** Reads the kept runs; on first load, shows the latest when nothing else is shown. */
  const refreshKept = async (showLatest: boolean) => {
    try {
      kept.value = await listEvalReports();
      keptError.value = null;
      const latest = kept.value[0];
      if (showLatest && latest && !progress.peek() && !running.peek()) await show(latest.id);
    } catch (failure) {
      keptError.value = describeError(failure);
    }
  };
  useEffect(() => {
    refreshKept(true);
    return () => running.peek()?.abort();
  }, []);

  const run = async (event: Event) => {
    event.preventDefault();
    const abort = new AbortController();
    running.value = abort;
    problems.value = null;
    warnings.value = [];
    open.value = null;
    progress.value = null;
    shown.value = null;
    const chosen = models.value.split(/[\s,]+/).filter((id) => id !== "");
    try {
      const lines = await runEval({
        eval: text.value,
        ...(chosen.length > 0 && { models: chosen }),
        repeat: Number(repeat.value) || 1,
        approve: approve.value ? "all" : "none",
      }, abort.signal);
      for await (const line of lines) {
        const now = progress.peek();
        if (line.type === "warning") {
          warnings.value = [...warnings.peek(), { path: line.path, message: line.message }];
        } else if (line.type === "start") {
          progress.value = {
            status: "running",
            runs: line.runs,
            done: 0,
            models: line.models,
            cases: [],
            cells: new Map(),
          };
        } else if (line.type === "run" && now) {
          progress.value = counted(now, line.case, line.model, line.passed);
        } else if (line.type === "report" && now) {
          progress.value = reported(now, line);
          shown.value = line.id ?? null;
          refreshKept(false);
        } else if (line.type === "error" && now) {
          progress.value = { ...now, status: "failed", message: line.message };
        }
      }
    } catch (failure) {
      const now = progress.peek();
      if (abort.signal.aborted) {
        if (now) progress.value = { ...now, status: "stopped" };
      } else if (failure instanceof ApiError && failure.details.length > 0) {
        problems.value = { message: failure.message, details: failure.details };
      } else if (now) {
        progress.value = { ...now, status: "failed", message: describeError(failure) };
      } else {
        problems.value = { message: describeError(failure), details: [] };
      }
    } finally {
      running.value = null;
    }
  };

  const state = progress.value;
  const openEntry = state?.report?.cases.find((entry) =>
    `${entry.name}\n${entry.model}` === open.value
  );
  return (
    <section class="evals-page" aria-labelledby="evals-title">
      <div class="evals-head">
        <h1 id="evals-title">Evals</h1>
        <p class="hint">
          Each case runs as a chat turn on each model and is checked against what it expects.
        </p>
      </div>
      <FilePicker onLoad={(loaded) => text.value = loaded} />
      <form class="eval-form" onSubmit={run}>
        <label for="eval-text">Eval (YAML or JSON)</label>
        <textarea
          id="eval-text"
          rows={16}
          spellcheck={false}
          value={text.value}
          onInput={(event) => text.value = event.currentTarget.value}
        />
        <div class="eval-options">
          {/* Each label stays on the row of its input, also on a phone. */}
          <span class="eval-field">
            <label for="eval-models">Models</label>
            <input
              id="eval-models"
              value={models.value}
              placeholder="the file's models"
              onInput={(event) => models.value = event.currentTarget.value}
            />
          </span>
          <span class="eval-field">
            <label for="eval-repeat">Repeat</label>
            <input
              id="eval-repeat"
              type="number"
              min={1}
              max={1000}
              value={repeat.value}
              onInput={(event) => repeat.value = event.currentTarget.value}
            />
          </span>
          <span class="eval-approve">
            <input
              id="eval-approve"
              type="checkbox"
              checked={approve.value}
              onChange={(event) => approve.value = event.currentTarget.checked}
            />
            <label for="eval-approve">Approve tool calls that ask</label>
          </span>
          {running.value
            ? (
              <button type="button" class="danger" onClick={() => running.peek()?.abort()}>
                Stop
              </button>
            )
            : <button type="submit" class="primary">Run</button>}
        </div>
      </form>
      {problems.value ? <Problems {...problems.value} /> : null}
      {warnings.value.length > 0 ? <Warnings warnings={warnings.value} /> : null}
      {state
        ? (
          <div class="eval-results">
            {state.status === "running"
              ? (
                <p class="eval-progress" role="status">
                  <progress max={state.runs} value={state.done} /> {state.done} of{" "}
                  {plural(state.runs, "run")} done
                </p>
              )
              : null}
            {state.status === "stopped" ? <p class="hint" role="status">Stopped.</p> : null}
            {state.message ? <p class="error" role="alert">{state.message}</p> : null}
            {state.report ? <Summary report={state.report} /> : null}
            <Matrix
              cases={state.cases}
              models={state.models}
              cell={(name, model) => state.cells.get(`${name}\n${model}`)}
              open={open.value}
              onOpen={(name, model) => {
                const key = `${name}\n${model}`;
                open.value = open.peek() === key ? null : key;
              }}
            />
            {openEntry
              ? (
                <section class="eval-failures" aria-label={`Runs of ${openEntry.name}`}>
                  <h2>
                    {openEntry.name} on {openEntry.model}: {plural(
                      openEntry.failures.length,
                      "failed run",
                    )}
                  </h2>
                  {openEntry.judgements?.length
                    ? <Judgements judgements={openEntry.judgements} />
                    : null}
                  {openEntry.failures.map((failure) => (
                    <FailedRun key={failure.run} failure={failure} />
                  ))}
                </section>
              )
              : null}
          </div>
        )
        : null}
      {keptError.value ? <p class="error" role="alert">{keptError.value}</p> : null}
      {kept.value.length > 0
        ? <PastRuns runs={kept.value} shown={shown.value} onShow={show} />
        : null}
    </section>
  );
}
