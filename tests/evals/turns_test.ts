/** Multi-turn eval cases and judged expectations (`expect.judge`), on the demo model. */
import assert from "node:assert/strict";
import { generateText, Output } from "ai";
import { z } from "zod";
import { parseEval, readEvalText } from "../../core/evals/file.ts";
import { prepareEval } from "../../core/evals/runner.ts";
import { createDemoModel } from "../../core/llm/demo/model.ts";
import { demoJudgement, rubricTerms } from "../../core/llm/demo/judge.ts";
import { chatConfig, DEMO_LLM, fakeLlm } from "../_chat.ts";
import { type Json, startService } from "../_helpers.ts";
import { problems } from "../_evals.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";

Deno.test("a multi-turn case runs as one conversation; one failing on its second turn names it", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const file = parseEval({
      cases: [
        {
          name: "adds then echoes",
          turns: [
            { prompt: "Add 2 and 3 with a tool", expect: { calls: [{ tool: "demo__add" }] } },
            {
              prompt: 'Echo "again" with a tool',
              expect: { calls: [{ tool: "demo__echo", argsMatch: { text: "^again$" } }] },
            },
          ],
        },
        {
          name: "fails on turn 2",
          turns: [
            { prompt: "Add 2 and 3 with a tool", expect: { calls: [{ tool: "demo__add" }] } },
            { prompt: 'Echo "x" with a tool', expect: { calls: [{ tool: "demo__add" }] } },
            { prompt: "Reply with the word pong" },
          ],
        },
      ],
    });
    const report = await prepareEval(t.service, file).run();
    assert.deepEqual(report.cases.map((c) => [c.name, c.passed, c.runs]), [
      ["adds then echoes", 1, 1],
      ["fails on turn 2", 0, 1],
    ]);
    const [failure] = report.cases[1].failures;
    assert.equal(failure.turn, 2);
    assert.deepEqual(failure.reasons, [
      "turn 2: calls.0: demo__add was not called",
      "turn 3 did not run",
    ]);
    // The failed turn's own chunks: its one call is the echo.
    const calls = failure.chunks.flatMap((c) => c.type === "tool-call" ? [c.name] : []);
    assert.deepEqual(calls, ["demo__echo"]);
    assert.ok(report.cases[0].tokens > 0, "the tokens of both turns");
  } finally {
    await t.close();
  }
});

Deno.test("the next turn's request carries the earlier turns, tool calls and results included", async () => {
  const vendor = await startFakeVendor();
  vendor.script([
    { toolCalls: [{ name: "demo__add", args: { a: 2, b: 3 } }] },
    { text: ["The sum is 5."] },
    { text: ["Goodbye."] },
  ]);
  const pricing = { inputPerMTok: 1, outputPerMTok: 2 };
  const t = await startService({
    config: chatConfig({ llms: [fakeLlm(vendor.url, "fake", { pricing })] }),
  });
  try {
    const file = parseEval({
      cases: [{
        name: "two turns",
        turns: [
          {
            prompt: "Add 2 and 3",
            expect: { calls: [{ tool: "demo__add", args: { a: 2, b: 3 } }] },
          },
          {
            messages: [{ role: "user", content: "Say goodbye" }],
            expect: { text: { contains: ["Goodbye"] } },
          },
        ],
      }],
    });
    const report = await prepareEval(t.service, file).run();
    assert.equal(report.passed, 1, JSON.stringify(report.cases[0].failures));
    // Three model calls over the two turns, each 10 tokens in and 5 out.
    assert.deepEqual(report.cases[0].cost, { usd: 3 * 20 / 1e6, unpriced: 0 });
    const last = vendor.requests.filter((r) => r.path.endsWith("/chat/completions")).at(-1)!;
    // The workspace's system message aside.
    const messages = ((last.body as Json).messages as Json[]).filter((m) => m.role !== "system");
    assert.deepEqual(messages.map((m) => m.role), [
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    assert.equal(messages[0].content, "Add 2 and 3");
    assert.equal(messages[1].tool_calls[0].function.name, "demo__add");
    assert.match(JSON.stringify(messages[2].content), /5/);
    assert.equal(messages[3].content, "The sum is 5.");
    assert.equal(messages[4].content, "Say goodbye");
  } finally {
    await t.close();
    await vendor.close();
  }
});

Deno.test("turns and judges are checked at their paths", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const found = problems(() =>
      parseEval({
        cases: [
          { name: "a", turns: [{ prompt: "p", messages: [{ role: "user", content: "m" }] }, {}] },
          { name: "b", prompt: "p", turns: [{ prompt: "q" }] },
          { name: "c", turns: [{ prompt: "q" }], expect: { maxSteps: 1 } },
          { name: "d", turns: [{ prompt: "q", expec: {} }] },
          { name: "e", prompt: "p", expect: { judge: { rubric: " ", threshold: 2 } } },
        ],
      })
    );
    assert.deepEqual(found.map((p) => `${p.path}: ${p.message}`).sort(), [
      "cases.0.turns.0.prompt: a turn has `prompt` and `messages`: one of them, not both",
      "cases.0.turns.1.prompt: a turn needs `prompt` or `messages`",
      "cases.1.prompt: a case has `prompt` and `turns`: one of them, not both",
      "cases.2.expect: a case with `turns` puts each `expect` in its turn",
      "cases.3.turns.0.expec: is not a known field",
      "cases.4.expect.judge.rubric: must not be empty",
      "cases.4.expect.judge.threshold: Too big: expected number to be <=1",
    ]);
    const file = {
      judge: "nobody",
      cases: [{
        name: "a",
        turns: [{ prompt: "p", expect: { judge: { rubric: "r", llmId: "ghost" } } }],
      }],
    };
    const refs = problems(() => prepareEval(t.service, parseEval(file)));
    assert.deepEqual(refs, [
      { path: "judge", message: 'no model profile has id "nobody"' },
      { path: "cases.0.turns.0.expect.judge.llmId", message: 'no model profile has id "ghost"' },
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("the demo judge scores the share of the rubric's key terms found in the answer", () => {
  assert.deepEqual(rubricTerms('Gives the sum "5" and names `demo__add`'), ["5", "demo__add"]);
  assert.deepEqual(
    rubricTerms("The answer must greet the user politely and mention 42 tools"),
    ["greet", "politely", "42", "tools"],
  );
  assert.deepEqual(demoJudgement("mentions Paris and France", "Paris is lovely."), {
    score: 0.5,
    reasons: [
      "1 of 2 key terms of the rubric are in the answer",
      'found "paris"',
      'missing "france"',
    ],
  });
  // Whole words only: "tool" is not "tools".
  assert.equal(demoJudgement('"tool"', "tools galore").score, 0);
  assert.equal(demoJudgement("the answer should be", "anything").score, 0);
});

Deno.test("the demo model answers structured-output requests with an object of the schema", async () => {
  const result = await generateText({
    model: createDemoModel(),
    prompt: "The city is Lyon and the count is 3",
    output: Output.object({ schema: z.object({ city: z.string(), count: z.number() }) }),
  });
  assert.equal(typeof result.output.city, "string");
  assert.equal(typeof result.output.count, "number");
});

Deno.test("judged expectations on the demo model: one passes, one fails, one is advisory", async () => {
  const t = await startService({
    config: chatConfig({
      // The judge has a price: its calls count in the runs' cost (the demo model's turns are free).
      llms: [DEMO_LLM, {
        ...DEMO_LLM,
        id: "judge",
        name: "Judge",
        pricing: { inputPerMTok: 1, outputPerMTok: 1 },
      }],
    }),
  });
  try {
    const file = parseEval({
      judge: "judge",
      cases: [
        {
          name: "passes",
          prompt: "Add 2 and 3 with a tool",
          expect: { judge: { rubric: 'States the sum "5" and names `demo__add`' } },
        },
        {
          name: "fails",
          prompt: "Reply with the word pong",
          expect: { judge: { rubric: 'Says "ping" and "pong"', threshold: 0.8, llmId: "demo" } },
        },
        {
          name: "advisory",
          prompt: "Reply with the word pong",
          expect: { judge: { rubric: 'Says "ping"', gate: false } },
        },
      ],
    });
    const report = await prepareEval(t.service, file).run();
    const [passes, fails, advisory] = report.cases;
    assert.deepEqual([passes.passed, fails.passed, advisory.passed], [1, 0, 1]);
    const [judged] = passes.judgements!;
    const { usage, cost, ...judgement } = judged;
    assert.ok(usage!.inputTokens! > 0);
    assert.deepEqual(cost, {
      usd: (usage!.inputTokens! + usage!.outputTokens!) / 1e6,
      source: "profile",
    });
    assert.deepEqual(passes.cost, { usd: cost!.usd, unpriced: 0 }, "the run's cost is the judge's");
    assert.deepEqual([judgement], [{
      run: 1,
      judge: "judge",
      threshold: 0.7,
      gate: true,
      score: 1,
      passed: true,
      reasons: [
        "2 of 2 key terms of the rubric are in the answer",
        'found "5"',
        'found "demo__add"',
      ],
    }]);
    assert.equal(fails.judgements![0].judge, "demo", "the expectation's own llmId wins");
    assert.equal(fails.judgements![0].score, 0.5);
    assert.deepEqual(fails.failures[0].reasons, [
      "judge: demo scored 0.5, below the threshold 0.8 (1 of 2 key terms of the rubric are in " +
      'the answer; missing "ping"; found "pong")',
    ]);
    assert.deepEqual(
      [advisory.judgements![0].score, advisory.judgements![0].passed, advisory.failures],
      [0, false, []],
    );
  } finally {
    await t.close();
  }
});

Deno.test("examples/conversation.eval.yaml passes on the demo model with its judged turns", async () => {
  const t = await startService();
  try {
    const path = new URL("../../examples/conversation.eval.yaml", import.meta.url);
    const file = parseEval(readEvalText(await Deno.readTextFile(path), "conversation.eval.yaml"));
    const report = await prepareEval(t.service, file).run();
    assert.equal(report.passRate, 1, JSON.stringify(report.cases.map((c) => c.failures)));
    assert.deepEqual(
      report.cases.map((c) => c.judgements?.map((j) => [j.turn, j.score, j.gate])),
      [[[2, 1, true]], [[undefined, 0.67, false]]],
    );
  } finally {
    await t.close();
  }
});
