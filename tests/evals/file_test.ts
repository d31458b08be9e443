import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import type { ChatChunk } from "../../wire/chat.ts";
import { judge } from "../../core/evals/expect.ts";
import { type EvalFile, evalJsonSchema, parseEval, readEvalText } from "../../core/evals/file.ts";
import { evalJunit } from "../../core/evals/junit.ts";
import { mergeReports } from "../../core/evals/merge.ts";
import type { EvalReport } from "../../wire/evals.ts";
import { prepareEval } from "../../core/evals/runner.ts";
import { parseShard, shardOf } from "../../core/evals/shard.ts";
import type { EvalProgress } from "../../wire/evals.ts";
import { chatConfig, DEMO_LLM, fakeLlm } from "../_chat.ts";
import { type Json, startService } from "../_helpers.ts";
import { problems } from "../_evals.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";

const EXAMPLE = new URL("../../examples/demo.eval.yaml", import.meta.url);

/** A turn's chunks: tool calls, text, steps and a finish with this many total tokens. */
function turn(
  options: {
    calls?: [string, unknown][];
    text?: string;
    steps?: number;
    tokens?: number;
    error?: string;
    unavailable?: { serverId: string; status: string; error: string }[];
  },
): ChatChunk[] {
  const { unavailable } = options;
  const chunks: ChatChunk[] = [
    {
      type: "start",
      runId: "r",
      model: "m",
      profileId: "p",
      tools: 2,
      ...(unavailable && { unavailable }),
    },
  ];
  (options.calls ?? []).forEach(([name, input], index) =>
    chunks.push({ type: "tool-call", id: `c${index}`, name, tool: name, source: "demo", input })
  );
  if (options.text) chunks.push({ type: "text", text: options.text });
  for (let i = 0; i < (options.steps ?? 1); i++) {
    chunks.push({ type: "step", usage: {}, finishReason: "stop", cost: null, costUnknown: "none" });
  }
  chunks.push(
    options.error !== undefined ? { type: "error", message: options.error } : {
      type: "finish",
      usage: { totalTokens: options.tokens ?? 100 },
      cost: null,
      costUnknown: "none",
      steps: [],
      durationMs: 1,
      messages: [],
    },
  );
  return chunks;
}

/** The expectations of a one-case file, checked by the schema. */
function expectOf(expect: Record<string, unknown>) {
  return parseEval({ cases: [{ name: "c", prompt: "p", expect }] }).cases[0].expect;
}

Deno.test("schema/eval.schema.json is the JSON Schema of the zod schema (run `deno task schema`)", async () => {
  const committed = await readFile(
    new URL("../../schema/eval.schema.json", import.meta.url),
    "utf8",
  );
  assert.deepEqual(JSON.parse(committed), evalJsonSchema());
});

Deno.test("the example eval file is valid and keeps extra fields", async () => {
  const file = parseEval(readEvalText(await readFile(EXAMPLE, "utf8"), "demo.eval.yaml"));
  assert.equal(file.workspace, "playground");
  assert.deepEqual(file.models, ["demo"]);
  assert.equal(file.cases[0].expect.calls?.[0].tool, "demo__add");
  const extra = parseEval({
    owner: "me",
    cases: [{ name: "a", prompt: "p", tags: ["x"] }],
  }) as Json;
  assert.equal(extra.owner, "me");
  assert.deepEqual(extra.cases[0].tags, ["x"]);
  assert.deepEqual(extra.cases[0].expect, { ordered: false });
});

Deno.test("an invalid eval file reports every problem at its dotted path", () => {
  const found = problems(() =>
    parseEval({
      models: [],
      cases: [
        {
          name: "a",
          prompt: "x",
          messages: [{ role: "user", content: "x" }],
          expect: {
            calls: [{ tool: "", argsMatch: { a: "(" } }],
            notcalled: ["x"],
            maxSteps: 0,
            maxTokens: 1.5,
          },
        },
        { name: "a", expect: { text: { regex: "[", contains: "5" } } },
        { prompt: "no name" },
      ],
    })
  );
  assert.deepEqual(found.map((problem) => problem.path).sort(), [
    "cases.0.expect.calls.0.argsMatch.a",
    "cases.0.expect.calls.0.tool",
    "cases.0.expect.maxSteps",
    "cases.0.expect.maxTokens",
    "cases.0.expect.notcalled",
    "cases.0.prompt",
    "cases.1.expect.text.contains",
    "cases.1.expect.text.regex",
    "cases.1.name",
    "cases.1.prompt",
    "cases.2.name",
    "models",
  ]);
  assert.match(
    found.find((problem) => problem.path === "cases.0.prompt")!.message,
    /not both/,
  );
  assert.equal(
    found.find((p) => p.path === "cases.0.expect.notcalled")!.message,
    "is not a known field",
  );
  assert.deepEqual(
    problems(() => parseEval({ cases: [{ name: "a", prompt: "x" }, { name: "a", prompt: "y" }] })),
    [{ path: "cases.1.name", message: 'duplicate name "a" (first used at cases.0)' }],
  );
  assert.deepEqual(problems(() => parseEval({ cases: [] }, "eval")).map((p) => p.path), [
    "eval.cases",
  ]);
});

Deno.test("YAML and JSON syntax errors are reported with their line", () => {
  const yaml = problems(() => readEvalText("cases:\n  - name: a\n   prompt: [x", "a.eval.yaml"));
  assert.match(yaml[0].message, /not valid YAML \(line \d\)/);
  const json = problems(() => readEvalText('{"cases": [', "a.eval.json"));
  assert.match(json[0].message, /not valid JSON/);
  assert.deepEqual(readEvalText('{"cases": []}', "a.eval.json"), { cases: [] });
});

Deno.test("calls: a subset of the arguments, argsMatch regexes and each call matched once", () => {
  const chunks = turn({ calls: [["demo__add", { a: 2, b: 3, c: { d: 1, e: 2 } }]] });
  assert.deepEqual(
    judge(chunks, expectOf({ calls: [{ tool: "demo__add", args: { a: 2, c: { d: 1 } } }] })),
    { passed: true, reasons: [], facts: judge(chunks, {} as Json).facts },
  );
  assert.equal(
    judge(chunks, expectOf({ calls: [{ tool: "demo__add", argsMatch: { a: "^2$" } }] })).passed,
    true,
  );
  assert.deepEqual(
    judge(chunks, expectOf({ calls: [{ tool: "demo__add", argsMatch: { b: "^2$", x: "." } }] }))
      .reasons,
    ["calls.0: demo__add was called, but it has b = 3, which does not match /^2$/"],
  );
  assert.deepEqual(
    judge(chunks, expectOf({ calls: [{ tool: "demo__add", args: { a: 3 } }] })).reasons,
    [
      'calls.0: demo__add was called, but it has arguments {"a":2,"b":3,"c":{"d":1,"e":2}}, not {"a":3}',
    ],
  );
  assert.deepEqual(
    judge(chunks, expectOf({ calls: [{ tool: "demo__add" }, { tool: "demo__add" }] })).reasons,
    ["calls.1: demo__add was called 1 time, fewer than the 2 calls expected"],
  );
  // A looser expectation listed first does not take the only call that fits a stricter one.
  const two = turn({ calls: [["demo__echo", { text: "b" }], ["demo__echo", { text: "a" }]] });
  assert.equal(
    judge(
      two,
      expectOf({
        calls: [{ tool: "demo__echo" }, { tool: "demo__echo", args: { text: "b" } }],
      }),
    ).passed,
    true,
  );
  assert.deepEqual(
    judge(two, expectOf({ calls: [{ tool: "demo__add" }] })).reasons,
    ["calls.0: demo__add was not called"],
  );
});

Deno.test("a failed run names the tool servers its turn went without; a passed one does not fail for them", () => {
  const unavailable = [{ serverId: "dead", status: "error", error: "spawn ENOENT" }];
  const chunks = turn({ calls: [["demo__echo", {}]], unavailable });
  assert.deepEqual(judge(chunks, expectOf({ calls: [{ tool: "dead__run" }] })).reasons, [
    "calls.0: dead__run was not called",
    "the turn went without tool server dead (error): spawn ENOENT",
  ]);
  assert.deepEqual(judge(chunks, expectOf({ calls: [{ tool: "demo__echo" }] })).reasons, []);
});

Deno.test("ordered calls must come in order; unordered ones in any order", () => {
  const chunks = turn({ calls: [["demo__echo", {}], ["demo__add", {}]] });
  const calls = [{ tool: "demo__add" }, { tool: "demo__echo" }];
  assert.equal(judge(chunks, expectOf({ calls })).passed, true);
  assert.deepEqual(judge(chunks, expectOf({ calls, ordered: true })).reasons, [
    "ordered: calls.1 (demo__echo) did not come after calls.0; the calls were demo__echo, demo__add",
  ]);
  const between = turn({ calls: [["demo__add", {}], ["demo__time", {}], ["demo__echo", {}]] });
  assert.equal(judge(between, expectOf({ calls, ordered: true })).passed, true);
});

Deno.test("notCalled, text, maxSteps and maxTokens each name what failed", () => {
  const chunks = turn({
    calls: [["demo__echo", { text: "x" }]],
    text: "The sum is 5, no error.",
    steps: 4,
    tokens: 12_000,
  });
  const verdict = judge(
    chunks,
    expectOf({
      notCalled: ["demo__echo", "demo__fail"],
      text: { contains: ["5", "sum", "six"], notContains: ["error"], regex: "^The\\b" },
      maxSteps: 3,
      maxTokens: 10_000,
    }),
  );
  assert.equal(verdict.passed, false);
  assert.deepEqual(verdict.reasons, [
    "notCalled: demo__echo was called",
    'text.contains: the answer has no "six"',
    'text.notContains: the answer has "error"',
    "maxSteps: the turn took 4 steps, more than 3",
    "maxTokens: the turn used 12000 tokens, more than 10000",
  ]);
  assert.deepEqual(
    judge(chunks, expectOf({ text: { regex: "\\b6\\b" }, maxSteps: 4, maxTokens: 12_000 }))
      .reasons,
    ["text.regex: the answer does not match /\\b6\\b/"],
  );
  assert.deepEqual(judge(turn({ error: "the model failed" }), expectOf({})).reasons, [
    "the turn failed: the model failed",
  ]);
});

Deno.test("the example eval passes on the demo model and demo server, with tokens and progress", async () => {
  const t = await startService();
  try {
    const file = parseEval(readEvalText(await readFile(EXAMPLE, "utf8"), "demo.eval.yaml"));
    const lines: EvalProgress[] = [];
    const report = await prepareEval(t.service, file).run({ onProgress: (l) => lines.push(l) });
    assert.deepEqual(
      report.cases.map((c) => [c.name, c.model, c.runs, c.passed, c.passRate, c.failures]),
      file.cases.map((c) => [c.name, "demo", 1, 1, 1, []]),
    );
    assert.equal(report.passRate, 1);
    assert.equal(report.workspace, "playground");
    assert.ok(report.cases.every((c) => c.tokens > 0), "every run counted its tokens");
    assert.equal(report.tokens, report.cases.reduce((n, c) => n + c.tokens, 0));
    assert.deepEqual(lines[0], {
      type: "start",
      workspace: "playground",
      models: ["demo"],
      cases: 4,
      runs: 4,
    });
    assert.deepEqual(lines.slice(1).map((l) => l.type === "run" && l.done), [1, 2, 3, 4]);
  } finally {
    await t.close();
  }
});

/** A file with a tool case and a text case on workspace `w`. */
const TWO_CASES: EvalFile = parseEval({
  workspace: "w",
  cases: [
    {
      name: "adds",
      prompt: "Add 2 and 3 with a tool",
      expect: { calls: [{ tool: "demo__add", args: { a: 2, b: 3 } }] },
    },
    { name: "pongs", prompt: "Reply with the word pong", expect: { text: { regex: "^pong$" } } },
  ],
});

Deno.test("repeats on two models: the report counts runs, passes, rates, tokens, cost and failures", async () => {
  const vendor = await startFakeVendor();
  vendor.script([{ text: ["pong"], usage: { input: 10, output: 5 } }]);
  const pricing = { inputPerMTok: 2, outputPerMTok: 10 };
  const t = await startService({
    config: chatConfig({ llms: [DEMO_LLM, fakeLlm(vendor.url, "fake", { pricing })] }),
  });
  try {
    const report = await prepareEval(t.service, TWO_CASES, {
      models: ["demo", "fake"],
      repeat: 3,
      concurrency: 3,
    }).run();
    assert.deepEqual(
      report.cases.map((c) => [c.name, c.model, c.runs, c.passed, c.passRate]),
      [
        ["adds", "demo", 3, 3, 1],
        ["adds", "fake", 3, 0, 0],
        ["pongs", "demo", 3, 3, 1],
        ["pongs", "fake", 3, 3, 1],
      ],
    );
    assert.deepEqual([report.runs, report.passed, report.passRate], [12, 9, 0.75]);
    const fake = report.cases[1];
    assert.deepEqual(fake.failures.map((f) => [f.run, f.reason]), [
      [1, "calls.0: demo__add was not called"],
      [2, "calls.0: demo__add was not called"],
      [3, "calls.0: demo__add was not called"],
    ]);
    assert.equal(fake.tokens, 45, "15 tokens a run, as the fake vendor reports");
    // 3 runs of 10 input tokens at $2 and 5 output tokens at $10 per million ($0.00007 a run,
    // rounded to 1e-10); the demo model is free.
    assert.deepEqual(report.cases.map((c) => c.cost), [
      { usd: 0, unpriced: 0 },
      { usd: 0.00021, unpriced: 0 },
      { usd: 0, unpriced: 0 },
      { usd: 0.00021, unpriced: 0 },
    ]);
    assert.deepEqual(report.cost, { usd: 0.00042, unpriced: 0 });
    assert.match(evalJunit(report), /3 of 3 runs passed \(100%\), 45 tokens, \$0\.00021/);
    assert.deepEqual(
      fake.failures[0].chunks.map((chunk) => chunk.type),
      ["start", "text", "step", "finish"],
    );
    assert.ok(report.durationMs >= fake.durationMs);
    const junit = evalJunit(report);
    assert.match(junit, /<testsuites name="lass eval" tests="4" failures="1" errors="0"/);
    assert.match(
      junit,
      /<testcase name="adds" classname="eval.fake"[^>]*>\s*<failure message="pass rate 0% is below 100%: calls.0: demo__add was not called">/,
    );
    assert.match(evalJunit(report, 0), /failures="0"/);
  } finally {
    await t.close();
    await vendor.close();
  }
});

Deno.test("unknown workspaces and models, and bad messages, are reported at their paths", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const file = parseEval({
      workspace: "nope",
      models: ["demo", "ghost"],
      cases: [{ name: "a", messages: [{ role: "user", content: [{ type: "pixels" }] }] }],
    });
    const found = problems(() => prepareEval(t.service, file, { pathPrefix: "eval" }));
    const paths = found.map((p) => p.path);
    assert.deepEqual(paths.slice(0, 2), ["eval.workspace", "eval.models.1"]);
    assert.ok(paths.slice(2).every((p) => p.startsWith("eval.cases.0.messages.0")), `${paths}`);
    assert.deepEqual(
      problems(() => prepareEval(t.service, TWO_CASES, { models: ["x"] })),
      [{ path: "models.0", message: 'no model profile has id "x"' }],
    );
  } finally {
    await t.close();
  }
});

Deno.test("shards: every run in exactly one slice, and the merged shards equal the whole report", async () => {
  const keys = Array.from({ length: 13 }, (_, i) => i);
  for (const count of [1, 2, 3, 5, 13, 20]) {
    const slices = Array.from({ length: count }, (_, i) => shardOf(keys, { index: i + 1, count }));
    assert.deepEqual(slices.flat(), keys, `${count} slices cover every run once, in order`);
    const sizes = slices.map((slice) => slice.length);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `even slices: ${sizes}`);
  }
  assert.deepEqual(parseShard("2/3"), { index: 2, count: 3 });
  for (const bad of ["0/3", "4/3", "1/0", "x", "1/2/3"]) {
    assert.equal(problems(() => parseShard(bad))[0].path, "shard", bad);
  }

  const t = await startService({ config: chatConfig() });
  try {
    const options = { repeat: 2, concurrency: 2 };
    const whole = await prepareEval(t.service, TWO_CASES, options).run();
    const shards: EvalReport[] = [];
    for (const index of [3, 1, 2]) {
      const shard = { index, count: 3 };
      const prepared = prepareEval(t.service, TWO_CASES, { ...options, shard });
      assert.equal(prepared.runs.length, index === 3 ? 2 : 1, `the size of shard ${index}/3`);
      shards.push(await prepared.run());
    }
    const merged = mergeReports(shards);
    const numbers = (report: EvalReport) =>
      report.cases.map((c) => [c.name, c.model, c.runs, c.passed, c.passRate, c.tokens]);
    assert.deepEqual(numbers(merged), numbers(whole));
    assert.deepEqual(
      [merged.runs, merged.passed, merged.passRate, merged.tokens, merged.shard],
      [whole.runs, whole.passed, whole.passRate, whole.tokens, undefined],
    );
    assert.throws(() => mergeReports(shards.slice(1)), /shard 3\/3 is missing/);
    assert.throws(() => mergeReports([shards[0], shards[0], shards[1]]), /given twice/);
  } finally {
    await t.close();
  }
});

Deno.test("approval questions of eval runs are answered as --approve says", async () => {
  const t = await startService({ config: chatConfig({ workspace: { requireApproval: true } }) });
  const file = parseEval({
    cases: [{
      name: "adds",
      prompt: "Add 2 and 3 with a tool",
      expect: { calls: [{ tool: "demo__add" }], text: { regex: "returned" } },
    }],
  });
  try {
    const approved = await prepareEval(t.service, file, { approve: "all" }).run();
    assert.equal(approved.passRate, 1, JSON.stringify(approved.cases[0].failures));
    const denied = await prepareEval(t.service, file).run();
    assert.deepEqual(denied.cases[0].failures.map((f) => f.reason), [
      "text.regex: the answer does not match /returned/",
    ]);
    assert.equal(t.service.interactions.list().length, 0, "no question is left waiting");
  } finally {
    await t.close();
  }
});

Deno.test("aborting an eval stops its turns and rejects", async () => {
  const vendor = await startFakeVendor();
  vendor.script([{ text: ["slow", " answer", " here"], chunkDelayMs: 200 }]);
  const t = await startService({ config: chatConfig({ llms: [fakeLlm(vendor.url)] }) });
  try {
    const abort = new AbortController();
    // Stopped once the first turn is under way.
    const stop = t.service.events.subscribe((event) => {
      if (event.type === "chat.start") abort.abort(new Error("stop"));
    });
    const progress: EvalProgress[] = [];
    const running = prepareEval(t.service, TWO_CASES, { repeat: 4 }).run({
      signal: abort.signal,
      onProgress: (line) => progress.push(line),
    });
    await assert.rejects(running, /stop/);
    stop();
    const ended = t.service.events.history().filter((event) => event.type === "chat.error");
    assert.ok(ended.length > 0, "a turn was aborted");
    assert.ok(ended.every((event) => (event.data as Json).aborted === true));
    assert.deepEqual(progress.map((line) => line.type), ["start"], "no run was counted");
  } finally {
    await t.close();
    await vendor.close();
  }
});
