/**
 * The warning before leaving (Chromium): while a chat turn streams or a request waits, closing or
 * reloading the page asks first (`beforeunload`); once the turn is over, the page closes silently.
 */
import assert from "node:assert/strict";
import type { Dialog, Page } from "playwright-core";
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [
    { id: "strict", name: "Strict", llmId: "demo", mcpServerIds: ["demo"], requireApproval: true },
  ],
  activeWorkspaceId: "strict",
};

/** Asks the page to close as a user would (running its `beforeunload`): the dialog, or `closed`. */
async function tryToClose(page: Page): Promise<Dialog | "closed"> {
  const dialog = new Promise<Dialog>((resolve) => page.once("dialog", resolve));
  const closed = new Promise<"closed">((resolve) => page.once("close", () => resolve("closed")));
  await page.close({ runBeforeUnload: true });
  return await Promise.race([dialog, closed]);
}

Deno.test({
  name:
    "web UI leave warning: asks before unloading during a turn or a pending approval, only then",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    try {
      await test.step("an idle page closes without asking", async () => {
        const page = await ui.page();
        await page.goto(withToken(ui.base));
        const message = page.getByLabel("Message", { exact: true });
        await message.click(); // a user gesture: Chromium asks only on pages the user touched
        await message.fill("hello");
        assert.equal(await tryToClose(page), "closed");
      });

      await test.step("a pending approval in a streaming turn: leaving asks; staying keeps it", async () => {
        const page = await ui.page();
        await page.goto(withToken(ui.base));
        const message = page.getByLabel("Message", { exact: true });
        await message.fill("please add 2 and 3");
        await message.press("Enter");
        const card = page.getByRole("region", { name: "Tool call add on demo" });
        const approval = card.getByRole("region", { name: "Run add (demo)?" });
        await approval.waitFor();
        const asked = await tryToClose(page);
        assert.notEqual(asked, "closed", "the page closed without asking");
        const dialog = asked as Dialog;
        assert.equal(dialog.type(), "beforeunload");
        await dialog.dismiss();
        // The user stayed: the turn goes on and the approval can still be given.
        await approval.getByRole("button", { name: "Approve", exact: true }).click();
        await card.getByText("done").waitFor();
        await page.locator(".turn-done").waitFor();
        // After the turn, leaving is silent again.
        assert.equal(await tryToClose(page), "closed", "the page asked after the turn");
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
