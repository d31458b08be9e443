/** Checking an eval against the config: every problem at once, in order, and warnings. */
import assert from "node:assert/strict";
import { checkEval } from "../../core/evals/check.ts";
import { editDistance, inDocumentOrder } from "../../core/evals/fields.ts";
import { prepareEval } from "../../core/evals/runner.ts";
import { chatConfig, DEMO_LLM } from "../_chat.ts";
import { startService } from "../_helpers.ts";
import { problems } from "../_evals.ts";

Deno.test("schema and reference problems are reported together, in the order of the document", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const cases = Array.from({ length: 11 }, (_, i) => ({ name: `c${i}`, prompt: "hi" }));
    cases[2] = { name: "c2" } as (typeof cases)[number];
    cases[10] = { prompt: "no name" } as (typeof cases)[number];
    const raw = { workspace: "nows", models: ["demo", "ghost"], cases };
    assert.deepEqual(problems(() => checkEval(t.service, raw)), [
      { path: "workspace", message: 'no workspace has id "nows"' },
      { path: "models.1", message: 'no model profile has id "ghost"' },
      { path: "cases.2.prompt", message: "a case needs `prompt`, `messages` or `turns`" },
      { path: "cases.10.name", message: "Invalid input: expected string, received undefined" },
    ]);
    // Under a request's field, the request's own fields come after the eval's.
    const paths = problems(() =>
      checkEval(t.service, { cases: [{ name: "a" }], workspace: "nows" }, {
        models: ["ghost"],
        pathPrefix: "eval",
      })
    ).map((p) => p.path);
    assert.deepEqual(paths, ["eval.cases.0.prompt", "eval.workspace", "models.0"]);
    // A valid file passes, with the file as parsed.
    const { file, warnings } = checkEval(t.service, { cases: [{ name: "a", prompt: "hi" }] });
    assert.deepEqual([file.cases[0].expect, warnings], [{ ordered: false }, []]);
  } finally {
    await t.close();
  }
});

Deno.test("document order: indexes compare as numbers, keys as written, missing keys last", () => {
  const document = { cases: [{ prompt: "p", name: "n" }, {}, {}], models: [] };
  const sorted = inDocumentOrder(
    ["models", "cases.10", "cases.2.name", "cases.0.expect", "cases.0.name", "cases.0.prompt", ""]
      .map((path) => ({ path, message: "x" })),
    { document },
  );
  assert.deepEqual(sorted.map((p) => p.path), [
    "",
    "cases.0.prompt",
    "cases.0.name",
    "cases.0.expect",
    "cases.2.name",
    "cases.10",
    "models",
  ]);
});

Deno.test("misspelt fields are warnings; other extra fields are kept without one", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { file, warnings } = checkEval(t.service, {
      modles: ["demo"],
      owner: "me",
      cases: [
        { name: "a", prompt: "hi", expects: { calls: [] }, tags: ["x"] },
        { name: "b", promt: "hi", messages: [{ role: "user", content: "hi" }], notes: "n" },
      ],
    }, { pathPrefix: "eval" });
    assert.deepEqual(warnings, [
      { path: "eval.modles", message: "unknown field; did you mean models?" },
      { path: "eval.cases.0.expects", message: "unknown field; did you mean expect?" },
      { path: "eval.cases.1.promt", message: "unknown field; did you mean prompt?" },
    ]);
    assert.deepEqual((file as Record<string, unknown>).modles, ["demo"], "extra fields are kept");
    assert.equal(editDistance("modles", "models"), 1, "a swap of two letters is one edit");
    assert.equal(editDistance("expectations", "expect"), 6);
  } finally {
    await t.close();
  }
});

Deno.test("a model given twice runs once, in the order given", async () => {
  const t = await startService({
    config: chatConfig({ llms: [DEMO_LLM, { ...DEMO_LLM, id: "demo2", name: "Demo 2" }] }),
  });
  try {
    const { file } = checkEval(t.service, { cases: [{ name: "a", prompt: "hi" }] });
    const prepared = prepareEval(t.service, file, { models: ["demo2", "demo", "demo2"] });
    assert.deepEqual(prepared.models, ["demo2", "demo"]);
    assert.equal(prepared.runs.length, 2);
  } finally {
    await t.close();
  }
});
