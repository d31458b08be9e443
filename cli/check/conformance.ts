/**
 * `lass check --conformance`: the official MCP conformance suite's server scenarios against the
 * workspace's tool servers, through `POST /api/mcp/:id/conformance` of a Lass: one started in
 * this process on a loopback port for the run (its `/mcp/:id` proxy is how the suite reaches a
 * stdio server), or a running one (`--url`).
 */
import type { ConformanceLine, ConformanceReport } from "../../wire/conformance.ts";
import type { JUnitCase, JUnitSuite } from "../../core/junit.ts";
import { plural } from "../../wire/words.ts";
import { type Api, apiError, ndjsonLines, remoteApi } from "../api.ts";
import { CliError } from "../errors.ts";
import { serveWithTimeouts } from "../listen.ts";
import { openLass, RUN_ONCE } from "../options.ts";
import { writeReportFile } from "../output.ts";
import { Spinner } from "../spinner.ts";
import { table } from "../table.ts";

/** The flags `lass check --conformance` reads. */
export interface ConformanceFlags {
  config?: string;
  "data-dir"?: string;
  workspace?: string;
  all?: boolean;
  server?: string[];
  scenario?: string[];
  via?: string;
  url?: string;
  token?: string;
  junit?: string;
  json?: boolean;
}

/** The help lines of the conformance flags, for `lass check --help`. */
export const CONFORMANCE_HELP =
  `Conformance (--conformance): runs the official MCP conformance suite's server scenarios
(npm:@modelcontextprotocol/conformance, pinned) against each tool server of the workspace: a
Streamable HTTP server without headers or OAuth at its own URL, any other through Lass's
/mcp/:id proxy (a Lass started in this process on a loopback port for the run, or the one of
--url). Prints a table of scenarios per server; exit 1 when a scenario fails. Needs Deno (or
Node 22 or newer) and the suite's package in the cache or the npm registry reachable.

  --conformance       Run the conformance suite instead of the checks above
  --server <id>       Only this tool server (repeatable; any server of the config)
  --scenario <name>   Only this scenario (repeatable), e.g. server-initialize, tools-list
  --via <how>         auto (default), direct or proxy
  --url <url>         Use a running Lass instead of one in this process          [LASS_URL]
  --token <token>     Its service token (or the token= of the URL it printed)    [LASS_TOKEN]`;

/** What of the config the command needs: workspaces and their servers. */
interface ConfigView {
  activeWorkspaceId?: string;
  workspaces?: { id: string; mcpServerIds?: string[] }[];
  mcpServers?: { id: string }[];
}

/** The servers to run: `--server`, else those of the workspace (or of all with `--all`). */
async function serverIds(api: Api, flags: ConformanceFlags): Promise<string[]> {
  if (flags.server?.length) return [...new Set(flags.server)];
  const response = await api.call("/api/config");
  if (!response.ok) throw await apiError(response, "cannot read the config");
  const config = JSON.parse(await response.text()) as ConfigView;
  const workspaces = config.workspaces ?? [];
  if (flags.all) return [...new Set(workspaces.flatMap((w) => w.mcpServerIds ?? []))];
  const id = flags.workspace ?? config.activeWorkspaceId ?? workspaces[0]?.id;
  const workspace = workspaces.find((w) => w.id === id);
  if (!workspace) throw new CliError(`no workspace ${id ?? "in the config"}`);
  return workspace.mcpServerIds ?? [];
}

/** Runs the suite against one server through the API; its report. */
async function runOne(
  api: Api,
  id: string,
  flags: ConformanceFlags,
  spinner: Spinner,
): Promise<ConformanceReport> {
  const response = await api.call(`/api/mcp/${encodeURIComponent(id)}/conformance`, {
    method: "POST",
    json: { scenarios: flags.scenario, via: flags.via ?? "auto" },
  });
  if (!response.ok || !response.body) {
    throw await apiError(response, `conformance of ${id}`);
  }
  let done = 0;
  let total: number | undefined;
  for await (const { value } of ndjsonLines(response.body)) {
    const line = value as ConformanceLine;
    if (line.type === "start") {
      total = line.scenarios?.length;
      spinner.start(`${id}: running the conformance suite (via ${line.via})`);
    } else if (line.type === "scenario") {
      done++;
      spinner.start(
        `${id}: ${line.scenario.name} ${line.scenario.status} (${done}${total ? `/${total}` : ""})`,
      );
    } else if (line.type === "error") {
      throw new CliError(line.error.message, 1);
    } else if (line.type === "report") return line.report;
  }
  throw new CliError(`conformance of ${id}: the stream ended without a report`, 1);
}

/** The first failed check of a scenario (or its reason), in a line. */
function problemOf(scenario: ConformanceReport["scenarios"][number]): string {
  const failed = scenario.checks.find((check) => check.status === "FAILURE");
  if (failed) return `${failed.name}: ${failed.errorMessage ?? failed.description}`;
  return scenario.reason?.split("\n")[0] ?? "";
}

/** One server's part of the printed report. */
function formatServer(report: ConformanceReport): string {
  if (report.notRun) return `${report.serverId}: not run: ${report.notRun}`;
  const rows = report.scenarios.map((scenario) => {
    const counted = scenario.checks.filter((c) => c.status === "SUCCESS" || c.status === "FAILURE");
    const passed = counted.filter((c) => c.status === "SUCCESS").length;
    return [
      scenario.name,
      scenario.status === "failed" ? "FAILED" : scenario.status,
      scenario.status === "skipped" ? "-" : `${passed}/${counted.length}`,
      scenario.status === "passed" ? "" : problemOf(scenario),
    ];
  });
  const head = `${report.serverId} (via ${report.via}): ${report.passed} passed, ` +
    `${report.failed} failed, ${report.skipped} skipped`;
  return `${head}\n${table([["SCENARIO", "RESULT", "CHECKS", "PROBLEM"], ...rows])}`;
}

/** The whole printed report, with a line per failed scenario and the totals. */
export function formatConformance(reports: ConformanceReport[]): string {
  const failures = reports.flatMap((report) =>
    report.scenarios.filter((s) => s.status === "failed").map((s) =>
      `error: server ${report.serverId}: ${s.name}: ${problemOf(s)}`
    )
  );
  const failed = reports.filter((report) => !report.ok).length;
  const notRun = reports.filter((report) => report.notRun).length;
  const totals = `${plural(reports.length, "server")}: ${
    failed === 0 ? "no scenario failed" : `${plural(failed, "server")} failed`
  }${notRun > 0 ? `, ${notRun} not run` : ""} (${reports[0]?.suite ?? "no suite run"})`;
  return [...reports.map(formatServer), ...(failures.length ? [failures.join("\n")] : []), totals]
    .join("\n\n");
}

/** The JUnit suites: one per server, a case per scenario. */
function junitSuites(reports: ConformanceReport[]): JUnitSuite[] {
  return reports.map((report) => ({
    name: `lass check --conformance: ${report.serverId}`,
    cases: report.notRun
      ? [{
        name: report.serverId,
        className: "lass.conformance",
        skipped: { message: `not run: ${report.notRun}` },
      }]
      : report.scenarios.map((scenario): JUnitCase => ({
        name: scenario.name,
        className: `lass.conformance.${report.serverId}`,
        timeMs: scenario.durationMs,
        ...(scenario.status === "failed" && {
          failure: {
            message: problemOf(scenario),
            text: scenario.checks.filter((c) =>
              c.status === "FAILURE"
            ).map((c) => `${c.id}: ${c.description}${c.errorMessage ? `: ${c.errorMessage}` : ""}`)
              .join("\n") || scenario.reason,
          },
        }),
        ...(scenario.status === "skipped" && {
          skipped: { message: scenario.reason ?? "skipped" },
        }),
      })),
  }));
}

/** A Lass opened in this process and served on a loopback port, as an API; closing stops both. */
async function localApi(flags: ConformanceFlags): Promise<Api> {
  const lass = await openLass(flags, RUN_ONCE);
  const stop = new AbortController();
  const server = serveWithTimeouts(
    { hostname: "127.0.0.1", port: 0, signal: stop.signal },
    (req) => lass.handler(req),
  );
  const api = remoteApi(`http://127.0.0.1:${server.addr.port}`, lass.token);
  return {
    where: `Lass in process (${lass.configPath})`,
    call: api.call,
    close: async () => {
      stop.abort();
      await server.finished;
      await lass.close();
    },
  };
}

/** Runs `lass check --conformance`; the exit code. */
export async function runConformanceCheck(flags: ConformanceFlags): Promise<number> {
  if (flags.via !== undefined && !["auto", "direct", "proxy"].includes(flags.via)) {
    throw new CliError(`--via must be auto, direct or proxy, not ${JSON.stringify(flags.via)}`);
  }
  const url = flags.url ?? Deno.env.get("LASS_URL");
  const api = url
    ? remoteApi(url, flags.token ?? Deno.env.get("LASS_TOKEN"))
    : await localApi(flags);
  const spinner = new Spinner();
  try {
    const ids = await serverIds(api, flags);
    if (ids.length === 0) throw new CliError("the workspace has no tool servers (see --server)", 1);
    const reports: ConformanceReport[] = [];
    try {
      for (const id of ids) reports.push(await runOne(api, id, flags, spinner));
    } finally {
      spinner.stop();
    }
    console.log(flags.json ? JSON.stringify({ reports }, null, 2) : formatConformance(reports));
    if (flags.junit !== undefined) {
      const { junitXml } = await import("../../core/junit.ts");
      await writeReportFile(
        flags.junit,
        junitXml(junitSuites(reports), "lass check --conformance"),
        "JUnit report",
      );
    }
    return reports.every((report) => report.ok) ? 0 : 1;
  } finally {
    await api.close();
  }
}
