/**
 * The MCP conformance suite's client scenarios against Lass's own client path
 * (tests/fixtures/conformance_client.ts): every client scenario of `@modelcontextprotocol/
 * conformance` 0.1.16 (the 2025 suite, `--suite all`) and every scenario 0.2.0-alpha.12 runs for
 * `--requirements 2026-07-28` (the 32 required ones, the extensions and the one added after the
 * release). The runner starts each scenario's servers on loopback ports and the client with the
 * server URL; it runs under Deno (it needs Node >= 22 APIs, which Deno provides).
 *
 * Each version runs once, all its scenarios in one invocation (one launch instead of 65), and
 * each scenario is then its own test over the checks the runner saved for it, so a failure names
 * the scenario. Each runner has its own frozen lock file (tests/fixtures/conformance.lock,
 * conformance_2026.lock; `.ci/run` fetches both before the tests) and no config: in the
 * project's deno.lock its dependencies (express, the v1 SDK) would change how other packages'
 * peers resolve (zod-to-json-schema's zod, @a2a-js/sdk's express).
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../../..", import.meta.url).pathname;
const CLIENT = new URL("../../fixtures/conformance_client.ts", import.meta.url).pathname;
/** How many scenario clients run at once. */
const CLIENT_SLOTS = 3;

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
}

/** One scenario's saved result: its checks and what the client printed. */
interface ScenarioResult {
  checks: Check[];
  stdout: string;
  stderr: string;
}

/** One pinned version of the suite and how it is run. */
interface Suite {
  label: string;
  spec: string;
  lock: string;
  args: string[];
  scenarios: string[];
}

const SUITE_2025: Suite = {
  label: "2025",
  spec: "npm:@modelcontextprotocol/conformance@0.1.16",
  lock: new URL("../../fixtures/conformance.lock", import.meta.url).pathname,
  args: ["--suite", "all"],
  scenarios: [
    "initialize",
    "tools_call",
    "elicitation-sep1034-client-defaults",
    "sse-retry",
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/2025-03-26-oauth-metadata-backcompat",
    "auth/2025-03-26-oauth-endpoint-fallback",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/cross-app-access-complete-flow",
  ],
};

const SUITE_2026: Suite = {
  label: "2026-07-28",
  spec: "npm:@modelcontextprotocol/conformance@0.2.0-alpha.12",
  lock: new URL("../../fixtures/conformance_2026.lock", import.meta.url).pathname,
  args: ["--requirements", "2026-07-28"],
  scenarios: [
    "tools_call",
    "request-metadata",
    "auth/metadata-default",
    "auth/metadata-var1",
    "auth/metadata-var2",
    "auth/metadata-var3",
    "auth/basic-cimd",
    "auth/scope-from-www-authenticate",
    "auth/scope-from-scopes-supported",
    "auth/scope-omitted-when-undefined",
    "auth/scope-step-up",
    "auth/scope-retry-limit",
    "auth/token-endpoint-auth-basic",
    "auth/token-endpoint-auth-post",
    "auth/token-endpoint-auth-none",
    "auth/pre-registration",
    "auth/resource-mismatch",
    "auth/offline-access-scope",
    "auth/offline-access-not-supported",
    "auth/authorization-server-migration",
    "auth/iss-supported",
    "auth/iss-not-advertised",
    "auth/iss-supported-missing",
    "auth/iss-wrong-issuer",
    "auth/iss-unexpected",
    "auth/iss-normalized",
    "auth/metadata-issuer-mismatch",
    "sep-2322-client-request-state",
    "http-standard-headers",
    "http-custom-headers",
    "http-invalid-tool-headers",
    "json-schema-ref-no-deref",
    // Run and reported for 2026-07-28, not scored: extensions and one added after the release.
    "auth/client-credentials-jwt",
    "auth/client-credentials-basic",
    "auth/enterprise-managed-authorization",
    "auth/dpop",
    "auth/dpop-nonce",
    "auth/wif-jwt-bearer",
    "json-schema-2020-12-preservation",
  ],
};

/**
 * Checks whose WARNING is the suite's own "acceptable": `sse-retry` times the client's reconnect
 * against the server's `retry` (SUCCESS within +200 ms, WARNING later, FAILURE much later), which
 * on a loaded machine measures the machine. A FAILURE still fails.
 */
const TIMING_CHECKS = new Set(["client-sse-retry-timing"]);

/** A result folder's scenario: its path under the output folder without the timestamp. */
function scenarioOf(path: string): string {
  return path.replace(/-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/, "");
}

/** Runs every scenario of a suite in one invocation; returns each scenario's saved result. */
async function runSuite(suite: Suite): Promise<{ results: Map<string, ScenarioResult> }> {
  const out = await mkdtemp(join(tmpdir(), "lass-conformance-out-"));
  const slots = await mkdtemp(join(tmpdir(), "lass-conformance-slots-"));
  try {
    const { stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        `--lock=${suite.lock}`,
        "--frozen",
        "-A",
        suite.spec,
        "client",
        "--command",
        `${Deno.execPath()} run -A ${CLIENT}`,
        ...suite.args,
        // Per scenario, from its client's start: the clients wait for their turn (CLIENT_SLOTS).
        "--timeout",
        "300000",
        "-o",
        out,
      ],
      cwd: ROOT,
      // The clients take turns, CLIENT_SLOTS at a time (see `takeSlot` in the client).
      env: {
        NO_COLOR: "1",
        LASS_CONFORMANCE_SLOTS_DIR: slots,
        LASS_CONFORMANCE_SLOTS: String(CLIENT_SLOTS),
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const results = new Map<string, ScenarioResult>();
    for (const path of await readdir(out, { recursive: true })) {
      if (!path.endsWith("checks.json")) continue;
      const folder = path.slice(0, -"/checks.json".length);
      const read = (name: string) => readFile(join(out, folder, name), "utf8").catch(() => "");
      results.set(scenarioOf(folder), {
        checks: JSON.parse(await read("checks.json")),
        stdout: await read("stdout.txt"),
        stderr: await read("stderr.txt"),
      });
    }
    if (results.size === 0) {
      const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
      throw new Error(`the ${suite.label} runner saved no results\n${output.slice(-4000)}`);
    }
    return { results };
  } finally {
    await rm(out, { recursive: true, force: true });
    await rm(slots, { recursive: true, force: true });
  }
}

/** Runs each suite once, when its first test asks. */
const runs = new Map<Suite, ReturnType<typeof runSuite>>();
function resultsOf(suite: Suite) {
  if (!runs.has(suite)) runs.set(suite, runSuite(suite));
  return runs.get(suite)!;
}

/** Asserts that a scenario passed: checks saved, none failed or warned (timing aside). */
async function assertPasses(suite: Suite, scenario: string): Promise<void> {
  const { results } = await resultsOf(suite);
  const result = results.get(scenario);
  assert.ok(result, `${scenario}: the runner saved no result (it ran ${[...results.keys()]})`);
  const tail = (text: string) => text.split("\n").slice(-25).join("\n");
  const bad = result.checks.filter((check) =>
    check.status === "FAILURE" || (check.status === "WARNING" && !TIMING_CHECKS.has(check.id))
  );
  assert.deepEqual(
    bad.map((check) => `${check.id}: ${check.errorMessage ?? check.description}`),
    [],
    `${scenario}: checks that did not pass\nclient stdout:\n${tail(result.stdout)}\n` +
      `client stderr:\n${tail(result.stderr)}`,
  );
  assert.ok(
    result.checks.some((check) => check.status === "SUCCESS"),
    `${scenario}: no check passed`,
  );
}

for (const suite of [SUITE_2025, SUITE_2026]) {
  Deno.test(`conformance ${suite.label}: the runner runs exactly the listed scenarios`, async () => {
    const { results } = await resultsOf(suite);
    assert.deepEqual([...results.keys()].sort(), [...suite.scenarios].sort());
  });
  for (const scenario of suite.scenarios) {
    Deno.test(`conformance ${suite.label} ${scenario}`, async () => {
      await assertPasses(suite, scenario);
    });
  }
}
