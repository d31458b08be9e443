/** `--merge` of shard reports: only the shards of one plan, each once, none missing. */
import assert from "node:assert/strict";
import { parseEval } from "../../core/evals/file.ts";
import { mergeReports, parseReport } from "../../core/evals/merge.ts";
import type { EvalReport } from "../../wire/evals.ts";
import { type EvalOptions, prepareEval } from "../../core/evals/runner.ts";
import { evalHash, parseShard } from "../../core/evals/shard.ts";
import { chatConfig, DEMO_LLM } from "../_chat.ts";
import { startService } from "../_helpers.ts";

const FILE = parseEval({
  cases: [
    { name: "adds", prompt: "Add 2 and 3 with a tool", expect: { calls: [{ tool: "demo__add" }] } },
    { name: "pongs", prompt: "Reply with the word pong" },
  ],
});

/** The same cases, one prompt changed: another eval file. */
const OTHER = parseEval({
  cases: [
    { name: "adds", prompt: "Add 2 and 4 with a tool", expect: { calls: [{ tool: "demo__add" }] } },
    { name: "pongs", prompt: "Reply with the word pong" },
  ],
});

/** The message of the refusal `mergeReports` throws. */
function refusal(reports: EvalReport[], names: string[]): string {
  try {
    mergeReports(reports, names);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail(`${names.join(" + ")} were merged`);
}

Deno.test("a shard report records its plan: the eval file's hash, models, repeat and total runs", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const report = await prepareEval(t.service, FILE, {
      repeat: 3,
      shard: { index: 2, count: 4 },
    }).run();
    assert.deepEqual(report.shard, {
      index: 2,
      count: 4,
      evalHash: evalHash(FILE),
      models: ["demo"],
      repeat: 3,
      totalRuns: 6,
    });
    assert.equal(report.runs, 2, "shard 2/4 of 6 runs: runs 2 and 3");
    assert.match(evalHash(FILE), /^sha256:[0-9a-f]{64}$/);
    // The content as parsed: the order of the keys does not matter, the content does.
    assert.equal(
      evalHash(parseEval({ cases: [...FILE.cases].map((c) => ({ ...c })) })),
      evalHash(FILE),
    );
    assert.notEqual(evalHash(OTHER), evalHash(FILE));
    const whole = await prepareEval(t.service, FILE).run();
    assert.equal(whole.shard, undefined, "a whole report has no shard");
  } finally {
    await t.close();
  }
});

Deno.test("merging refuses reports that are not the shards of one run, naming the report", async () => {
  const t = await startService({
    config: chatConfig({ llms: [DEMO_LLM, { ...DEMO_LLM, id: "demo2", name: "Demo 2" }] }),
  });
  try {
    const run = (file: typeof FILE, options: EvalOptions) =>
      prepareEval(t.service, file, { concurrency: 4, ...options }).run();
    const whole = await run(FILE, {});
    const s1 = await run(FILE, { repeat: 3, shard: { index: 1, count: 2 } });
    const s2 = await run(FILE, { repeat: 3, shard: { index: 2, count: 2 } });
    const repeatOne = await run(FILE, { shard: { index: 2, count: 2 } });
    const otherFile = await run(OTHER, { repeat: 3, shard: { index: 2, count: 2 } });
    const otherModels = await run(FILE, {
      repeat: 3,
      models: ["demo2"],
      shard: { index: 2, count: 2 },
    });
    const ofThree = await run(FILE, { repeat: 3, shard: { index: 2, count: 3 } });

    assert.match(
      refusal([whole, whole], ["out.json", "out.json"]),
      /^out\.json is not a shard report/,
    );
    assert.match(
      refusal([s1, repeatOne], ["s1.json", "d2r1.json"]),
      /^d2r1\.json is not a shard of the same eval run as s1\.json: its repeat is 1, not 3; .*its plan has 2 runs, not 6$/,
    );
    assert.match(
      refusal([s1, otherFile], ["s1.json", "o2.json"]),
      /^o2\.json is not a shard of the same eval run as s1\.json: it comes from another eval file/,
    );
    assert.match(
      refusal([s1, otherModels], ["s1.json", "m2.json"]),
      /^m2\.json .*: its models are demo2, not demo$/,
    );
    assert.match(refusal([s1, ofThree], ["s1.json", "t2.json"]), /it is one of 3 shards, not 2/);
    assert.equal(
      refusal([s1, s1, s2], ["a.json", "b.json", "c.json"]),
      "shard 1/2 is given twice: a.json and b.json",
    );
    assert.equal(refusal([s2], ["s2.json"]), "shard 1/2 is missing");
    assert.match(
      refusal([s1, { ...s2, runs: 1 }], ["s1.json", "s2.json"]),
      /^s2\.json holds 1 run, but shard 2\/2 of 6 runs has 3$/,
    );
    // A shard from before reports recorded their plan cannot be told apart: refused.
    const old = parseReport({ ...s1, shard: { index: 1, count: 2 } }, "old.json");
    assert.match(
      refusal([old, s2], ["old.json", "s2.json"]),
      /^old\.json does not record the plan/,
    );

    const merged = mergeReports([s2, s1], ["s2.json", "s1.json"]);
    assert.deepEqual([merged.runs, merged.shard], [6, undefined]);
    assert.deepEqual(merged.cases.map((c) => [c.name, c.runs]), [["adds", 3], ["pongs", 3]]);
    // A lone whole report stays whole (re-rendered with another threshold, say).
    assert.equal(mergeReports([whole], ["out.json"]).runs, 2);
  } finally {
    await t.close();
  }
});

Deno.test("a bad shard says what is wrong with it", () => {
  const message = (text: string) => {
    try {
      parseShard(text, "--shard");
    } catch (error) {
      return (error as Error).message;
    }
    assert.fail(`${text} was accepted`);
  };
  assert.equal(message("3/2"), "--shard 3/2: the index must be between 1 and 2");
  assert.equal(message("0/2"), "--shard 0/2: the index must be between 1 and 2");
  assert.equal(message("1/0"), "--shard 1/0: the count must be at least 1");
  assert.match(message("half"), /^--shard half: must be i\/n/);
});
