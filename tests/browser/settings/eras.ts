/** Settings › Tool servers in Chromium: the negotiated protocol era is shown, and `protocolEra` can be set. */
import assert from "node:assert/strict";
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import { configWhere, editor } from "../../_settings.ts";

Deno.test({
  name: "web UI settings: a server's protocol era is shown and its protocolEra setting is saved",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    const page = await ui.page();
    page.setDefaultTimeout(15_000);
    const { t } = ui;
    try {
      await page.goto(withToken(ui.base, "/settings/servers"));
      const demo = page.locator('li.record[data-record-id="demo"]');
      assert.equal((await t.call("/api/mcp/demo/connect", { method: "POST" })).status, 200);
      await demo.locator(".server-era").getByText("2026-07-28 · modern").waitFor();

      await demo.getByRole("button", { name: /^Edit / }).click();
      const era = editor(page).getByLabel("Protocol era", { exact: true });
      assert.equal(await era.inputValue(), "");
      await era.selectOption("legacy");
      await editor(page).getByRole("button", { name: "Save" }).click();
      await editor(page).getByRole("status").getByText("Saved").waitFor();
      await configWhere(t, (config) => config.mcpServers[0].protocolEra === "legacy");
      // The changed setting reconnects the server, now in the 2025 era.
      await page.goto(withToken(ui.base, "/settings/servers"));
      await page.locator('li.record[data-record-id="demo"] .server-era')
        .getByText(/^2025-\d\d-\d\d · legacy$/).waitFor();
    } finally {
      await ui.close();
    }
  },
});
