/// <reference lib="dom" />
/**
 * Save as eval case in Chromium: from a chat turn's footer on a desktop (a new file, then an
 * existing one), and from the chat's menu in the sidebar and a turn on a phone.
 */
import assert from "node:assert/strict";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { parse as parseYaml } from "yaml";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chat, chatConfig, user } from "../../_chat.ts";
import type { Json, TestService } from "../../_helpers.ts";

const EXAMPLE = new URL("../../../examples/demo.eval.yaml", import.meta.url);

/** Two turns on the demo model and tools, stored as session `s1`. */
async function twoTurnChat(t: TestService): Promise<void> {
  const first = [user("Add 2 and 3 with a tool")];
  const one = await chat(t, { messages: first, sessionId: "s1", workspaceId: "w" });
  const finish = one.chunks.find((chunk: Json) => chunk.type === "finish");
  assert.ok(finish, JSON.stringify(one.chunks.at(-1)));
  const second = [...first, ...finish.messages, user('Use add with 4 and 5, then echo "done"')];
  const two = await chat(t, { messages: second, sessionId: "s1", workspaceId: "w" });
  assert.equal(two.chunks.at(-1).type, "finish", JSON.stringify(two.chunks.at(-1)));
}

/** Waits until the dialog's editor holds the server's case. */
async function caseText(page: Page): Promise<string> {
  const editor = page.getByRole("dialog").getByLabel("Case (YAML)");
  await editor.and(page.locator(":enabled")).waitFor();
  return await editor.inputValue();
}

/** The dialog's width, and whether it fits the screen's width. */
function dialogFits(page: Page): Promise<{ width: number; fits: boolean }> {
  return page.evaluate(() => {
    const box = document.querySelector("dialog.case-dialog")!.getBoundingClientRect();
    return { width: box.width, fits: box.left >= 0 && box.right <= innerWidth };
  });
}

Deno.test({
  name: "web UI: Save as eval case from a turn and from a whole chat, on a desktop and a phone",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    try {
      await twoTurnChat(ui.t);
      const example = join(ui.t.dir, "demo.eval.yaml");
      await copyFile(EXAMPLE, example);
      const exampleText = await readFile(example, "utf8");

      await test.step("desktop: a turn's case goes into a new file, then into an existing one", async () => {
        const page = await ui.page();
        page.setDefaultTimeout(20_000);
        await page.setViewportSize({ width: 1400, height: 900 });
        await page.goto(withToken(ui.base, "/chat/s1"));
        const second = page.locator(".turn").nth(1);
        await second.getByRole("button", { name: "Save as eval case" }).click();
        const dialog = page.getByRole("dialog", { name: "Save as eval case" });
        await dialog.waitFor();
        const text = await caseText(page);
        assert.match(
          text,
          /^# From the chat "Add 2 and 3 with a tool" \(session s1, turn 2 of 2\)/,
        );
        assert.match(text, /- tool: demo__echo\n\s+args: \{ text: done \}/);
        await dialog.getByText(/^A case from turn 2 of the chat/).waitFor();
        const picker = dialog.getByLabel("Eval file");
        assert.deepEqual(await picker.locator("option").allInnerTexts(), [
          "demo.eval.yaml",
          "New file…",
        ]);

        // A new file, the case renamed in the editor.
        await picker.selectOption({ label: "New file…" });
        await dialog.getByLabel("New file name").fill("from-chat");
        await dialog.getByLabel("Case (YAML)").fill(
          text.replace(/^name: .*$/m, "name: adds, then echoes"),
        );
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.getByRole("status").getByText(
          'Saved "adds, then echoes" to from-chat.eval.yaml (1 case, a new file).',
        ).waitFor();
        const created = parseYaml(await readFile(join(ui.t.dir, "from-chat.eval.yaml"), "utf8"));
        assert.deepEqual(created.cases[0].expect.calls, [
          { tool: "demo__add", args: { a: 4, b: 5 } },
          { tool: "demo__echo", args: { text: "done" } },
        ]);
        assert.deepEqual([created.workspace, created.models], ["w", ["demo"]]);
        assert.equal(await picker.inputValue(), "from-chat.eval.yaml", "the new file is picked");

        // The example has a case of that name: refused, then saved under another one, its text
        // kept, with a note that its cases run elsewhere.
        await picker.selectOption("demo.eval.yaml");
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.getByRole("alert").getByText(
          'the eval is invalid: case.name: duplicate name "adds, then echoes" (first used at cases.2)',
        ).waitFor();
        const editor = dialog.getByLabel("Case (YAML)");
        await editor.fill(
          (await editor.inputValue()).replace(/^name: .*$/m, "name: from the chat"),
        );
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.getByRole("status").getByText(
          'Saved "from the chat" to demo.eval.yaml (5 cases).',
        ).waitFor();
        assert.equal(await dialog.getByRole("alert").count(), 0, "the refusal is gone");
        assert.match(
          await dialog.locator(".case-warning").first().innerText(),
          /the file's cases run in workspace "playground"; the chat was in "w"/,
        );
        assert.ok((await readFile(example, "utf8")).startsWith(exampleText));
        assert.ok((await dialogFits(page)).fits, "the dialog fits the window");
        await screenshot(page, "save-case-desktop");
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "detached" });
        const focused = await page.evaluate(() => document.activeElement?.textContent);
        assert.equal(focused, "Save as eval case", "the focus is back on the opener");
      });

      await test.step("phone: the whole chat from the sidebar's menu, then a turn saved", async () => {
        const context = await ui.context({
          viewport: { width: 390, height: 844 },
          hasTouch: true,
          watched: false,
        });
        try {
          const page = await context.newPage();
          page.on("pageerror", (error) => ui.problems.push(`page error: ${error.message}`));
          page.setDefaultTimeout(20_000);
          await page.goto(withToken(ui.base, "/chat/s1"));
          await page.locator(".turn").nth(1).waitFor();
          await page.getByRole("button", { name: "Chats", exact: true }).click();
          await page.getByRole("button", {
            name: 'Save "Add 2 and 3 with a tool" as an eval case',
          }).click();
          const dialog = page.getByRole("dialog", { name: "Save as eval case" });
          const text = await caseText(page);
          assert.match(text, /\(session s1, its 2 turns\)/);
          assert.deepEqual(parseYaml(text).turns.map((turn: Json) => turn.prompt), [
            "Add 2 and 3 with a tool",
            'Use add with 4 and 5, then echo "done"',
          ]);
          await dialog.getByText(/Its 2 turns run as one conversation\.$/).waitFor();
          const fit = await dialogFits(page);
          assert.ok(fit.fits && fit.width > 300, `the dialog fits the phone: ${fit.width} px`);
          await screenshot(page, "save-case-phone");
          await dialog.getByRole("button", { name: "Close" }).click();
          await dialog.waitFor({ state: "detached" });
          await page.getByRole("button", { name: "Chats", exact: true }).click();

          // The list of eval files answers only once the user has chosen a new file: the list
          // arriving late must not take the choice back (it did, under load).
          let chosen = () => {};
          const choiceMade = new Promise<void>((resolve) => chosen = resolve);
          await page.route((url) => url.pathname === "/api/evals/files", async (route) => {
            await choiceMade;
            await route.continue();
          });
          await page.locator(".turn").first().getByRole("button", { name: "Save as eval case" })
            .tap();
          await caseText(page);
          await dialog.getByLabel("Eval file").selectOption({ label: "New file…" });
          await dialog.getByLabel("New file name").fill("phone.eval.yaml");
          chosen();
          await dialog.getByLabel("Eval file").locator("option", { hasText: "demo.eval.yaml" })
            .waitFor({ state: "attached" });
          await dialog.getByRole("button", { name: "Save" }).tap();
          await dialog.getByRole("status").getByText(
            'Saved "Add 2 and 3 with a tool" to phone.eval.yaml (1 case, a new file).',
          ).waitFor();
          const saved = parseYaml(await readFile(join(ui.t.dir, "phone.eval.yaml"), "utf8"));
          assert.deepEqual(saved.cases[0].expect, {
            calls: [{ tool: "demo__add", args: { a: 2, b: 3 } }],
          });
        } finally {
          await context.close();
        }
      });
      // The browser logs the refused save's 400; nothing else went wrong.
      assert.deepEqual(ui.problems, [
        "console error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
    } finally {
      await ui.close();
    }
  },
});
