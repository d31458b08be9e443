/// <reference lib="dom" />
/**
 * Relative times in Chromium keep up with the clock: a session in the sidebar ("just now") and a
 * connected server in the inspector ("connected just now") say "2 minutes ago" two minutes later,
 * without a reload. The page's clock is Playwright's, moved forward.
 */
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";

Deno.test({
  name: "web UI: relative times in the sidebar and the inspector update as time passes",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig() });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    try {
      const stored = await ui.t.call("/api/sessions/times", {
        method: "PUT",
        json: {
          workspaceId: "w",
          title: "A session to age",
          messages: [{ role: "user", content: "hello" }],
        },
      });
      await stored.body?.cancel();
      await ui.t.service.mcp.connect("demo");
      await page.clock.install({ time: Date.now() });
      await page.goto(withToken(ui.base, "/inspector/demo"));
      const session = page.locator(".sessions a", { hasText: "A session to age" })
        .locator(".session-time");
      await session.getByText("just now").waitFor();
      const connected = page.getByText(/^connected just now$/);
      await connected.waitFor();
      await page.clock.fastForward("02:05");
      await session.getByText("2 minutes ago").waitFor();
      await page.getByText(/^connected 2 minutes ago$/).waitFor();
    } finally {
      await ui.close();
    }
  },
});
