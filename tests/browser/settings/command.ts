/** The settings server list in Chromium: a stdio command's arguments show shell-quoted. */
import assert from "node:assert/strict";
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { configWithServers } from "../../_helpers.ts";
import { splitCommandLine } from "../../../islands/settings/command_line.ts";

Deno.test({
  name:
    "web UI settings: a stdio server's command shows its arguments quoted as a shell needs them",
  ignore: skipBrowser,
  fn: async () => {
    const args = ["-e", "console.error('boom…'); process.exit(3)", "--name", "My Server", "--flag"];
    const ui = await startUi({
      config: configWithServers([{
        id: "quoted",
        name: "Quoted",
        transport: "stdio",
        command: "node",
        args,
      }]),
    });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    try {
      await page.goto(withToken(ui.base, "/settings/servers"));
      const line = page.locator("code").filter({ hasText: /^node / });
      await line.waitFor();
      const shown = await line.innerText();
      assert.equal(
        shown,
        `node -e 'console.error('\\''boom…'\\''); process.exit(3)' --name 'My Server' --flag`,
      );
      // Pasted into a shell (or the Command field) it gives back the same words.
      assert.deepEqual(splitCommandLine(shown), ["node", ...args]);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
