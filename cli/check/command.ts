/** `lass check`: checks a workspace's tool servers and models for what breaks model providers. */
import type { CheckReport } from "../../core/checks.ts";
import type { JUnitCase } from "../../core/junit.ts";
import { resolve } from "node:path";
import { LassError } from "../../core/errors.ts";
import type { LockRequest } from "../../core/mcp/pinning/lock_check.ts";
import { defaultLockPath, PinFileError } from "../../core/mcp/pinning/pin_files.ts";
import { plural } from "../../wire/words.ts";
import { CliError } from "../errors.ts";
import { writeReportFile } from "../output.ts";
import {
  COMMON_HELP,
  openLass,
  parseFlags,
  RUN_ONCE,
  validateWithoutCompiling,
} from "../options.ts";
import { Spinner } from "../spinner.ts";
import { table } from "../table.ts";
import { formatPins } from "../pins_text.ts";
import { CONFORMANCE_HELP } from "./conformance.ts";

/** The help of `lass check`. */
export const CHECK_HELP = `Usage: lass check [--workspace <id> | --all] [--lock [file]] [--update]
                  [--junit <file>] [--json]
       lass check --conformance [--server <id>]... [--scenario <name>]... [--via <how>]
                  [--url <url> --token <token>] [--workspace <id> | --all] [--junit <file>] [--json]

Connects every tool server of the workspace, lists its tools, prompts and resources, and checks
what model providers refuse: tool names (1-64 letters, digits, _ and -; <server>__<tool> within
64 characters), input schemas that are not JSON Schema or not a top-level "type": "object",
arrays without items, duplicate names; empty descriptions are warnings. Tests the model profile
of the workspace with a tiny generation (as POST /api/llm/test does).

Pinning: when lass.lock.json exists beside the config (or the file of --lock), what each
server offers is compared with it: every tool, prompt and resource template added, removed or
changed since pinned is an error, shown with a word diff of its description and a JSON diff of
the rest. --lock writes the file when it does not exist; --update rewrites it with what the
servers offer now. Servers with "pinning": "off" are left out.

Prints a table (server, status, era, tools, problems) and then each problem. Exit code 0 when
nothing is an error (warnings do not fail), 1 when something is, 2 for a usage error.

${CONFORMANCE_HELP}

Options:
  --workspace <id>    The workspace to check (default the active one)
  --all               Every workspace: all their tool servers and models
  --lock [file]       Pin the servers' definitions in this lock file, written when missing
                      (default lass.lock.json beside the config)
  --update            Rewrite the lock file with what the servers offer now
  --junit <file>      Also write a JUnit XML report (a test case per server and model)
  --json              Print the report as JSON instead of the table
${COMMON_HELP}
`;

/** A count of errors and warnings, or `ok`. */
function counts(errors: number, warnings: number): string {
  const parts = [
    ...(errors > 0 ? [plural(errors, "error")] : []),
    ...(warnings > 0 ? [plural(warnings, "warning")] : []),
  ];
  return parts.length === 0 ? "ok" : parts.join(", ");
}

/** The counts of some problems. */
function summary(problems: { severity: string }[]): string {
  const errors = problems.filter((problem) => problem.severity === "error").length;
  return counts(errors, problems.length - errors);
}

/** The report as a person reads it: two tables, each problem, and the totals. */
function formatReport(report: CheckReport): string {
  const parts: string[] = [];
  if (report.servers.length > 0) {
    parts.push(table([
      ["SERVER", "STATUS", "ERA", "TOOLS", "PROMPTS", "RESOURCES", "PROBLEMS"],
      ...report.servers.map((server) => [
        server.id,
        server.status,
        server.era ?? "-",
        String(server.tools),
        String(server.prompts),
        String(server.resources),
        summary(server.problems),
      ]),
    ]));
  }
  if (report.models.length > 0) {
    parts.push(table([
      ["MODEL", "PROVIDER", "MODEL NAME", "LATENCY", "PROBLEMS"],
      ...report.models.map((model) => [
        model.id,
        model.provider,
        model.model,
        `${model.latencyMs} ms`,
        summary(model.problems),
      ]),
    ]));
  }
  const lines = [
    ...report.servers.flatMap((server) =>
      server.problems.map((p) => `${p.severity}: server ${server.id}: ${p.subject}: ${p.message}`)
    ),
    ...report.models.flatMap((model) =>
      model.problems.map((p) => `${p.severity}: model ${model.id}: ${p.subject}: ${p.message}`)
    ),
  ];
  if (lines.length > 0) parts.push(lines.join("\n"));
  const pins = formatPins(report);
  if (pins) parts.push(pins);
  const checked = `${plural(report.servers.length, "server")} and ${
    plural(report.models.length, "model")
  } of ${report.workspaces.join(", ")}`;
  parts.push(`${checked}: ${counts(report.errors, report.warnings)}`);
  return parts.join("\n\n") + "\n";
}

/** A JUnit case for a server or model: failed on errors, warnings as its output. */
function junitCase(
  className: string,
  name: string,
  item: { problems: CheckReport["servers"][number]["problems"] },
  timeMs: number,
): JUnitCase {
  const line = (p: { severity: string; subject: string; message: string }) =>
    `${p.severity}: ${p.subject}: ${p.message}`;
  const errors = item.problems.filter((problem) => problem.severity === "error");
  const warnings = item.problems.filter((problem) => problem.severity === "warning");
  return {
    name,
    className,
    timeMs,
    ...(errors.length > 0 && {
      failure: {
        message: `${plural(errors.length, "error")}: ${errors[0].subject}: ${errors[0].message}`,
        text: errors.map(line).join("\n"),
      },
    }),
    ...(warnings.length > 0 && { systemOut: warnings.map(line).join("\n") }),
  };
}

/** Writes the JUnit XML of a report. */
async function writeJUnit(path: string, report: CheckReport): Promise<void> {
  const { junitXml } = await import("../../core/junit.ts");
  const xml = junitXml([
    {
      name: "lass check: tool servers",
      cases: report.servers.map((server) =>
        junitCase("lass.check.server", server.id, server, server.durationMs)
      ),
    },
    {
      name: "lass check: models",
      cases: report.models.map((model) =>
        junitCase("lass.check.model", model.id, model, model.latencyMs)
      ),
    },
  ], "lass check");
  await writeReportFile(path, xml, "JUnit report");
}

/** The arguments with a bare `--lock` (no file after it) as `--lock=`: its value is optional. */
function lockWithoutFile(args: string[]): string[] {
  return args.map((arg, i) =>
    arg === "--lock" && (i + 1 >= args.length || args[i + 1].startsWith("-")) ? "--lock=" : arg
  );
}

/** What to do with the lock file: `--lock [file]`, `--update`, or compare the default one. */
function lockRequest(
  values: { lock?: string; update?: boolean },
  configPath: string,
): LockRequest {
  const path = values.lock ? resolve(values.lock) : defaultLockPath(configPath);
  return { path, create: values.lock !== undefined, update: values.update === true };
}

/** Runs `lass check`; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseFlags(lockWithoutFile(args), {
    workspace: { type: "string" },
    all: { type: "boolean" },
    lock: { type: "string" },
    update: { type: "boolean" },
    junit: { type: "string" },
    json: { type: "boolean" },
    conformance: { type: "boolean" },
    server: { type: "string", multiple: true },
    scenario: { type: "string", multiple: true },
    via: { type: "string" },
    url: { type: "string" },
    token: { type: "string" },
  }, "check");
  if (values.help) return console.log(CHECK_HELP), 0;
  if (values.all && values.workspace !== undefined) {
    throw new CliError("--all and --workspace cannot go together (see lass check --help)");
  }
  const conformanceOnly = ["server", "scenario", "via", "url", "token"] as const;
  if (!values.conformance) {
    const stray = conformanceOnly.find((name) => values[name] !== undefined);
    if (stray) throw new CliError(`--${stray} goes with --conformance (see lass check --help)`);
  } else {
    if (values.lock !== undefined || values.update) {
      throw new CliError(
        "--lock and --update do not go with --conformance (see lass check --help)",
      );
    }
    await validateWithoutCompiling();
    const { runConformanceCheck } = await import("./conformance.ts");
    return await runConformanceCheck(values);
  }
  await validateWithoutCompiling();
  const lass = await openLass(values, RUN_ONCE);
  const spinner = new Spinner();
  try {
    const { runCheck } = await import("../../core/checks.ts");
    spinner.start("checking tool servers and models");
    let report: CheckReport;
    try {
      report = await runCheck(
        lass.service,
        values.all ? { all: true } : { workspaceId: values.workspace },
        { lock: lockRequest(values, lass.service.config.path) },
      );
    } catch (error) {
      if (error instanceof LassError && error.code === "not-found") {
        throw new CliError(error.message);
      }
      if (error instanceof PinFileError) throw new CliError(error.message, 1);
      throw error;
    } finally {
      spinner.stop();
    }
    // The results first: a file that cannot be written never hides them.
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report).trimEnd());
    if (values.junit !== undefined) await writeJUnit(values.junit, report);
    return report.ok ? 0 : 1;
  } finally {
    await lass.close();
  }
}
