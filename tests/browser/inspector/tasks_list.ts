/// <reference lib="dom" />
/** The inspector's Tasks list in Chromium: capped at the newest 20 with "Show all", and foldable. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { post, waitUntil } from "../../_helpers.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

const ENDED = new Set(["completed", "failed", "cancelled"]);

Deno.test({
  name:
    "web UI inspector: the Tasks list shows the newest 20 with Show all, folds, and opens when a task starts",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    try {
      await t.service.mcp.connect("demo");
      for (let i = 0; i < 23; i++) {
        const started = await post(t, "/api/mcp/demo/call", {
          tool: "long_report",
          args: { steps: 1, delayMs: 10 },
          task: true,
        });
        assert.equal(started.status, 200, JSON.stringify(started.body));
      }
      await waitUntil(
        () => t.service.mcp.tasks("demo").every((task) => ENDED.has(task.status)),
        "the 23 short tasks ended",
      );
      await page.goto(withToken(ui.base, "/inspector/demo"));
      const tasks = page.getByRole("region", { name: "Tasks" });
      const details = tasks.locator("details");
      const rows = tasks.locator(".task-row");
      await tasks.locator("summary").getByText(/23 in all/).waitFor();
      // Nothing runs: the list is folded, its heading one line.
      assert.equal(await details.evaluate((el) => (el as HTMLDetailsElement).open), false);
      assert.equal(await rows.first().isVisible(), false);

      // A task starts: the list opens, the newest 20 shown, the running one first.
      const started = await post(t, "/api/mcp/demo/call", {
        tool: "long_report",
        args: { steps: 50, delayMs: 200 },
        task: true,
      });
      const { taskId } = started.body;
      await tasks.locator(`[data-task-id="${taskId}"]`).getByText("working").waitFor();
      assert.equal(await details.evaluate((el) => (el as HTMLDetailsElement).open), true);
      await waitForCount(rows, 20);
      assert.equal(await rows.first().getAttribute("data-task-id"), taskId);
      const showAll = tasks.getByRole("button", { name: "Show all 24 tasks (4 older hidden)" });
      await screenshot(page, "inspector-tasks-capped");
      await showAll.click();
      await waitForCount(rows, 24);
      await tasks.getByRole("button", { name: "Show the newest 20" }).click();
      await waitForCount(rows, 20);

      // The user folds it: it stays folded while the task runs on.
      await tasks.locator("summary").click();
      await rows.first().waitFor({ state: "hidden" });
      assert.match(await tasks.locator("h2").innerText(), /1 running/);
      await t.service.mcp.cancelTask("demo", taskId);
      await tasks.locator("h2").getByText("0 running").waitFor();
      assert.equal(await details.evaluate((el) => (el as HTMLDetailsElement).open), false);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
