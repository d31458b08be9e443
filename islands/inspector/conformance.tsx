/**
 * Conformance in the inspector: Run conformance sends `POST /api/mcp/:id/conformance` and shows
 * each scenario as the official MCP conformance suite finishes it, then the totals
 * (docs/web-ui.md).
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { api, describeError } from "../state.ts";
import type {
  ConformanceLine,
  ConformanceReport,
  ConformanceScenarioResult,
} from "../../wire/conformance.ts";

/** The first failed check of a scenario, or why it was skipped. */
function problemOf(scenario: ConformanceScenarioResult): string {
  const failed = scenario.checks.find((check) => check.status === "FAILURE");
  if (failed) return `${failed.name}: ${failed.errorMessage ?? failed.description}`;
  return scenario.reason?.split("\n")[0] ?? "";
}

/** The scenarios finished so far, one row each. */
function ScenarioTable({ scenarios }: { scenarios: ConformanceScenarioResult[] }) {
  return (
    <table class="conformance-table">
      <thead>
        <tr>
          <th scope="col">Scenario</th>
          <th scope="col">Result</th>
          <th scope="col">Problem</th>
        </tr>
      </thead>
      <tbody>
        {scenarios.map((scenario) => (
          <tr key={scenario.name} class={`conformance-${scenario.status}`}>
            <td>
              <code>{scenario.name}</code>
            </td>
            <td>{scenario.status}</td>
            <td>{scenario.status === "passed" ? "" : problemOf(scenario)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The totals of a finished run. */
function summary(report: ConformanceReport): string {
  if (report.notRun) return `Not run: ${report.notRun}.`;
  return `${report.ok ? "Conformant" : "Not conformant"}: ${report.passed} passed, ` +
    `${report.failed} failed, ${report.skipped} skipped (via ${report.via}, ${report.suite}).`;
}

/** Run conformance: the suite's scenarios against this server, shown as they finish. */
export function ConformanceControls({ serverId }: { serverId: string }) {
  const running = useSignal(false);
  const only = useSignal("");
  const heading = useSignal<string | null>(null);
  const scenarios = useSignal<ConformanceScenarioResult[]>([]);
  const report = useSignal<ConformanceReport | null>(null);
  const error = useSignal<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), [serverId]);

  const run = async () => {
    const controller = new AbortController();
    abort.current = controller;
    running.value = true;
    heading.value = null;
    scenarios.value = [];
    report.value = null;
    error.value = null;
    const chosen = only.value.split(/[\s,]+/).filter((name) => name !== "");
    try {
      const lines = await api().postLines<ConformanceLine>(
        `/api/mcp/${encodeURIComponent(serverId)}/conformance`,
        chosen.length > 0 ? { scenarios: chosen } : {},
        controller.signal,
      );
      for await (const line of lines) {
        if (line.type === "start") heading.value = `Running ${line.suite} via ${line.via}…`;
        else if (line.type === "scenario") scenarios.value = [...scenarios.value, line.scenario];
        else if (line.type === "report") report.value = line.report;
        else if (line.type === "error") error.value = line.error.message;
      }
    } catch (failure) {
      if (!controller.signal.aborted) error.value = describeError(failure);
    } finally {
      running.value = false;
      abort.current = null;
    }
  };

  const inputId = `conformance-${serverId}`.replace(/[^\w-]/g, "_");
  return (
    <div class="server-controls conformance-controls" role="group" aria-label="Conformance">
      <span class="control">
        <button
          type="button"
          disabled={running.value}
          title="Run the official MCP conformance suite's server scenarios against this server"
          onClick={run}
        >
          {running.value ? "Running…" : "Run conformance"}
        </button>
        {running.value
          ? (
            <button type="button" onClick={() => abort.current?.abort()}>
              Stop
            </button>
          )
          : null}
        <label for={inputId}>scenarios</label>
        <input
          id={inputId}
          type="text"
          placeholder="all"
          value={only.value}
          title="Scenario names separated by spaces or commas, e.g. server-initialize tools-list"
          onInput={(event) => only.value = event.currentTarget.value}
        />
      </span>
      {error.value ? <span class="error" role="alert">{error.value}</span> : null}
      {heading.value || report.value
        ? (
          <div class="conformance-report" role="status">
            <p class={report.value ? (report.value.ok ? "ok" : "error") : ""}>
              {report.value ? summary(report.value) : heading.value}
            </p>
            {scenarios.value.length > 0 ? <ScenarioTable scenarios={scenarios.value} /> : null}
          </div>
        )
        : null}
    </div>
  );
}
