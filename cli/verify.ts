/** `lass verify`: sends a cassette's requests to the live server and shows what drifted. */
import type { VerifyExchangeResult, VerifyReport } from "../wire/cassette.ts";
import { LassError } from "../core/errors.ts";
import { plural } from "../wire/words.ts";
import { CliError } from "./errors.ts";
import { declineQuestions } from "./questions.ts";
import { writeReportFile } from "./output.ts";
import { COMMON_HELP, openLass, parseFlags, RUN_ONCE } from "./options.ts";

/** The help of `lass verify`. */
export const VERIFY_HELP =
  `Usage: lass verify <file.cassette.json> [--server <id>] [--ignore <pointer>]... [--junit <file>]

Connects the configured tool server afresh (its lists are read again), sends each recorded tool
call, resource read, prompt and completion again, and compares every answer with the recorded
one, structurally: JSON-RPC ids are never compared, and --ignore leaves out a JSON pointer into
the answer (a pointer covers what is under it; * matches any one segment), e.g.
  --ignore /result/_meta --ignore /result/content/*/annotations
Prints a diff per drifted exchange (docs/recordings.md).

Exit code 0 when every answer is the same, 1 on drift or a request that failed, 2 for a usage
error.

Options:
  --server <id>       The configured tool server to verify (default the cassette's server id)
  --ignore <pointer>  A JSON pointer not compared (/result/..., /error/...); repeat it
  --junit <file>      Also write a JUnit XML report (a test case per exchange)
  --json              Print the report as JSON instead of the diffs
${COMMON_HELP}
`;

/** An exchange as a heading line: its place, method and name. */
function heading(exchange: VerifyExchangeResult): string {
  return `#${exchange.index} ${exchange.method}${exchange.name ? ` ${exchange.name}` : ""}`;
}

/** The report as a person reads it: each drift's diff, each failure, and the totals. */
async function formatReport(report: VerifyReport): Promise<string> {
  const { describeDifference } = await import("../core/mcp/recordings/diff.ts");
  const parts: string[] = [];
  for (const exchange of report.exchanges) {
    if (exchange.outcome === "drift") {
      const lines = exchange.differences.flatMap(describeDifference).map((line) => `  ${line}`);
      parts.push(
        `✗ ${heading(exchange)}: ${plural(exchange.differences.length, "difference")}\n${
          lines.join("\n")
        }`,
      );
    } else if (exchange.outcome === "failed") {
      parts.push(`✗ ${heading(exchange)}: failed: ${exchange.reason}`);
    }
  }
  const verdict = report.ok ? "ok" : "drift";
  parts.push(
    `${report.serverId}: ${plural(report.exchanges.length, "exchange")}, ${report.same} same, ` +
      `${report.drifted} drifted, ${report.failed} failed, ${report.skipped} skipped: ${verdict}`,
  );
  return parts.join("\n\n");
}

/** Writes the JUnit XML of a report: a case per exchange. */
async function writeJUnit(path: string, report: VerifyReport): Promise<void> {
  const [{ junitXml }, { describeDifference }] = await Promise.all([
    import("../core/junit.ts"),
    import("../core/mcp/recordings/diff.ts"),
  ]);
  const cases = report.exchanges.filter((exchange) => exchange.outcome !== "skipped").map((
    exchange,
  ) => ({
    name: heading(exchange),
    className: `lass.verify.${report.serverId}`,
    timeMs: exchange.durationMs,
    ...(exchange.outcome === "drift" && {
      failure: {
        message: `${plural(exchange.differences.length, "difference")}: ${
          exchange.differences[0].path
        }`,
        text: exchange.differences.flatMap(describeDifference).join("\n"),
      },
    }),
    ...(exchange.outcome === "failed" && { error: { message: exchange.reason ?? "failed" } }),
  }));
  const xml = junitXml([{ name: `lass verify: ${report.serverId}`, cases }], "lass verify");
  await writeReportFile(path, xml, "JUnit report");
}

/** Runs `lass verify`; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      server: { type: "string" },
      ignore: { type: "string", multiple: true },
      junit: { type: "string" },
      json: { type: "boolean" },
    },
    "verify",
    true,
  );
  if (values.help) return console.log(VERIFY_HELP), 0;
  if (positionals.length !== 1) {
    throw new CliError("give one cassette file (see lass verify --help)");
  }
  const ignore = values.ignore ?? [];
  const bad = ignore.find((pointer) => pointer !== "" && !pointer.startsWith("/"));
  if (bad !== undefined) {
    throw new CliError(`--ignore takes a JSON pointer starting with /, not ${JSON.stringify(bad)}`);
  }
  const { readCassette } = await import("../core/mcp/recordings/load.ts");
  let cassette;
  try {
    cassette = await readCassette(positionals[0]);
  } catch (error) {
    if (error instanceof LassError) throw new CliError(error.message);
    throw error;
  }
  const serverId = values.server ?? cassette.server.id;
  const lass = await openLass(values, RUN_ONCE);
  const stopDeclining = declineQuestions(lass.service, { serverId, command: "verify" });
  try {
    const { verifyCassette } = await import("../core/mcp/recordings/verify.ts");
    let report: VerifyReport;
    try {
      report = await verifyCassette(lass.service.mcp, serverId, cassette, { ignore });
    } catch (error) {
      if (error instanceof LassError) {
        throw new CliError(error.message, error.code === "upstream-error" ? 1 : 2);
      }
      throw error;
    }
    // The results first: a file that cannot be written never hides them.
    console.log(values.json ? JSON.stringify(report, null, 2) : await formatReport(report));
    if (values.junit !== undefined) await writeJUnit(values.junit, report);
    return report.ok ? 0 : 1;
  } finally {
    stopDeclining();
    await lass.close();
  }
}
