/// <reference lib="dom" />
/**
 * A chat tool call that runs as an MCP task, in Chromium: the card shows its status and message;
 * Stop cancels it; a reload shows the stopped and the cancelled cards as they were.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import { waitForEvent, waitUntil } from "../../_helpers.ts";

const LONG_REPORT = 'run demo__long_report {"steps": 50, "delayMs": 200}';

/** The text of every turn on the page. */
function turnTexts(page: Page): Promise<string[]> {
  return page.locator(".turn").evaluateAll((turns) =>
    turns.map((turn) => (turn as HTMLElement).innerText)
  );
}

Deno.test({
  name:
    "web UI chat: a task tool's card shows the task's status and message; Stop cancels the task; a reload shows the same cards",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    const page = await ui.page();
    const { t } = ui;
    try {
      await page.goto(withToken(ui.base));
      const box = page.getByLabel("Message", { exact: true });

      // A call cancelled on its card: the turn goes on and finishes.
      await box.fill(LONG_REPORT);
      await page.keyboard.press("Enter");
      const first = page.locator(".turn").nth(0)
        .getByRole("region", { name: "Tool call long_report on demo" });
      await first.getByRole("status").getByText(/^Step \d+ of 50$/).waitFor();
      await first.getByRole("button", { name: "Cancel long_report call" }).click();
      await page.locator(".turn-done").waitFor();
      await first.getByText("cancelled", { exact: true }).waitFor();
      await first.getByText(/^Ran as MCP task /).waitFor();
      await page.waitForURL(/\/chat\/[\w-]+$/);
      const sessionId = decodeURIComponent(page.url().split("/chat/")[1]);

      // A call stopped with its turn.
      const cancelled = waitForEvent(
        t,
        (event) => event.type === "mcp.task" && event.data.status === "cancelled",
        { what: "mcp.task cancelled after Stop", ms: 20_000 },
      );
      await box.fill(LONG_REPORT);
      await page.keyboard.press("Enter");
      const card = page.locator(".turn").nth(1)
        .getByRole("region", { name: "Tool call long_report on demo" });
      const progress = card.getByRole("status");
      await progress.getByText("working", { exact: true }).waitFor();
      await progress.getByText(/^Step \d+ of 50$/).waitFor();
      assert.match(await progress.innerText(), /task/);
      await screenshot(page, "chat-task-running");
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByText("Stopped.", { exact: true }).waitFor();
      assert.equal((await cancelled).data.serverId, "demo");
      await card.getByText("no result").waitFor();
      await card.getByText(/^Ran as MCP task /).waitFor();
      // The stopped turn is saved as the run ends.
      await waitUntil(async () => {
        const session = await t.service.sessions.get(sessionId);
        return Object.keys(session.meta?.endings ?? {}).length === 1;
      }, "the stopped turn in the session");

      const live = await turnTexts(page);
      assert.match(live[0], /cancelled[\s\S]*\d+ tokens/, "the finished turn's tokens");
      const reasoning = await page.locator(".reasoning").count();
      await page.reload();
      await page.locator(".turn-done").waitFor();
      await page.getByText("Stopped.", { exact: true }).waitFor();
      assert.deepEqual(await turnTexts(page), live, "the turns read the same after a reload");
      assert.equal(await page.locator(".reasoning").count(), reasoning, "the reasoning is kept");
      assert.equal(await page.locator(".tool-card.tool-ended").count(), 1, "one grey card");
      assert.equal(await page.locator(".tool-card.tool-cancelled").count(), 1);
      await screenshot(page, "chat-task-reloaded");
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
