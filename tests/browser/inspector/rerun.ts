/// <reference lib="dom" />
/** History's Run again in Chromium: the new row opens at the top, in view, with its own answer. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";
import type { Locator } from "playwright-core";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

/** Whether the element's top edge is inside the window. */
const inView = (locator: Locator) =>
  locator.evaluate((element) => {
    const top = element.getBoundingClientRect().top;
    return top >= 0 && top < globalThis.innerHeight;
  });

Deno.test({
  name:
    "web UI inspector: Run again opens the new row at the top, brings it into view and shows its own result",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    await page.setViewportSize({ width: 1400, height: 900 });
    const { t } = ui;
    try {
      await t.service.mcp.connect("demo");
      await t.service.mcp.callTool("demo", "add", { a: 2, b: 3 });
      // Enough rows after it that the first call sits far below the top of the list.
      for (let i = 0; i < 40; i++) await t.service.mcp.callTool("demo", "echo", { text: `n${i}` });
      await page.goto(withToken(ui.base, "/inspector/demo"));
      const history = page.getByRole("list", { name: "Requests and notifications, newest first" });
      const adds = history.locator('.timeline-item[data-method="tools/call"]').filter({
        hasText: "add",
      });
      await waitForCount(adds, 1);
      const oldSeq = await adds.first().getAttribute("data-seq");
      const old = history.locator(`.timeline-item[data-seq="${oldSeq}"]`);
      await old.locator(".timeline-toggle").click();
      await old.getByRole("button", { name: "Run again" }).scrollIntoViewIfNeeded();
      // From down here the top of the list, where the new row comes, is out of view.
      assert.equal(await inView(history.locator(".timeline-item").first()), false);
      await old.getByRole("button", { name: "Run again" }).click();
      await old.getByText(/Sent again\. Its answer is in the new row at the top\./).waitFor();
      await waitForCount(adds, 2);
      const fresh = adds.first();
      assert.notEqual(await fresh.getAttribute("data-seq"), oldSeq);
      // The new row is open, shows the answer of this Run again, and is in view with focus.
      const result = fresh.getByRole("region", { name: "Result of Run again" });
      await result.getByText("ok", { exact: true }).waitFor();
      assert.match(await result.innerText(), /\b5\b/);
      assert.equal(await fresh.locator('.timeline-toggle[aria-expanded="true"]').count(), 1);
      assert.equal(await inView(fresh), true);
      assert.equal(
        await fresh.locator(".timeline-toggle").evaluate((el) => el === document.activeElement),
        true,
      );
      // The tool panel's Result is not the place of this answer: only the new row has one.
      assert.equal(await page.getByRole("region", { name: "Result of Run again" }).count(), 1);
      await screenshot(page, "inspector-rerun");

      // A read runs again the same way, its answer as JSON in its new row.
      await t.service.mcp.readResource("demo", "demo://readme");
      const reads = history.locator('.timeline-item[data-method="resources/read"]');
      await waitForCount(reads, 1);
      await reads.first().locator(".timeline-toggle").click();
      await reads.first().getByRole("button", { name: "Run again" }).click();
      await waitForCount(reads, 2);
      await reads.first().getByRole("region", { name: "Result of Run again" })
        .getByText(/demo:\/\/readme/).waitFor();
      assert.equal(await inView(reads.first()), true);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
