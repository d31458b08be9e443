/** `lass eval` as a user runs it: a child process on the demo model and demo server. */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { run as runEval } from "../../cli/eval/command.ts";
import type { CliError } from "../../cli/errors.ts";
import { chat, DEMO_LLM, DEMO_SERVER, user } from "../_chat.ts";
import { type Json, startService } from "../_helpers.ts";
import { START_FLAGS } from "../../scripts/permissions.ts";
import { runToEnd } from "../_process.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
const EXAMPLE = new URL("../../examples/demo.eval.yaml", import.meta.url).pathname;

/** A config with two demo-kind profiles on the `playground` workspace; the second has a price. */
const PRICING = { inputPerMTok: 3, outputPerMTok: 15 };
const CONFIG = {
  llms: [DEMO_LLM, { ...DEMO_LLM, id: "demo2", name: "Demo 2", pricing: PRICING }],
  mcpServers: [DEMO_SERVER],
  workspaces: [{ id: "playground", name: "Playground", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "playground",
};

/** One passing and one failing case. */
const HALF = `cases:
  - name: adds
    prompt: Add 2 and 3 with a tool
    expect: { calls: [{ tool: demo__add, args: { a: 2, b: 3 } }] }
  - name: wrong
    prompt: Add 2 and 3 with a tool
    expect: { notCalled: [demo__add], text: { contains: ["seven"] } }
`;

/** A temp folder with the config, and `lass eval` run in it. */
async function folder() {
  const dir = await mkdtemp(join(tmpdir(), "lass-cli-eval-"));
  await writeFile(join(dir, "service.json"), JSON.stringify(CONFIG));
  const env = {
    NO_COLOR: "1",
    LASS_CONFIG: join(dir, "service.json"),
    LASS_DATA_DIR: join(dir, "data"),
  };
  return {
    dir,
    path: (name: string) => join(dir, name),
    eval: (...args: string[]) =>
      runToEnd(Deno.execPath(), ["run", ...START_FLAGS, MAIN, "eval", ...args], {
        cwd: dir,
        env,
      }),
    async json(name: string): Promise<Json> {
      return JSON.parse(await readFile(join(dir, name), "utf8"));
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}

/** The numbers of a report per case and model. */
function numbers(report: Json): unknown[] {
  return report.cases.map((c: Json) => [c.name, c.model, c.runs, c.passed, c.tokens]);
}

Deno.test("lass eval runs the example on two models: exit 0, a table, the JSON and JUnit reports", async () => {
  const f = await folder();
  try {
    const result = await f.eval(
      EXAMPLE,
      "--model",
      "demo",
      "--model",
      "demo2",
      "--repeat",
      "2",
      "--json",
      "report.json",
      "--junit",
      "report.xml",
    );
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^CASE +MODEL +PASSED +RATE +TOKENS +COST +TIME$/m);
    assert.match(result.stdout, /^adds two numbers +demo +2\/2 +100% +\d+ +\$0 /m);
    assert.match(result.stdout, /^adds two numbers +demo2 +2\/2 +100% +\d+ +\$0\.\d+ /m);
    assert.match(result.stdout, /16 runs, 16 passed \(100%\), \d+ tokens, \$0\.\d+: ok/);
    const report = await f.json("report.json");
    assert.deepEqual(report.models, ["demo", "demo2"]);
    assert.equal(report.cases.length, 8);
    assert.ok(report.cases.every((c: Json) => c.runs === 2 && c.passRate === 1 && c.tokens > 0));
    assert.deepEqual([report.runs, report.passed, report.passRate], [16, 16, 1]);
    // Tokens and cost per case and model and in total: the demo model is free, demo2 has a price.
    for (const entry of report.cases) {
      assert.equal(entry.cost.unpriced, 0);
      assert.equal(entry.cost.usd > 0, entry.model === "demo2", JSON.stringify(entry));
    }
    const sum = report.cases.reduce((usd: number, c: Json) => usd + c.cost.usd, 0);
    assert.ok(Math.abs(report.cost.usd - sum) < 1e-9 && report.cost.usd > 0);
    // --max-cost fails a run that cost more (here the merged report of that run).
    const over = await f.eval("--merge", "report.json", "--max-cost", "0.000001");
    assert.equal(over.code, 1, over.stderr);
    assert.match(
      over.stdout,
      /tokens, \$0\.\d+: it cost \$0\.\d+, more than --max-cost \$0\.000001$/m,
    );
    assert.match(over.stderr, /lass eval: the run failed: it cost \$0\.\d+, more than --max-cost/);
    const junit = await readFile(f.path("report.xml"), "utf8");
    assert.match(junit, /<testsuites name="lass eval" tests="8" failures="0" errors="0"/);
    assert.equal(junit.match(/<testsuite /g)?.length, 2, "a suite per model");
  } finally {
    await f.close();
  }
});

Deno.test("lass eval exits 1 below --min-pass-rate, names each failed run, and merges a report", async () => {
  const f = await folder();
  try {
    await writeFile(f.path("half.eval.yaml"), HALF);
    const failed = await f.eval("half.eval.yaml", "--repeat", "2", "--json", "half.json");
    assert.equal(failed.code, 1, failed.stderr);
    assert.match(
      failed.stdout,
      /4 runs, 2 passed \(50%\), \d+ tokens, \$0: below the minimum pass rate 100%/,
    );
    assert.match(
      failed.stderr,
      /✗ wrong · demo · run \d: notCalled: demo__add was called; text.contains: the answer has no "seven"/,
    );
    const report = await f.json("half.json");
    assert.deepEqual(report.cases.map((c: Json) => [c.name, c.passed, c.runs, c.passRate]), [
      ["adds", 2, 2, 1],
      ["wrong", 0, 2, 0],
    ]);
    assert.deepEqual(report.cases[1].failures.map((x: Json) => x.run), [1, 2]);
    const enough = await f.eval("--merge", "half.json", "--min-pass-rate", "0.5", "--json", "-");
    assert.equal(enough.code, 0, enough.stderr);
    assert.equal(JSON.parse(enough.stdout).passRate, 0.5);
  } finally {
    await f.close();
  }
});

Deno.test("lass eval exits 2 for an invalid file with every problem at its path, and for bad flags", async () => {
  const f = await folder();
  try {
    await writeFile(
      f.path("bad.eval.yaml"),
      "models: [ghost]\ncases:\n  - name: a\n    expect: { maxSteps: 0 }\n",
    );
    const invalid = await f.eval("bad.eval.yaml");
    assert.equal(invalid.code, 2);
    assert.equal(invalid.stdout, "");
    assert.match(invalid.stderr, /^lass: the eval is invalid:$/m);
    assert.match(invalid.stderr, /^ {2}cases\.0\.expect\.maxSteps: /m);
    assert.match(
      invalid.stderr,
      /^ {2}cases\.0\.prompt: a case needs `prompt`, `messages` or `turns`$/m,
    );
    const ghost = await f.eval(EXAMPLE, "--model", "ghost");
    assert.equal(ghost.code, 2);
    assert.match(ghost.stderr, /models\.0: no model profile has id "ghost"/);
    for (
      const args of [
        [EXAMPLE, "--repeat", "0"],
        [EXAMPLE, "--shard", "3/2"],
        [EXAMPLE, "--min-pass-rate", "2"],
        [EXAMPLE, "--max-cost", "a lot"],
        [EXAMPLE, "--frobnicate"],
        ["missing.eval.yaml"],
        [],
      ]
    ) {
      const result = await f.eval(...args);
      assert.equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      assert.match(result.stderr, /^lass: /, args.join(" "));
    }
  } finally {
    await f.close();
  }
});

Deno.test("lass eval --shard i/n runs slices that --merge joins into the whole report", async () => {
  const f = await folder();
  try {
    const common = ["--model", "demo", "--model", "demo2"];
    const whole = await f.eval(EXAMPLE, ...common, "--json", "whole.json");
    assert.equal(whole.code, 0, whole.stderr);
    for (const shard of ["1/3", "2/3", "3/3"]) {
      const result = await f.eval(
        EXAMPLE,
        ...common,
        "--shard",
        shard,
        "--json",
        `${shard[0]}.json`,
      );
      assert.equal(result.code, 0, result.stderr);
    }
    const shards = await Promise.all(["1", "2", "3"].map((i) => f.json(`${i}.json`)));
    assert.deepEqual(shards.map((shard) => shard.runs), [2, 3, 3], "8 runs in 3 slices");
    const merged = await f.eval("--merge", "3.json", "1.json", "2.json", "--json", "merged.json");
    assert.equal(merged.code, 0, merged.stderr);
    const [report, all] = [await f.json("merged.json"), await f.json("whole.json")];
    assert.deepEqual(numbers(report), numbers(all));
    assert.deepEqual([report.runs, report.passed, report.tokens], [
      all.runs,
      all.passed,
      all.tokens,
    ]);
    const missing = await f.eval("--merge", "1.json", "3.json");
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /shard 2\/3 is missing/);
  } finally {
    await f.close();
  }
});

/** One quick case: the summary of one run. */
const ONE = "models: [demo]\ncases:\n  - name: adds\n    prompt: Add 2 and 3 with a tool\n";

Deno.test("lass eval --merge refuses reports that are not the shards of one run, naming the file", async () => {
  const f = await folder();
  try {
    await writeFile(f.path("other.eval.yaml"), HALF);
    const runs = [
      [EXAMPLE, "--json", "out.json"],
      [EXAMPLE, "--repeat", "3", "--shard", "1/2", "--json", "s1.json"],
      [EXAMPLE, "--repeat", "1", "--shard", "2/2", "--json", "d2r1.json"],
      ["other.eval.yaml", "--repeat", "3", "--shard", "2/2", "--json", "o2.json"],
    ];
    for (const args of runs) {
      const ran = await f.eval(...args, "--min-pass-rate", "0");
      assert.equal(ran.code, 0, `${args.join(" ")}: ${ran.stderr}`);
    }
    const refusals: [string[], RegExp][] = [
      [["out.json", "out.json"], /^lass: out\.json is not a shard report/m],
      [["s1.json", "d2r1.json"], /^lass: d2r1\.json is not a shard of .* its repeat is 1, not 3/m],
      [["s1.json", "o2.json"], /^lass: o2\.json is not a shard of .*another eval file/m],
      [["s1.json", "s1.json"], /^lass: shard 1\/2 is given twice: s1\.json and s1\.json$/m],
      [["s1.json"], /^lass: shard 2\/2 is missing$/m],
    ];
    for (const [files, message] of refusals) {
      const merged = await f.eval("--merge", ...files);
      assert.equal(merged.code, 2, `${files.join(" ")}: ${merged.stdout}`);
      assert.equal(merged.stdout, "", "no table for a refused merge");
      assert.match(merged.stderr, message);
    }
  } finally {
    await f.close();
  }
});

Deno.test("lass eval creates the report folders, and prints the table before a write that fails", async () => {
  const f = await folder();
  try {
    await writeFile(f.path("one.eval.yaml"), ONE);
    const args = ["one.eval.yaml", "--model", "demo", "--model", "demo"];
    const ran = await f.eval(...args, "--json", "reports/r.json", "--junit", "reports/x/j.xml");
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /^1 run, 1 passed \(100%\), \d+ tokens, \$0: ok$/m, "one model, once");
    assert.equal((await f.json("reports/r.json")).runs, 1);
    assert.match(await readFile(f.path("reports/x/j.xml"), "utf8"), /tests="1" failures="0"/);
    // service.json is a file: no folder can be made under it.
    const blocked = await f.eval(...args, "--json", "service.json/r.json");
    assert.equal(blocked.code, 1);
    assert.match(blocked.stdout, /^adds +demo +1\/1 +100%/m, "the table came first");
    assert.match(blocked.stderr, /^lass: cannot write the JSON report service\.json\/r\.json: /m);
  } finally {
    await f.close();
  }
});

Deno.test("lass eval reports every problem of a file at once, warns about misspelt fields, and names a bad --shard", async () => {
  const f = await folder();
  try {
    await writeFile(
      f.path("bad.eval.yaml"),
      "workspace: nows\ncases:\n  - name: a\n  - name: b\n    prompt: hi\n",
    );
    const invalid = await f.eval("bad.eval.yaml");
    assert.equal(invalid.code, 2);
    assert.equal(
      invalid.stderr,
      "lass: the eval is invalid:\n" +
        '  workspace: no workspace has id "nows"\n' +
        "  cases.0.prompt: a case needs `prompt`, `messages` or `turns`\n",
    );
    await writeFile(
      f.path("typo.eval.yaml"),
      ONE.replace("models:", "modles:") + "    expects: { text: { contains: [nine] } }\n",
    );
    const typo = await f.eval("typo.eval.yaml");
    assert.equal(typo.code, 0, "warnings do not fail");
    assert.match(typo.stderr, /^warning: modles: unknown field; did you mean models\?$/m);
    assert.match(
      typo.stderr,
      /^warning: cases\.0\.expects: unknown field; did you mean expect\?$/m,
    );
    const shard = await f.eval(EXAMPLE, "--shard", "3/2");
    assert.equal(shard.code, 2);
    assert.equal(shard.stderr, "lass: --shard 3/2: the index must be between 1 and 2\n");
  } finally {
    await f.close();
  }
});

Deno.test("lass eval --from-session prints a chat's case as an eval file, and --out adds it to one", async () => {
  const f = await folder();
  try {
    const t = await startService({ dir: f.dir, config: CONFIG });
    try {
      const ran = await chat(t, {
        messages: [user("Add 2 and 3 with a tool")],
        sessionId: "s1",
        workspaceId: "playground",
      });
      assert.equal(ran.chunks.at(-1).type, "finish", JSON.stringify(ran.chunks.at(-1)));
    } finally {
      await t.close();
    }
    const printed = await f.eval("--from-session", "s1");
    assert.equal(printed.code, 0, printed.stderr);
    assert.deepEqual(parseYaml(printed.stdout), {
      workspace: "playground",
      models: ["demo"],
      cases: [{
        name: "Add 2 and 3 with a tool",
        prompt: "Add 2 and 3 with a tool",
        expect: { calls: [{ tool: "demo__add", args: { a: 2, b: 3 } }] },
      }],
    });
    assert.match(printed.stdout, /^# Eval cases saved from Lass chats/);
    assert.match(
      printed.stdout,
      /^ {2}# From the chat "Add 2 and 3 with a tool" \(session s1, its turn\)/m,
    );

    // In process: --out adds to the example (its content kept), a second time with a new name.
    const out = f.path("demo.eval.yaml");
    const before = await readFile(EXAMPLE, "utf8");
    await writeFile(out, before);
    const flags = ["--from-session", "s1", "--data-dir", f.path("data"), "--out", out];
    assert.equal(await runEval(flags), 0);
    assert.equal(await runEval([...flags, "--turn", "0"]), 0);
    const after = await readFile(out, "utf8");
    assert.ok(after.startsWith(before), "the example's text is kept as it was");
    assert.deepEqual(parseYaml(after).cases.slice(4).map((c: Json) => c.name), [
      "Add 2 and 3 with a tool",
      "Add 2 and 3 with a tool (2)",
    ]);
    await assert.rejects(runEval(["--turn", "0"]), /--turn goes with --from-session/);
    await assert.rejects(
      runEval(["--from-session", "s1", "--data-dir", f.path("data"), "--turn", "4"]),
      (error: CliError) =>
        error.exitCode === 2 && /turns.0: is 4; the session's turns are 0 to 0/.test(error.message),
    );
    await assert.rejects(
      runEval(["--from-session", "nope", "--data-dir", f.path("data")]),
      (error: CliError) => error.exitCode === 1 && /no session has id nope/.test(error.message),
    );
  } finally {
    await f.close();
  }
});
