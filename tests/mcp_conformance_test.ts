/**
 * The MCP conformance suite's client scenarios against Lass's own client path
 * (tests/fixtures/conformance_client.ts). The suite is the npm package
 * `@modelcontextprotocol/conformance`, pinned here and run under Deno (it needs Node >= 22 APIs,
 * which Deno provides); the runner starts each scenario's servers on loopback ports and starts the
 * client with the server URL.
 *
 * The runner has its own frozen lock file (tests/fixtures/conformance.lock) and no config: in the
 * project's deno.lock its dependencies (express, the v1 SDK) would change how other packages'
 * peers resolve (zod-to-json-schema's zod, @a2a-js/sdk's express).
 */
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const CONFORMANCE = "npm:@modelcontextprotocol/conformance@0.1.16";
const ROOT = new URL("..", import.meta.url).pathname;
const CLIENT = new URL("./fixtures/conformance_client.ts", import.meta.url).pathname;
const LOCK = new URL("./fixtures/conformance.lock", import.meta.url).pathname;

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
}

/** Runs one scenario; returns the runner's exit code, its output and the checks it saved. */
async function runScenario(scenario: string) {
  const out = await mkdtemp(join(tmpdir(), "lass-conformance-out-"));
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-config",
        `--lock=${LOCK}`,
        "--frozen",
        "-A",
        CONFORMANCE,
        "client",
        "--command",
        `${Deno.execPath()} run -A ${CLIENT}`,
        "--scenario",
        scenario,
        "--timeout",
        "120000",
        "-o",
        out,
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    const dirs = await readdir(out, { recursive: true });
    const file = dirs.find((name) => name.endsWith("checks.json"));
    const checks: Check[] = file ? JSON.parse(await readFile(join(out, file), "utf8")) : [];
    return { code, output, checks };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** Asserts that a scenario passed: exit 0, no failed or warned check, and the key check passed. */
async function assertPasses(scenario: string, key: string): Promise<void> {
  const { code, output, checks } = await runScenario(scenario);
  const tail = output.split("\n").slice(-40).join("\n");
  const bad = checks.filter((check) => check.status === "FAILURE" || check.status === "WARNING");
  assert.deepEqual(
    bad.map((check) => `${check.id}: ${check.description}`),
    [],
    `${scenario}: checks that did not pass\n${tail}`,
  );
  assert.equal(
    checks.find((check) => check.id === key)?.status,
    "SUCCESS",
    `${scenario}: no passing ${key} check\n${tail}`,
  );
  assert.equal(code, 0, `${scenario}: the runner exited ${code}\n${tail}`);
}

Deno.test("conformance auth/client-credentials-basic: client_secret_basic through Lass's client", async () => {
  await assertPasses("auth/client-credentials-basic", "client-credentials-basic-auth");
});

Deno.test("conformance auth/client-credentials-jwt: private_key_jwt (ES256) through Lass's client", async () => {
  await assertPasses("auth/client-credentials-jwt", "client-credentials-jwt-verified");
});

Deno.test("conformance initialize (2025): Lass's client handshake", async () => {
  await assertPasses("initialize", "mcp-client-initialization");
});

Deno.test("conformance tools_call (2025): a tool call through Lass's manager", async () => {
  await assertPasses("tools_call", "tool-add-numbers");
});
