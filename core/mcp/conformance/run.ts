/**
 * Conformance of one configured tool server: where the suite reaches it (a Streamable HTTP
 * server directly, any other through Lass's `/mcp/:id` proxy), the suite's run, and the report,
 * as the lines of `POST /api/mcp/:id/conformance`.
 */
import {
  ACTIVE_SCENARIOS,
  CONFORMANCE_SUITE,
  type ConformanceLine,
  type ConformanceReport,
  type ConformanceScenarioResult,
  type ConformanceVia,
  HTTP_TRANSPORT_SCENARIOS,
  SERVER_SCENARIOS,
  type ServerScenario,
} from "../../../wire/conformance.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import { hasEnvRef } from "../../../wire/config/env_refs.ts";
import { LassError } from "../../errors.ts";
import { runSuite } from "./runner.ts";
import { findSuiteRuntime, type SuiteRuntime, SuiteUnavailableError } from "./runtime.ts";

/** What a run needs besides the server's record. */
export interface ConformanceOptions {
  /** Scenarios to run; empty or absent: the whole suite. */
  scenarios?: readonly string[];
  /** `auto` (default): a plain Streamable HTTP server directly, any other through the proxy. */
  via?: ConformanceVia | "auto";
  /** The origin Lass answers on (the proxy's is `<origin>/mcp/<id>`). */
  origin: string;
  /** The token the proxy needs (the suite has no way to send a header: it goes in the URL). */
  token: string;
  /** How long one scenario may run; default 60 s. */
  scenarioTimeoutMs?: number;
  signal?: AbortSignal;
  /** Finds the runtime; tests pass their own. */
  runtime?: () => Promise<SuiteRuntime>;
}

/** The suite's name with its pinned version. */
export const SUITE_NAME = `${CONFORMANCE_SUITE.package}@${CONFORMANCE_SUITE.version}`;

/**
 * How the suite reaches a server. A Streamable HTTP server without headers or OAuth settings is
 * tested at its own URL; one with them goes through the proxy, which adds them (and Lass's
 * sign-in); stdio, SSE and replay servers only speak Streamable HTTP through the proxy.
 */
export function conformanceVia(
  record: McpServerConfig,
  asked: ConformanceVia | "auto" = "auto",
): ConformanceVia {
  if (asked !== "auto") return asked;
  const plainHttp = record.transport === "http" && !record.headers && !record.oauth &&
    !hasEnvRef(record.url ?? "");
  return plainHttp ? "direct" : "proxy";
}

/** Throws a 400 naming the scenarios the pinned suite does not have. */
export function checkScenarios(scenarios: readonly string[]): void {
  const unknown = scenarios.filter((name) =>
    !(SERVER_SCENARIOS as readonly string[]).includes(name)
  );
  if (unknown.length > 0) {
    throw new LassError(
      "invalid-request",
      `${SUITE_NAME} has no server scenario ${unknown.join(", ")}`,
      unknown.map((name) => ({
        path: `scenarios.${scenarios.indexOf(name)}`,
        message: `is not a server scenario (${SERVER_SCENARIOS.slice(0, 3).join(", ")}, ...)`,
      })),
    );
  }
}

function skipped(name: string, reason: string): ConformanceScenarioResult {
  return { name, status: "skipped", checks: [], durationMs: 0, reason };
}

/** The report of a finished run. */
function report(
  serverId: string,
  scenarios: ConformanceScenarioResult[],
  startedAt: number,
  extra: Partial<ConformanceReport> = {},
): ConformanceReport {
  const count = (status: string) => scenarios.filter((s) => s.status === status).length;
  return {
    serverId,
    suite: SUITE_NAME,
    ok: count("failed") === 0,
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("skipped"),
    durationMs: Math.round(performance.now() - startedAt),
    scenarios,
    ...extra,
  };
}

const BRIDGE_REASON = "tests the HTTP transport, which Lass's proxy provides for this server";

/**
 * Runs the suite's server scenarios against one configured server; yields a `start` line, a
 * `scenario` line per scenario as it finishes, and the `report`; or, when the suite cannot run
 * here, an `error` line saying what it needs. A server the suite cannot reach (a stdio server with
 * `"proxy": false`) gets only a report naming why it was not run. Unknown id: 404 before any line.
 */
export function runConformance(
  record: McpServerConfig,
  options: ConformanceOptions,
): AsyncGenerator<ConformanceLine> {
  checkScenarios(options.scenarios ?? []);
  return lines(record, options);
}

async function* lines(
  record: McpServerConfig,
  options: ConformanceOptions,
): AsyncGenerator<ConformanceLine> {
  const startedAt = performance.now();
  const serverId = record.id;
  const via = conformanceVia(record, options.via);
  if (via === "direct" && record.transport !== "http") {
    yield {
      type: "report",
      report: report(serverId, [], startedAt, {
        notRun: `a ${record.transport} server has no URL the suite can reach directly`,
      }),
    };
    return;
  }
  if (via === "proxy" && record.proxy === false) {
    yield {
      type: "report",
      report: report(serverId, [], startedAt, {
        notRun: `it needs Lass's proxy, which its record turns off ("proxy": false)`,
      }),
    };
    return;
  }
  let runtime: SuiteRuntime;
  try {
    runtime = await (options.runtime ?? findSuiteRuntime)();
  } catch (error) {
    if (!(error instanceof SuiteUnavailableError)) throw error;
    yield { type: "error", error: { code: "suite-unavailable", message: error.message } };
    return;
  }
  const proxyPath = `${options.origin}/mcp/${encodeURIComponent(serverId)}`;
  const shownUrl = via === "direct" ? record.url! : proxyPath;
  const url = via === "direct"
    ? record.url!
    : `${proxyPath}?token=${encodeURIComponent(options.token)}`;
  const asked = options.scenarios?.length ? [...new Set(options.scenarios)] : undefined;
  yield {
    type: "start",
    serverId,
    suite: SUITE_NAME,
    via,
    url: shownUrl,
    ...(asked && { scenarios: asked }),
  };
  const bridged = (name: string) =>
    via === "proxy" && HTTP_TRANSPORT_SCENARIOS.includes(name as ServerScenario);
  const results: ConformanceScenarioResult[] = [];
  const emit = (result: ConformanceScenarioResult): ConformanceLine => {
    results.push(result);
    return { type: "scenario", serverId, scenario: result };
  };
  // A chosen scenario is a run of its own (the suite takes one, or its whole active suite).
  const runs: (string | undefined)[] = asked ? asked.filter((name) => !bridged(name)) : [undefined];
  const scenarioTimeoutMs = options.scenarioTimeoutMs ?? 60_000;
  try {
    for (const scenario of runs) {
      for await (
        const result of runSuite({
          runtime,
          url,
          scenario,
          scenarioTimeoutMs,
          signal: options.signal,
        })
      ) {
        yield emit(bridged(result.name) ? skipped(result.name, BRIDGE_REASON) : result);
      }
      if (options.signal?.aborted) return;
    }
  } catch (error) {
    if (!(error instanceof SuiteUnavailableError)) throw error;
    yield { type: "error", error: { code: "suite-unavailable", message: error.message } };
    return;
  }
  // What was asked for and has no result: bridged, or left when the suite stopped.
  const done = new Set(results.map((result) => result.name));
  for (const name of asked ?? ACTIVE_SCENARIOS) {
    if (done.has(name)) continue;
    yield emit(skipped(name, bridged(name) ? BRIDGE_REASON : "the suite stopped before it"));
  }
  yield { type: "report", report: report(serverId, results, startedAt, { via }) };
}
