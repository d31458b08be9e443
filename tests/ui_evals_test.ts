/** The Evals page in Chromium: pick or paste an eval, run it, read the matrix, open a failed run. */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { screenshot, skipBrowser, startUi, withToken } from "./_browser.ts";
import { chatConfig, DEMO_LLM } from "./_chat.ts";

/** One case that passes on the demo model and one that fails. */
const HALF = `cases:
  - name: adds
    prompt: Add 2 and 3 with a tool
    expect: { calls: [{ tool: demo__add, args: { a: 2, b: 3 } }] }
  - name: wrong
    prompt: Add 2 and 3 with a tool
    expect: { notCalled: [demo__add] }
`;

Deno.test({
  name: "web UI evals: pick a file, paste YAML, run on two models, matrix, a failed run's turn",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: chatConfig({
        llms: [DEMO_LLM, { ...DEMO_LLM, id: "demo2", name: "Demo 2" }],
        workspace: { llmId: "demo" },
      }),
    });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    try {
      await writeFile(
        join(ui.t.dir, "picked.eval.yaml"),
        "cases:\n  - name: picked\n    prompt: hi\n",
      );
      await writeFile(join(ui.t.dir, "other.txt"), "not an eval");

      await test.step("the page lists the eval files beside the config and loads one", async () => {
        await page.goto(withToken(ui.base, "/evals"));
        await page.getByRole("heading", { name: "Evals" }).waitFor();
        const picker = page.getByLabel(/^File in /);
        await picker.waitFor();
        assert.deepEqual(await picker.locator("option").allInnerTexts(), ["picked.eval.yaml"]);
        await page.getByRole("button", { name: "Load" }).click();
        const editor = page.getByLabel("Eval (YAML or JSON)");
        const deadline = Date.now() + 10_000;
        while (!(await editor.inputValue()).includes("name: picked")) {
          assert.ok(Date.now() < deadline, "the editor did not get the picked file's text");
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });

      await test.step("an invalid eval shows each problem at its path", async () => {
        await page.getByLabel("Eval (YAML or JSON)").fill(
          "cases:\n  - name: a\n    expect: { maxSteps: 0 }\n",
        );
        await page.getByRole("button", { name: "Run" }).click();
        const problems = page.locator(".eval-problems");
        await problems.getByText("eval.cases.0.expect.maxSteps", { exact: true }).waitFor();
        assert.equal(await problems.locator("p").innerText(), "the eval is invalid:");
        assert.match(
          await problems.innerText(),
          /eval\.cases\.0\.prompt: a case needs `prompt`, `messages` or `turns`/,
        );
      });

      await test.step("a pasted eval runs on two models and fills the matrix", async () => {
        await page.getByLabel("Eval (YAML or JSON)").fill(HALF);
        await page.getByLabel("Models").fill("demo, demo2");
        await page.getByLabel("Repeat").fill("2");
        await page.getByRole("button", { name: "Run" }).click();
        const summary = page.locator(".eval-summary");
        await summary.waitFor();
        assert.match(await summary.innerText(), /^4 of 8 runs passed \(50%\), \d+ tokens/);
        assert.equal(await page.locator(".eval-problems").count(), 0);
        const headers = await page.locator(".eval-matrix thead th").allInnerTexts();
        assert.deepEqual(headers, ["Case", "demo", "demo2"]);
        const cell = (name: string, model: string) =>
          page.locator(`.eval-cell[data-case="${name}"][data-model="${model}"]`);
        assert.equal(await cell("adds", "demo").innerText(), "2/2 · 100%");
        assert.equal(await cell("adds", "demo2").innerText(), "2/2 · 100%");
        assert.equal(await cell("wrong", "demo2").innerText(), "0/2 · 0%");
        assert.match(await cell("wrong", "demo").getAttribute("class") ?? "", /\bfail\b/);
      });

      await test.step("a misspelt field is a warning above the results; the eval still runs", async () => {
        await page.getByLabel("Eval (YAML or JSON)").fill(
          "cases:\n  - name: warned\n    prompt: Add 2 and 3 with a tool\n    expects: {}\n",
        );
        await page.getByLabel("Models").fill("demo");
        await page.getByLabel("Repeat").fill("1");
        await page.getByRole("button", { name: "Run", exact: true }).click();
        const warnings = page.getByRole("list", { name: "Warnings" });
        await warnings.waitFor();
        assert.match(
          await warnings.innerText(),
          /eval\.cases\.0\.expects: unknown field; did you mean expect\?/,
        );
        await page.locator(".eval-summary").getByText(/^1 of 1 run passed/).waitFor();
        // The next run starts without the last one's warnings.
        await page.getByLabel("Eval (YAML or JSON)").fill(HALF);
        await page.getByLabel("Models").fill("demo, demo2");
        await page.getByLabel("Repeat").fill("2");
        await page.getByRole("button", { name: "Run", exact: true }).click();
        await page.locator(".eval-summary").getByText(/^4 of 8 runs passed/).waitFor();
        assert.equal(await warnings.count(), 0);
      });

      await test.step("a failed cell opens its runs: the reasons and the turn", async () => {
        await page.getByRole("button", { name: /show the failed runs of wrong on demo2/ }).click();
        const panel = page.getByRole("region", { name: "Failed runs of wrong" });
        await panel.waitFor();
        assert.match(
          await panel.getByRole("heading", { level: 2 }).innerText(),
          /wrong on demo2: 2 failed runs/,
        );
        const first = panel.getByRole("article", { name: "Run 1" });
        assert.equal(
          await first.locator(".eval-reasons li").innerText(),
          "notCalled: demo__add was called",
        );
        const call = first.locator(".eval-turn-call");
        assert.match(await call.innerText(), /demo__add \{"a":2,"b":3\}/);
        assert.match(await call.locator(".eval-result").innerText(), /5/);
        assert.ok(await first.getByRole("link", { name: "Events of this turn" }).isVisible());
        await screenshot(page, "evals");
      });
      // The browser logs the refused eval's 400; nothing else went wrong.
      assert.deepEqual(ui.problems, [
        "console error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
    } finally {
      await ui.close();
    }
  },
});
