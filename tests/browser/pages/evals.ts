/// <reference lib="dom" />
/**
 * The Evals page in Chromium: pick or paste an eval, run it, read the matrix, open a failed run,
 * a judged case's score, the past runs and the diff of two, on a desktop and at phone width.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_LLM } from "../../_chat.ts";

/** One case that passes on the demo model and one that fails. */
const HALF = `cases:
  - name: adds
    prompt: Add 2 and 3 with a tool
    expect: { calls: [{ tool: demo__add, args: { a: 2, b: 3 } }] }
  - name: wrong
    prompt: Add 2 and 3 with a tool
    expect: { notCalled: [demo__add] }
`;

/** `adds` now fails on its expectation, and its answer is judged. */
const WORSE = `cases:
  - name: adds
    prompt: Add 2 and 3 with a tool
    expect:
      notCalled: [demo__add]
      judge: { rubric: 'States the sum "5"' }
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
        const panel = page.getByRole("region", { name: "Runs of wrong" });
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
      await test.step("a judged case shows its score; its runs show the judge's reasons", async () => {
        await page.getByLabel("Eval (YAML or JSON)").fill(WORSE);
        await page.getByLabel("Models").fill("demo");
        await page.getByLabel("Repeat").fill("1");
        await page.getByRole("button", { name: "Run", exact: true }).click();
        await page.locator(".eval-summary").getByText(/^0 of 1 run passed/).waitFor();
        const cell = page.locator('.eval-cell[data-case="adds"][data-model="demo"]');
        assert.equal(await cell.innerText(), "0/1 · 0% · score 1.00");
        await cell.getByRole("button").click();
        const judged = page.getByRole("region", { name: "Judged turns" });
        assert.match(
          await judged.innerText(),
          /Run 1: score 1\s+\(threshold 0\.7, judged by demo\)/,
        );
        assert.match(await judged.innerText(), /found "5"/);
      });

      await test.step("past runs list the kept runs; two of them compare per case and model", async () => {
        const past = page.getByRole("region", { name: "Past runs" });
        await waitForCount(past.locator("tbody tr"), 4);
        assert.match(
          await past.locator("tbody tr").first().innerText(),
          /0\/1 · 0%\s+pasted eval\s+demo/,
        );
        // The newest run against the one before it (the second HALF run).
        await past.getByRole("button", { name: "Compare" }).click();
        const summary = past.locator(".eval-diff-summary");
        await summary.waitFor();
        assert.equal(await summary.innerText(), "50% → 0% in all: 1 pass rate fell");
        const row = past.locator('.eval-diff tr[data-case="adds"][data-model="demo"]');
        assert.match(await row.getAttribute("class") ?? "", /\bregression\b/);
        assert.match(await row.innerText(), /adds\s+demo\s+100% → 0% \(-100 pts\)/);
        assert.match(
          await past.locator('.eval-diff tr[data-case="wrong"][data-model="demo2"]').innerText(),
          /removed \(was 0%\)/,
        );
        await screenshot(page, "evals-diff");
      });

      await test.step("leaving the page and coming back shows the latest run", async () => {
        await page.goto(withToken(ui.base, "/"));
        await page.goto(withToken(ui.base, "/evals"));
        await page.locator(".eval-summary").getByText(/^0 of 1 run passed/).waitFor();
        const cell = page.locator('.eval-cell[data-case="adds"][data-model="demo"]');
        assert.equal(await cell.innerText(), "0/1 · 0% · score 1.00");
        const shown = page.getByRole("region", { name: "Past runs" }).locator("tr.shown");
        await shown.waitFor();
        // An older run shows again on request.
        await page.getByRole("region", { name: "Past runs" }).getByRole("button", { name: /^Show/ })
          .nth(3).click();
        await page.locator(".eval-summary").getByText(/^4 of 8 runs passed/).waitFor();
      });

      await test.step("at phone width the past runs and the diff fit: only their tables scroll", async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        const past = page.getByRole("region", { name: "Past runs" });
        await past.getByRole("button", { name: "Compare" }).click();
        await past.locator(".eval-diff-summary").waitFor();
        // Each option's label stays on the row of its input.
        for (const name of ["Models", "Repeat"]) {
          const label = await page.locator(`label:text-is("${name}")`).boundingBox();
          const input = await page.getByLabel(name, { exact: true }).boundingBox();
          assert.ok(label && input, `${name} and its input are shown`);
          assert.ok(
            Math.abs(label.y + label.height / 2 - (input.y + input.height / 2)) < input.height / 2,
            `the ${name} label and its input share a row`,
          );
        }
        const fits = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>(".evals-page, .eval-past, .eval-compare")]
            .every((element) => element.scrollWidth <= element.clientWidth + 1) &&
          document.documentElement.scrollWidth <= document.documentElement.clientWidth
        );
        assert.ok(fits, "nothing but the tables' own boxes scrolls sideways at 390 px");
        await past.getByRole("button", { name: "Compare" }).scrollIntoViewIfNeeded();
        assert.ok(await past.getByRole("button", { name: "Compare" }).isVisible());
        await screenshot(page, "evals-diff-phone");
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
