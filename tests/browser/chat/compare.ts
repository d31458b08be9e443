/**
 * Compare in Chromium: the Compare switch and its column pickers, the columns side by side on a
 * desktop and stacked on a phone, the summary under them, and "Continue with this one", kept
 * after a reload.
 */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER, fakeLlm } from "../../_chat.ts";
import { type Json, waitUntil } from "../../_helpers.ts";
import { startFakeVendor } from "../../fixtures/fake_vendors.ts";

Deno.test({
  name:
    "web UI compare: two columns side by side, the summary, continue with the second; a phone stacks them",
  ignore: skipBrowser,
  fn: async (test) => {
    const vendor = await startFakeVendor();
    vendor.script([{ text: ["Five", " it is."], usage: { input: 12, output: 3 } }]);
    const ui = await startUi({
      config: {
        llms: [DEMO_LLM, { ...fakeLlm(vendor.url), name: "Fake" }],
        mcpServers: [DEMO_SERVER],
        workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
        activeWorkspaceId: "w",
      },
    });
    const page = await ui.page();
    page.setDefaultTimeout(15_000);
    try {
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(withToken(ui.base));
      const message = page.getByLabel("Message", { exact: true });
      await message.waitFor();

      await test.step("the switch shows a model picker per column; the turn answers in each", async () => {
        await page.getByRole("switch", { name: "Compare" }).check();
        assert.equal(await page.getByLabel("Model", { exact: true }).count(), 0);
        await page.getByLabel("Column 1").selectOption("demo");
        await page.getByLabel("Column 2").selectOption("fake");
        await page.getByRole("button", { name: "+ Column" }).click();
        await page.getByRole("button", { name: "Remove column 3" }).click();
        await message.fill("please add 2 and 3");
        await message.press("Enter");
        const summary = page.locator(".compare-summary");
        await summary.waitFor();
        const columns = page.locator(".compare-column");
        assert.equal(await columns.count(), 2);
        await columns.nth(0).getByText("returned 5").waitFor();
        await columns.nth(1).getByText("Five it is.").waitFor();
        const rows = summary.locator("tbody tr");
        assert.equal(await rows.count(), 2);
        assert.match(await rows.nth(0).innerText(), /1\. demo[\s\S]*\b1\b[\s\S]*\b2\b/);
        assert.match(await rows.nth(1).innerText(), /2\. fake[\s\S]*12 in \/ 3 out/);
        // Side by side: the second column starts level with the first, to its right.
        const [first, second] = [
          await columns.nth(0).boundingBox(),
          await columns.nth(1).boundingBox(),
        ];
        assert.ok(
          first && second && second.x > first.x + first.width - 1 &&
            Math.abs(second.y - first.y) < 2,
        );
        await rows.nth(0).getByText("Continuing").waitFor();
        await screenshot(page, "compare-desktop");
      });

      await test.step("Continue with this one goes on with the second column, after a reload too", async () => {
        await page.getByRole("button", { name: "Continue with this one" }).click();
        const rows = page.locator(".compare-summary tbody tr");
        await rows.nth(1).getByText("Continuing").waitFor();
        await page.waitForURL(/\/chat\/[\w-]+$/);
        const id = decodeURIComponent(page.url().split("/chat/")[1]);
        await waitUntil(async () => {
          const stored = await ui.t.service.sessions.get(id);
          return (stored.meta?.compares as Json)?.["0"]?.picked === 1;
        }, "the session's compare turn to have column 2 picked");
        const stored = await ui.t.service.sessions.get(id);
        assert.equal(stored.llmId, "fake");
        await page.reload();
        await page.locator(".compare-summary").waitFor();
        await page.locator(".compare-column").nth(1).getByText("Five it is.").waitFor();
        await page.locator(".compare-summary tbody tr").nth(1).getByText("Continuing").waitFor();
        assert.equal(
          await page.locator(".compare-picked").getAttribute("aria-label"),
          "Column 2: fake",
        );
      });

      await test.step("on a phone the columns are stacked", async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        const columns = page.locator(".compare-column");
        await waitUntil(async () => {
          const [first, second] = [
            await columns.nth(0).boundingBox(),
            await columns.nth(1).boundingBox(),
          ];
          return !!first && !!second && second.y >= first.y + first.height - 1;
        }, "the second column to sit under the first at 390 px");
        const box = await columns.nth(0).boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= 390, "a column fits the phone's width");
        await screenshot(page, "compare-phone");
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
      await vendor.close();
    }
  },
});
