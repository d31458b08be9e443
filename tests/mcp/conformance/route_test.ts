/**
 * `POST /api/mcp/:id/conformance`: the MCP conformance suite's server scenarios against a
 * configured server, streamed as NDJSON; and what it says when the suite cannot run.
 */
import assert from "node:assert/strict";
import { readNdjson } from "../../../islands/api.ts";
import { findSuiteRuntime } from "../../../core/mcp/conformance/runtime.ts";
import { runConformance } from "../../../core/mcp/conformance/run.ts";
import type { ConformanceLine } from "../../../wire/conformance.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import { type Json, readJsonResponse, TOKEN, withServedService } from "../../_helpers.ts";

const BREAKING = new URL("../../fixtures/conformance_breaking_server.ts", import.meta.url).pathname;

const breaking = (extra: Record<string, unknown> = {}) => ({
  id: "breaking",
  name: "Breaking",
  transport: "stdio",
  command: Deno.execPath(),
  args: ["run", "-A", BREAKING],
  ...extra,
});

/** POSTs a conformance run to a served Lass; its NDJSON lines. */
async function conformanceLines(base: string, id: string, body: unknown) {
  const response = await fetch(`${base}/api/mcp/${id}/conformance`, {
    method: "POST",
    headers: { "x-service-token": TOKEN, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /^application\/x-ndjson/);
  const lines: ConformanceLine[] = [];
  for await (const line of readNdjson<ConformanceLine>(response.body!)) lines.push(line);
  return lines;
}

Deno.test("POST /api/mcp/:id/conformance streams a line per scenario and a report naming the broken one", async () => {
  await withServedService([breaking()], async (_t, base) => {
    const lines = await conformanceLines(base, "breaking", {
      scenarios: ["server-initialize", "tools-call-simple-text", "dns-rebinding-protection"],
    });
    assert.deepEqual(lines.map((line) => line.type), [
      "start",
      "scenario",
      "scenario",
      "scenario",
      "report",
    ]);
    const start = lines[0] as Extract<ConformanceLine, { type: "start" }>;
    assert.equal(start.via, "proxy");
    assert.equal(start.url, `${base}/mcp/breaking`, "the token stays out of the URL shown");
    assert.equal(start.suite, "@modelcontextprotocol/conformance@0.1.16");
    const scenarios = lines.filter((line) => line.type === "scenario").map((line) => {
      const { name, status, checks } = line.scenario;
      return {
        name,
        status,
        failed: checks.filter((c) => c.status === "FAILURE").map((c) => c.errorMessage),
      };
    });
    assert.deepEqual(scenarios, [
      { name: "server-initialize", status: "passed", failed: [] },
      { name: "tools-call-simple-text", status: "failed", failed: ["No text content found"] },
      { name: "dns-rebinding-protection", status: "skipped", failed: [] },
    ]);
    const { report } = lines.at(-1) as Extract<ConformanceLine, { type: "report" }>;
    assert.equal(report.ok, false);
    assert.deepEqual([report.passed, report.failed, report.skipped], [1, 1, 1]);
    assert.equal(report.via, "proxy");
    assert.match(report.scenarios[2].reason ?? "", /HTTP transport.*Lass's proxy/);
  });
});

Deno.test("POST /api/mcp/:id/conformance: 404 for an unknown server, 400 naming an unknown scenario, not run without the proxy", async () => {
  await withServedService(
    [breaking(), breaking({ id: "closed", proxy: false })],
    async (t, base) => {
      const unknown = await readJsonResponse(
        await t.call("/api/mcp/nope/conformance", { method: "POST", json: {} }),
      );
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, "not-found");

      const bad = await readJsonResponse(
        await t.call("/api/mcp/breaking/conformance", {
          method: "POST",
          json: { scenarios: ["ping", "tools-call-nonsense"] },
        }),
      );
      assert.equal(bad.status, 400);
      assert.equal(bad.body.error.code, "invalid-request");
      assert.deepEqual(bad.body.error.details.map((d: Json) => d.path), ["scenarios.1"]);
      assert.match(bad.body.error.message, /no server scenario tools-call-nonsense/);

      const lines = await conformanceLines(base, "closed", {});
      assert.equal(lines.length, 1);
      const { report } = lines[0] as Extract<ConformanceLine, { type: "report" }>;
      assert.match(report.notRun ?? "", /"proxy": false/);
      assert.equal(report.ok, true, "a server not run is not a failure");
    },
  );
});

Deno.test("POST /api/mcp/:id/conformance: a scenario that does not finish in time fails with why, and the suite is stopped", async () => {
  const hanging = breaking({ id: "hanging", env: { HANG_SIMPLE_TEXT: "1" } });
  await withServedService([hanging], async (_t, base) => {
    const lines = await conformanceLines(base, "hanging", {
      scenarios: ["tools-call-simple-text"],
      scenarioTimeoutMs: 1000,
    });
    const { report } = lines.at(-1) as Extract<ConformanceLine, { type: "report" }>;
    assert.equal(report.failed, 1);
    assert.deepEqual(report.scenarios[0].checks, []);
    assert.equal(
      report.scenarios[0].reason,
      "no result within 1000 ms; the suite was stopped",
    );
  });
});

Deno.test("the suite says plainly what it needs: Deno or Node 22, and its package", async () => {
  const noDeno = (node?: string) => (command: string) =>
    Promise.resolve(command === "node" ? node : command === "npx" ? "10.0.0" : undefined);
  await assert.rejects(
    findSuiteRuntime({ runningDeno: false, probe: noDeno("v20.20.2") }),
    /needs Deno or Node 22 or newer on the PATH \(found Node v20\.20\.2\)/,
  );
  await assert.rejects(
    findSuiteRuntime({ runningDeno: false, probe: noDeno() }),
    /npm:@modelcontextprotocol\/conformance@0\.1\.16\) needs Deno or Node 22 .*found neither/,
  );
  assert.deepEqual(
    await findSuiteRuntime({ runningDeno: false, probe: noDeno("v22.3.0") }),
    { kind: "node", command: "npx", version: "v22.3.0" },
  );

  // A runtime that cannot load the package (here one that exits at once, as Deno does offline
  // with an empty cache): an error line, no scenario.
  const record = breaking() as McpServerConfig;
  const lines: ConformanceLine[] = [];
  for await (
    const line of runConformance(record, {
      origin: "http://127.0.0.1:9",
      token: "t",
      runtime: () => Promise.resolve({ kind: "deno", command: "false", version: "2" }),
    })
  ) lines.push(line);
  assert.deepEqual(lines.map((line) => line.type), ["start", "error"]);
  const error = lines[1] as Extract<ConformanceLine, { type: "error" }>;
  assert.equal(error.error.code, "suite-unavailable");
  assert.match(
    error.error.message,
    /did not start under deno 2; it needs its package in the Deno cache, or the npm registry reachable/,
  );

  const missing: ConformanceLine[] = [];
  for await (
    const line of runConformance(record, {
      origin: "http://127.0.0.1:9",
      token: "t",
      runtime: () => findSuiteRuntime({ runningDeno: false, probe: noDeno() }),
    })
  ) missing.push(line);
  assert.deepEqual(missing.map((line) => line.type), ["error"]);
});
