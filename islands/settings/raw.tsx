/** Settings: the whole config as JSON, saved through `PUT /api/config` with the same validation. */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { ApiError } from "../api.ts";
import { api, bootstrap, describeError, loadBootstrap } from "../state.ts";
import type { ErrorDetail } from "../../wire/errors.ts";
import { lineRange, linesOfPaths, parseErrorPlace } from "./raw_lines.ts";
import { CodeText } from "../code_text.tsx";

/** A problem of the text: a sentence, where it is (a path of the config), and its line. */
interface Problem {
  path?: string;
  message: string;
  line?: number;
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** Whether `text` holds the same JSON value as the compact JSON `stored`. */
function sameValue(text: string, stored: string): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === stored;
  } catch {
    return false;
  }
}

/** The problems of a refused write, each with the line of its path in `text`. */
function problemsOf(text: string, details: ErrorDetail[]): Problem[] {
  const lines = linesOfPaths(text, details.map((detail) => detail.path));
  return details.map(({ path, message }) => ({ path, message, line: lines.get(path) }));
}

/** Reads `text` as a config object, or says where it is not one. */
function parseText(text: string): { config: Record<string, unknown> } | { problem: Problem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const place = parseErrorPlace(text, message);
    return {
      problem: {
        message: `This is not valid JSON: ${message}`,
        line: place?.line,
      },
    };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return { problem: { message: "The config must be a JSON object ({...})." } };
  }
  return { config: value as Record<string, unknown> };
}

/** Starts a download of `text` as the file `name`. */
function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The raw config section. */
export function RawConfigSection() {
  const config = bootstrap.value?.config;
  const stored = JSON.stringify(config ?? {});
  const text = useSignal(pretty(config ?? {}));
  /** The stored config (compact) that the text started from. */
  const base = useSignal(stored);
  const problems = useSignal<Problem[]>([]);
  const summary = useSignal<string | null>(null);
  const saved = useSignal(false);
  const busy = useSignal(false);
  const exportError = useSignal<string | null>(null);
  const area = useRef<HTMLTextAreaElement>(null);

  // The stored config changed (another tab, the file on disk): follow it unless the text has
  // edits of its own, which are never replaced without asking.
  useEffect(() => {
    if (stored === base.peek()) return;
    if (sameValue(text.peek(), base.peek())) {
      text.value = pretty(config ?? {});
      base.value = stored;
    }
  }, [stored]);
  const outdated = stored !== base.value;

  const save = async (event: Event) => {
    event.preventDefault();
    saved.value = false;
    const parsed = parseText(text.value);
    if ("problem" in parsed) {
      summary.value = "Not saved: the text is not a config.";
      problems.value = [parsed.problem];
      return;
    }
    busy.value = true;
    try {
      const answer = await api().putConfig(parsed.config);
      base.value = JSON.stringify(answer.config);
      problems.value = [];
      summary.value = null;
      saved.value = true;
      await loadBootstrap();
    } catch (error) {
      // The server lists schema and reference problems together.
      const details = error instanceof ApiError ? error.details : [];
      summary.value = details.length > 0
        ? `Not saved: the config has ${details.length} problem${details.length === 1 ? "" : "s"}.`
        : `Not saved: ${describeError(error)}`;
      problems.value = problemsOf(text.value, details);
    } finally {
      busy.value = false;
    }
  };

  const reload = () => {
    text.value = pretty(config ?? {});
    base.value = stored;
    problems.value = [];
    summary.value = null;
    saved.value = false;
  };

  const showLine = (line: number) => {
    const element = area.current;
    if (!element) return;
    const [start, end] = lineRange(text.value, line);
    element.focus();
    element.setSelectionRange(start, end);
  };

  const exportRedacted = async () => {
    exportError.value = null;
    try {
      const value = await api().json<unknown>("GET", "/api/config/export?redact=1");
      download(`${pretty(value)}\n`, "service.redacted.json");
    } catch (error) {
      exportError.value = describeError(error);
    }
  };

  const invalid = problems.value.length > 0;
  return (
    <section class="settings-section raw-config" aria-labelledby="section-heading">
      <header class="section-head">
        <h2 id="section-heading">Raw config</h2>
        <span class="spacer" />
        <button type="button" onClick={exportRedacted}>Download (secrets redacted)</button>
      </header>
      <p class="section-intro">
        The whole <code>service.json</code>{" "}
        as stored (defaults are not written out). Saving checks it like every other change; nothing
        is written unless all of it is valid. File:{" "}
        <code class="config-path">{bootstrap.value?.configPath}</code>
      </p>
      {exportError.value ? <p class="error" role="alert">{exportError.value}</p> : null}
      {outdated
        ? (
          <p class="note warn" role="status">
            The stored config changed since you started editing.{" "}
            <button type="button" onClick={reload}>Discard my edits and load it</button>
          </p>
        )
        : null}
      <form class="raw-form" onSubmit={save} noValidate>
        <label for="raw-config-text">Config (JSON)</label>
        <textarea
          id="raw-config-text"
          ref={area}
          class="mono raw-text"
          rows={Math.min(40, Math.max(12, text.value.split("\n").length + 1))}
          spellcheck={false}
          autoComplete="off"
          value={text.value}
          aria-invalid={invalid}
          aria-describedby={invalid ? "raw-config-problems" : undefined}
          onInput={(event) => {
            text.value = event.currentTarget.value;
            saved.value = false;
          }}
        />
        {summary.value || invalid
          ? (
            <div class="raw-problems" id="raw-config-problems" role="alert">
              {summary.value ? <p class="error">{summary.value}</p> : null}
              {invalid
                ? (
                  <ul aria-label="Problems">
                    {problems.value.map((problem, index) => (
                      <li key={index} class="raw-problem">
                        {problem.path !== undefined
                          ? <code>{problem.path || "(top level)"}</code>
                          : null}{" "}
                        <span>
                          <CodeText text={problem.message} />
                        </span>
                        {problem.line
                          ? (
                            <button
                              type="button"
                              class="line-link"
                              onClick={() => showLine(problem.line!)}
                            >
                              line {problem.line}
                            </button>
                          )
                          : null}
                      </li>
                    ))}
                  </ul>
                )
                : null}
            </div>
          )
          : null}
        <div class="form-actions">
          <button type="submit" class="primary" disabled={busy.value}>
            {busy.value ? "Saving…" : "Save"}
          </button>
          <button type="button" onClick={reload} disabled={busy.value}>Revert</button>
          <span class="form-status" role="status">{saved.value ? "Saved" : ""}</span>
        </div>
      </form>
    </section>
  );
}
