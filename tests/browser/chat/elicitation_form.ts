/// <reference lib="dom" />
/**
 * The elicitation card in Chromium: a checkbox sits just before its label, on its line, and the
 * card's buttons have names apart: the form's Decline and Dismiss, the tool card's "Cancel call".
 */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [{ id: "w", name: "Open", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name:
    "web UI chat: an elicitation's checkbox sits beside its label, and no two buttons are both named Cancel",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    try {
      await page.goto(withToken(ui.base));
      const message = page.getByLabel("Message", { exact: true });
      await message.fill("ask user please");
      await message.press("Enter");
      const card = page.getByRole("region", { name: "Tool call ask_user on demo" });
      const form = page.getByRole("region", { name: "Input requested (demo)" });
      await form.waitFor();

      // The checkbox: left of its label, close to it, and on the same line. Both are measured in
      // one step in the page: the card may be drawn again (in its tool call's card) meanwhile.
      const { box, label } = await form.locator("label", { hasText: "Send me updates" }).evaluate(
        (element: HTMLLabelElement) => {
          const rect = (el: Element | null) => {
            const { x, y, width, height } = el!.getBoundingClientRect();
            return { x, y, width, height };
          };
          return { box: rect(element.control), label: rect(element) };
        },
      );
      assert.equal(
        await form.getByLabel("Send me updates").getAttribute("type"),
        "checkbox",
        "the label's control is the checkbox",
      );
      assert.ok(box.width < 40, `the checkbox is ${box.width}px wide`);
      const gap = label.x - (box.x + box.width);
      assert.ok(gap >= 0 && gap <= 16, `the checkbox is ${gap}px from its label`);
      const middle = box.y + box.height / 2;
      assert.ok(
        middle >= label.y && middle <= label.y + label.height,
        "the checkbox is on its label's line",
      );

      // The buttons say what they do; none is a bare "Cancel".
      const names = await page.getByRole("button").allInnerTexts();
      assert.equal(names.filter((name) => name.trim() === "Cancel").length, 0, names.join(" | "));
      await card.getByRole("button", { name: "Cancel ask_user call" }).waitFor();
      assert.equal(
        await card.getByRole("button", { name: "Cancel ask_user call" }).innerText(),
        "Cancel call",
      );
      const dismiss = form.getByRole("button", { name: "Dismiss", exact: true });
      assert.match(String(await dismiss.getAttribute("title")), /without an answer/);
      assert.match(
        String(await form.getByRole("button", { name: "Decline" }).getAttribute("title")),
        /declined/,
      );
      await screenshot(page, "chat-elicitation-buttons");

      // Dismiss answers the request with `cancel`: the form goes, the call itself ends.
      await dismiss.click();
      await form.waitFor({ state: "detached" });
      await card.getByText("done").waitFor();
      await page.locator(".turn-done").waitFor();
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
