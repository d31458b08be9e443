/**
 * The Evals page: an eval file pasted or picked from the config's folder, run on the server
 * (`POST /api/evals/run`), its case × model matrix filling as runs finish, and a failed run's
 * turn one click away.
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { ErrorDetail } from "../../wire/errors.ts";
import type { EvalFileList, EvalReport } from "../../wire/evals.ts";
import { plural } from "../../wire/words.ts";
import { ApiError } from "../api.ts";
import { formatDuration } from "../format.ts";
import { describeError } from "../state.ts";
import { listEvalFiles, readEvalFile, runEval } from "./api.ts";
import { type Cell, Matrix, percent } from "./matrix.tsx";
import { FailedRun } from "./turn.tsx";

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

/** The files beside the config, and loading one into the editor. */
function FilePicker({ onLoad }: { onLoad: (text: string) => void }) {
  const list = useSignal<EvalFileList | null>(null);
  const chosen = useSignal("");
  const error = useSignal<string | null>(null);
  useEffect(() => {
    listEvalFiles().then((files) => {
      list.value = files;
      chosen.value = files.files[0]?.name ?? "";
    }, (failure) => error.value = describeError(failure));
  }, []);
  const load = async () => {
    error.value = null;
    try {
      onLoad((await readEvalFile(chosen.value)).text);
    } catch (failure) {
      error.value = describeError(failure);
    }
  };
  if (error.value) return <p class="error" role="alert">{error.value}</p>;
  if (!list.value) return <p class="hint">Looking for eval files…</p>;
  if (list.value.files.length === 0) {
    return (
      <p class="hint">
        No <code>*.eval.yaml</code> files in <code>{list.value.folder}</code>, the config's folder.
      </p>
    );
  }
  return (
    <div class="eval-files">
      <label for="eval-file">File in {list.value.folder}</label>
      <select
        id="eval-file"
        value={chosen.value}
        onChange={(event) => chosen.value = event.currentTarget.value}
      >
        {list.value.files.map((file) => (
          <option key={file.name} value={file.name}>{file.name}</option>
        ))}
      </select>
      <button type="button" onClick={load}>Load</button>
    </div>
  );
}

/** The problems of a refused eval, each at its path. */
function Problems({ message, details }: { message: string; details: ErrorDetail[] }) {
  return (
    <div class="eval-problems" role="alert">
      {/* With details, the message's summary (up to its first colon) heads their list. */}
      <p class="error">{details.length > 0 ? `${message.replace(/: .*$/s, "")}:` : message}</p>
      {details.length > 0
        ? (
          <ul>
            {details.map((d) => (
              <li key={`${d.path}:${d.message}`}>
                <code>{d.path || "(top level)"}</code>: {d.message}
              </li>
            ))}
          </ul>
        )
        : null}
    </div>
  );
}

/** Warnings about the eval that still runs (a misspelt extra field), each at its path. */
function Warnings({ warnings }: { warnings: { path: string; message: string }[] }) {
  return (
    <ul class="eval-warnings" aria-label="Warnings">
      {warnings.map((w) => (
        <li key={`${w.path}:${w.message}`}>
          <code>{w.path}</code>: {w.message}
        </li>
      ))}
    </ul>
  );
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
    cells.set(`${entry.name}\n${entry.model}`, {
      runs: entry.runs,
      passed: entry.passed,
      final: true,
    });
  }
  const cases = [...new Set(report.cases.map((entry) => entry.name))];
  return { ...progress, status: "done", report, cells, cases, models: report.models };
}

/** The summary line of a finished run. */
function Summary({ report }: { report: EvalReport }) {
  return (
    <p class="eval-summary" role="status">
      {report.passed} of {plural(report.runs, "run")} passed ({percent(report.passRate)}),{" "}
      {report.tokens} tokens, {formatDuration(report.durationMs)} of turns
    </p>
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
  useEffect(() => () => running.peek()?.abort(), []);

  const run = async (event: Event) => {
    event.preventDefault();
    const abort = new AbortController();
    running.value = abort;
    problems.value = null;
    warnings.value = [];
    open.value = null;
    progress.value = null;
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
          <label for="eval-models">Models</label>
          <input
            id="eval-models"
            value={models.value}
            placeholder="the file's models"
            onInput={(event) => models.value = event.currentTarget.value}
          />
          <label for="eval-repeat">Repeat</label>
          <input
            id="eval-repeat"
            type="number"
            min={1}
            max={1000}
            value={repeat.value}
            onInput={(event) => repeat.value = event.currentTarget.value}
          />
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
                <section class="eval-failures" aria-label={`Failed runs of ${openEntry.name}`}>
                  <h2>
                    {openEntry.name} on {openEntry.model}: {plural(
                      openEntry.failures.length,
                      "failed run",
                    )}
                  </h2>
                  {openEntry.failures.map((failure) => (
                    <FailedRun key={failure.run} failure={failure} />
                  ))}
                </section>
              )
              : null}
          </div>
        )
        : null}
    </section>
  );
}
