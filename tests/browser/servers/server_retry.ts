/// <reference lib="dom" />
/**
 * A stdio server that exits at once, in Chromium: the inspector and the settings page show Lass's
 * own reconnects beside the status ("retrying in n s (attempt k of 5)"), and the History row of
 * the failed connect's `initialize` is an error, not pending.
 */
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { configWithServers } from "../../_helpers.ts";

Deno.test({
  name: "web UI: a server that exits at once shows its planned retry; its initialize row failed",
  ignore: skipBrowser,
  fn: async () => {
    const config = configWithServers([{
      id: "dies",
      name: "Dies at once",
      transport: "stdio",
      command: Deno.execPath(),
      args: ["eval", "Deno.exit(3)"],
      protocolEra: "legacy",
    }]);
    (config.workspaces as { mcpServerIds: string[] }[])[0].mcpServerIds = ["dies"];
    // A long first wait keeps the planned retry on screen while the test reads it.
    const ui = await startUi({ config, mcp: { reconnectDelayMs: 60_000 } });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    try {
      await ui.t.service.mcp.connect("dies");
      await page.goto(withToken(ui.base, "/inspector/dies"));
      await page.locator(".retry-note").getByText(/^retrying in \d+ s \(attempt 2 of 5\)$/)
        .waitFor();
      await page.locator('.timeline-item.is-error[data-method="initialize"]').first().waitFor();
      if (await page.locator('.timeline-item.is-pending[data-method="initialize"]').count()) {
        throw new Error("the failed connect left its initialize pending");
      }
      await page.goto(withToken(ui.base, "/settings/servers"));
      await page.getByRole("status", { name: "Status of dies" })
        .getByText(/^retrying in \d+ s \(attempt 2 of 5\)$/).waitFor();
    } finally {
      await ui.close();
    }
  },
});
