/**
 * One run of the conformance suite's `server` command as a child process: the pinned package
 * under Deno with its own frozen lock (shipped inside Lass as `suite.lock.json`, written to a
 * temp folder for the run) or under Node through `npx`. Each scenario's result is read from the
 * `checks.json` the suite saves, as soon as the suite says it saved it.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { createInterface } from "node:readline";
import {
  CONFORMANCE_SUITE,
  type ConformanceCheck,
  type ConformanceScenarioResult,
} from "../../../wire/conformance.ts";
import { type SuiteRuntime, SuiteUnavailableError } from "./runtime.ts";
import suiteLock from "./suite.lock.json" with { type: "json" };

/** What one run of the suite does. */
export interface SuiteRun {
  runtime: SuiteRuntime;
  /** The MCP endpoint to test. */
  url: string;
  /** One scenario; without it the suite's active scenarios, in its order. */
  scenario?: string;
  /** How long one scenario may run before the suite is stopped. */
  scenarioTimeoutMs: number;
  signal?: AbortSignal;
}

/** The environment variables the suite gets: where its runtime and caches are, proxies. */
const PASSED_ENV =
  /^(PATH|HOME|USERPROFILE|SYSTEMROOT|TMPDIR|TEMP|TMP|DENO_DIR|XDG_CACHE_HOME|NPM_CONFIG_\w+|npm_config_\w+|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|NODE_EXTRA_CA_CERTS|DENO_CERT)$/;

function suiteEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && PASSED_ENV.test(name)) env[name] = value;
  }
  return env;
}

/** The command line of the suite's `server` command. */
function commandLine(run: SuiteRun, dir: string): string[] {
  const spec = `${CONFORMANCE_SUITE.package}@${CONFORMANCE_SUITE.version}`;
  const suiteArgs = [
    "server",
    "--url",
    run.url,
    ...(run.scenario ? ["--scenario", run.scenario] : []),
    "-o",
    join(dir, "results"),
  ];
  if (run.runtime.kind === "node") return ["--yes", spec, ...suiteArgs];
  return [
    "run",
    "--no-config",
    `--lock=${join(dir, "suite.lock")}`,
    "--frozen",
    "-A",
    `npm:${spec}`,
    ...suiteArgs,
  ];
}

/** The checks the suite saved in a scenario's result folder. */
async function savedChecks(folder: string): Promise<ConformanceCheck[]> {
  const checks = JSON.parse(
    await readFile(join(folder, "checks.json"), "utf8"),
  ) as ConformanceCheck[];
  return checks.map(({ id, name, status, description, errorMessage }) => ({
    id,
    name,
    status,
    description,
    ...(errorMessage !== undefined && { errorMessage }),
  }));
}

/** A scenario's result from its checks: failed when one failed. */
export function scenarioResult(
  name: string,
  checks: ConformanceCheck[],
  durationMs: number,
): ConformanceScenarioResult {
  const failed = checks.some((check) => check.status === "FAILURE");
  return { name, status: failed ? "failed" : "passed", checks, durationMs };
}

/** The last lines of a text, for a reason. */
function tail(text: string, lines = 6): string {
  return text.trim().split("\n").slice(-lines).join("\n");
}

/**
 * Runs the suite and yields each scenario's result as it finishes. A scenario the suite could not
 * finish (it threw, timed out, or the suite ended) is a failure with the reason. Throws
 * {@link SuiteUnavailableError} when the suite could not start at all (e.g. its package is not in
 * the cache and the registry cannot be reached).
 */
export async function* runSuite(run: SuiteRun): AsyncGenerator<ConformanceScenarioResult> {
  const dir = await mkdtemp(join(tmpdir(), "lass-conformance-"));
  try {
    if (run.runtime.kind === "deno") {
      await writeFile(join(dir, "suite.lock"), JSON.stringify(suiteLock, null, 2) + "\n");
    }
    const child = spawn(run.runtime.command, commandLine(run, dir), {
      cwd: dir,
      env: suiteEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => stderr = (stderr + chunk).slice(-20_000));
    const exited = new Promise<number | null>((resolve) => {
      child.on("error", (error) => {
        stderr += `\n${error.message}`;
        resolve(null);
      });
      child.on("close", (code) => resolve(code));
    });
    let timedOut: string | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => child.kill("SIGTERM");
    run.signal?.addEventListener("abort", stop, { once: true });
    const watch = (scenario: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = scenario;
        stop();
      }, run.scenarioTimeoutMs);
    };
    let current: string | undefined;
    let since = performance.now();
    const took = () => Math.round(performance.now() - since);
    let produced = 0;
    try {
      for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
        const started = /^Running client scenario '([^']+)' against server/.exec(line);
        const saved = /^Results saved to (.+)$/.exec(line);
        const failed = /^Failed to run scenario (\S+?):/.exec(line);
        if (started) {
          current = started[1];
          since = performance.now();
          watch(current);
        } else if (saved && current) {
          produced++;
          yield scenarioResult(current, await savedChecks(saved[1].trim()), took());
          current = undefined;
        } else if (failed) {
          produced++;
          yield {
            name: failed[1],
            status: "failed",
            checks: [],
            durationMs: took(),
            reason: tail(stderr) || "the suite could not run the scenario",
          };
          current = undefined;
        }
      }
      const code = await exited;
      if (run.signal?.aborted) return;
      if (current) {
        produced++;
        yield {
          name: current,
          status: "failed",
          checks: [],
          durationMs: took(),
          reason: timedOut === current
            ? `no result within ${run.scenarioTimeoutMs} ms; the suite was stopped`
            : tail(stderr) || `the suite ended (exit code ${code}) before the scenario's result`,
        };
      } else if (produced === 0 && code !== 0) {
        throw new SuiteUnavailableError(
          `the MCP conformance suite (npm:${CONFORMANCE_SUITE.package}@` +
            `${CONFORMANCE_SUITE.version}) did not start under ${run.runtime.kind} ` +
            `${run.runtime.version}; it needs its package in the ${
              run.runtime.kind === "deno" ? "Deno" : "npm"
            } ` +
            `cache, or the npm registry reachable to fetch it once: ${
              tail(stderr, 3) || `exit code ${code}`
            }`,
        );
      }
    } finally {
      clearTimeout(timer);
      run.signal?.removeEventListener("abort", stop);
      if (child.exitCode === null && child.signalCode === null) stop();
      await exited;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
