/** Run against run: kept eval reports, their API, their diff and `lass eval --baseline`. */
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { run as lassEval } from "../../cli/eval/command.ts";
import { diffReports } from "../../core/evals/diff.ts";
import { EvalReportStore } from "../../core/evals/reports.ts";
import { nodeFileSystem } from "../../core/files_node.ts";
import type { EvalCaseReport, EvalReport } from "../../wire/evals.ts";
import { chatConfig, DEMO_LLM, parseNdjson } from "../_chat.ts";
import { type Json, readJsonResponse, startService, TOKEN } from "../_helpers.ts";

/** A case's numbers in a report. */
function entry(name: string, fields: Partial<EvalCaseReport> = {}): EvalCaseReport {
  return {
    name,
    model: "demo",
    runs: 2,
    passed: 2,
    passRate: 1,
    tokens: 200,
    durationMs: 1000,
    failures: [],
    ...fields,
  };
}

/** A report of these cases, its totals left at zero (the diff reads the cases). */
function report(cases: EvalCaseReport[]): EvalReport {
  return {
    workspace: "w",
    models: ["demo"],
    cases,
    runs: 0,
    passed: 0,
    passRate: 1,
    tokens: 0,
    durationMs: 0,
  };
}

Deno.test("the report store keeps the newest 100, lists them newest first and reads each by id", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-reports-"));
  try {
    const store = new EvalReportStore(nodeFileSystem, join(dir, "reports"));
    const start = Date.UTC(2026, 0, 1);
    const ids: string[] = [];
    for (let i = 0; i < 103; i++) {
      const kept = await store.save(report([entry(`case ${i}`)]), new Date(start + i * 1000));
      ids.push(kept.id);
    }
    const files = (await readdir(join(dir, "reports"))).sort();
    assert.equal(files.length, 100);
    assert.deepEqual(files, ids.slice(3).map((id) => `${id}.json`));
    const list = await store.list();
    assert.equal(list.length, 100);
    assert.equal(list[0].id, ids[102]);
    assert.equal(list[0].createdAt, new Date(start + 102_000).toISOString());
    assert.deepEqual(list.at(-1)!.id, ids[3]);
    // A fresh store (another process) reads the summaries from the files.
    const again = await new EvalReportStore(nodeFileSystem, join(dir, "reports")).list();
    assert.deepEqual(again, list);
    assert.equal((await store.read(ids[50])).cases[0].name, "case 50");
    await assert.rejects(store.read(ids[0]), /no kept eval report has id/);
    await assert.rejects(store.read("../../etc/passwd"), /no kept eval report has id/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("a diff compares pass rate, tokens, time and cost per run, and counts the pass rates that fell", () => {
  const baseline = report([
    entry("same"),
    entry("fell", { cost: { usd: 0.02 } } as Partial<EvalCaseReport>),
    entry("gone"),
  ]);
  const current = report([
    entry("fell", {
      runs: 4,
      passed: 2,
      passRate: 0.5,
      tokens: 800,
      durationMs: 2000,
      cost: { usd: 0.08 },
    } as Partial<EvalCaseReport>),
    entry("same", { tokens: 100 }),
    entry("new"),
  ]);
  const diff = diffReports(baseline, current);
  assert.equal(diff.regressions, 1);
  assert.deepEqual(diff.rows.map((r) => [r.name, r.status, r.regression]), [
    ["fell", "both", true],
    ["same", "both", false],
    ["new", "added", false],
    ["gone", "removed", false],
  ]);
  assert.deepEqual(diff.rows[0].change, {
    passRate: -0.5,
    tokensPerRun: 100,
    msPerRun: 0,
    usdPerRun: 0.01,
  });
  // No cost on either side: none in the change.
  assert.deepEqual(diff.rows[1].change, { passRate: 0, tokensPerRun: -50, msPerRun: 0 });
});

/** One case that passes on the demo model, and one whose expectation a test may flip. */
function cases(pongExpected: string) {
  return {
    models: ["demo"],
    cases: [
      {
        name: "adds",
        prompt: "Add 2 and 3 with a tool",
        expect: { calls: [{ tool: "demo__add" }] },
      },
      {
        name: "pongs",
        prompt: "Reply with the word pong",
        expect: { text: { regex: pongExpected } },
      },
    ],
  };
}

Deno.test("GET /api/evals/reports lists the kept runs; one reads by id and two compare", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const runs: Json[] = [];
    for (const pong of ["^pong$", "^ping$"]) {
      const response = await t.call("/api/evals/run", {
        method: "POST",
        json: { eval: cases(pong) },
      });
      const lines = parseNdjson(await response.text());
      runs.push(lines.at(-1));
    }
    assert.deepEqual(runs.map((r) => [r.type, r.passed]), [["report", 2], ["report", 1]]);
    assert.match(runs[0].id, /^\d{8}T\d{9}Z-[0-9a-f]{6}$/);
    const listed = await readJsonResponse(await t.call("/api/evals/reports"));
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.reports.map((r: Json) => [r.id, r.passed, r.runs, r.cases]),
      [[runs[1].id, 1, 2, 2], [runs[0].id, 2, 2, 2]],
    );
    const one = await readJsonResponse(await t.call(`/api/evals/reports/${runs[0].id}`));
    assert.deepEqual([one.status, one.body.id, one.body.cases.length], [200, runs[0].id, 2]);
    const diff = await readJsonResponse(
      await t.call(`/api/evals/reports/${runs[1].id}/diff?baseline=${runs[0].id}`),
    );
    assert.equal(diff.status, 200);
    assert.equal(diff.body.regressions, 1);
    assert.deepEqual(diff.body.baseline.id, runs[0].id);
    // The token in the query (as a link carries it) is not an unknown query field.
    const linked = await t.call(
      `/api/evals/reports/${runs[1].id}/diff?baseline=${runs[0].id}&token=${TOKEN}`,
      { token: null },
    );
    assert.equal(linked.status, 200, await linked.clone().text());
    await linked.body?.cancel();
    const pongs = diff.body.rows.find((r: Json) => r.name === "pongs");
    assert.deepEqual([pongs.regression, pongs.change.passRate], [true, -1]);
    const missing = await readJsonResponse(await t.call("/api/evals/reports/nope"));
    assert.deepEqual([missing.status, missing.body.error.code], [404, "not-found"]);
    const noBase = await readJsonResponse(await t.call(`/api/evals/reports/${runs[0].id}/diff`));
    assert.deepEqual([noBase.status, noBase.body.error.details[0].path], [400, "baseline"]);
  } finally {
    await t.close();
  }
});

/** Runs `lass eval` in this process: its exit code and what it printed. */
async function evalCommand(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const { log, error } = console;
  console.log = (...parts: unknown[]) => out.push(parts.join(" "));
  console.error = (...parts: unknown[]) => err.push(parts.join(" "));
  try {
    const code = await lassEval(args);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("lass eval --baseline prints the change per case; --fail-on-regression exits 1 when a pass rate fell", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-baseline-"));
  try {
    const config = join(dir, "service.json");
    await writeFile(config, JSON.stringify(chatConfig({ llms: [DEMO_LLM] })));
    await writeFile(join(dir, "good.eval.json"), JSON.stringify(cases("^pong$")));
    await writeFile(join(dir, "bad.eval.json"), JSON.stringify(cases("^ping$")));
    const flags = ["--config", config, "--data-dir", join(dir, "data")];
    const first = await evalCommand([
      join(dir, "good.eval.json"),
      ...flags,
      "--json",
      join(dir, "base.json"),
    ]);
    assert.equal(first.code, 0, first.err);
    const kept = await readdir(join(dir, "data", "evals", "reports"));
    assert.equal(kept.length, 1, "the run's report is kept");

    const base = join(dir, "base.json");
    const args = [join(dir, "bad.eval.json"), ...flags, "--min-pass-rate", "0", "--baseline", base];
    const compared = await evalCommand(args);
    assert.equal(compared.code, 0, "without --fail-on-regression a fall is reported only");
    assert.match(compared.out, /Against .*base\.json:/);
    assert.match(compared.out, /▼ pongs\s+demo\s+100% → 0% \(-100 pts\)/);
    assert.match(compared.out, /^adds\s+demo\s+100% → 100% \(±0 pts\)/m);
    assert.match(compared.out, /100% → 50% in all: 1 pass rate fell/);

    const gated = await evalCommand([...args, "--fail-on-regression"]);
    assert.equal(gated.code, 1);
    const fine = await evalCommand([
      join(dir, "good.eval.json"),
      ...flags,
      "--baseline",
      base,
      "--fail-on-regression",
    ]);
    assert.equal(fine.code, 0, fine.out);
    assert.match(fine.out, /in all: no pass rate fell/);
    assert.equal((await readdir(join(dir, "data", "evals", "reports"))).length, 4);
    await assert.rejects(
      evalCommand([join(dir, "good.eval.json"), ...flags, "--fail-on-regression"]),
      /--fail-on-regression needs --baseline/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("lass eval prints a SCORE column and each judged turn's score, threshold and reasons", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-judged-"));
  try {
    const example = new URL("../../examples/conversation.eval.yaml", import.meta.url).pathname;
    // No config file: the default one (the playground workspace on the demo model) is created.
    const flags = ["--config", join(dir, "service.json"), "--data-dir", join(dir, "data")];
    const ran = await evalCommand([example, ...flags]);
    assert.equal(ran.code, 0, ran.out);
    assert.match(ran.out, /^CASE\s+MODEL\s+PASSED\s+RATE\s+SCORE\s+TOKENS\s+COST\s+TIME$/m);
    // The demo model's turns and its judgements cost nothing.
    assert.match(ran.out, /^2 runs, 2 passed \(100%\), \d+ tokens, \$0: ok$/m);
    assert.match(ran.out, /^greets\s+demo\s+1\/1\s+100%\s+0\.67\s/m);
    assert.match(
      ran.out,
      /^✓ judged adds, then echoes the sum · demo · run 1 · turn 2: score 1 \(threshold 0\.7\) by demo: 1 of 1 key terms/m,
    );
    assert.match(
      ran.out,
      /^· judged greets · demo · run 1: score 0\.67 \(threshold 0\.8, advisory\) by demo: .*missing "friendly"/m,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
