/** A chat tool call that runs as an MCP task, in Chromium: the card shows its status and message; Stop cancels it. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "./_browser.ts";
import { chatConfig } from "./_chat.ts";
import { waitForEvent } from "./_helpers.ts";

Deno.test({
  name:
    "web UI chat: a task tool's card shows the task's status and message; Stop cancels the task",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    const page = await ui.page();
    const { t } = ui;
    try {
      await page.goto(withToken(ui.base));
      const cancelled = waitForEvent(
        t,
        (event) => event.type === "mcp.task" && event.data.status === "cancelled",
        { what: "mcp.task cancelled after Stop", ms: 20_000 },
      );
      await page.getByLabel("Message", { exact: true })
        .fill('run demo__long_report {"steps": 50, "delayMs": 200}');
      await page.keyboard.press("Enter");
      const card = page.getByRole("region", { name: "Tool call long_report on demo" });
      const progress = card.getByRole("status");
      await progress.getByText("working", { exact: true }).waitFor();
      await progress.getByText(/^Step \d+ of 50$/).waitFor();
      assert.match(await progress.innerText(), /task/);
      await screenshot(page, "chat-task-running");
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByText("Stopped.", { exact: true }).waitFor();
      assert.equal((await cancelled).data.serverId, "demo");
      await card.getByText("no result").waitFor();
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
