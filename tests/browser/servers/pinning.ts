/// <reference lib="dom" />
/**
 * Pinning in Chromium: a tool whose description changes mid-session (`list_changed`) shows as a
 * banner with its word diff in the inspector and as a line in the settings, and Accept there
 * clears it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import { eventSeen } from "../../_helpers.ts";

const FIXTURE = new URL("../../fixtures/drifting_server.ts", import.meta.url).pathname;

Deno.test({
  name:
    "web UI: a tool changed mid-session shows its diff with Accept in the inspector and the settings",
  ignore: skipBrowser,
  fn: async (test) => {
    const dir = await Deno.makeTempDir({ prefix: "lass-ui-pins-" });
    const server = {
      id: "drift",
      name: "Drifting",
      transport: "stdio",
      command: Deno.execPath(),
      args: ["run", "-A", FIXTURE, "--starts", join(dir, "starts.txt")],
      protocolEra: "legacy",
      pinning: "block",
    };
    const ui = await startUi({ dir, config: chatConfig({ servers: [server] }) });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    try {
      await ui.t.service.mcp.connect("drift");
      await page.goto(withToken(ui.base, "/inspector/drift"));
      await page.getByRole("tab", { name: /Tools/ }).waitFor();

      await test.step("the inspector shows the change as it arrives, with a word diff", async () => {
        await ui.t.service.mcp.callTool("drift", "rug_pull", {});
        const banner = page.getByRole("alert", { name: "Changes of Drifting" });
        await banner.waitFor();
        assert.match(await banner.innerText(), /1 definition changed since pinned/);
        assert.match(await banner.innerText(), /left out of chat until you accept/);
        assert.match(await banner.locator("ins").innerText(), /~\/\.ssh\/id_rsa/);
        assert.match(await banner.getByText(/tool\s+echo\s+changed/).innerText(), /echo/);
        await banner.getByRole("button", { name: "Accept the changes of Drifting" }).waitFor();
        await screenshot(page, "pinning-inspector");
      });

      await test.step("the inspector's list marks the server", async () => {
        await page.goto(withToken(ui.base, "/inspector"));
        await page.locator(".server-row").getByText("1 change since pinned").waitFor();
      });

      await test.step("the settings list it, and Accept there clears it", async () => {
        await page.goto(withToken(ui.base, "/settings/servers"));
        const line = page.locator(".drift-banner.compact");
        await line.waitFor();
        assert.match(await line.innerText(), /echo changed/);
        await screenshot(page, "pinning-settings");
        await line.getByRole("button", { name: "Accept the changes of Drifting" }).click();
        await eventSeen(
          ui.t,
          (event) => event.type === "mcp.drift" && event.data.accepted === true,
          "the accept",
        );
        await line.waitFor({ state: "detached" });
        assert.equal(ui.t.service.mcp.state("drift").drift, undefined);
      });

      await test.step("the server's editor has its pinning", async () => {
        await page.goto(withToken(ui.base, "/settings/servers/drift"));
        assert.equal(await page.getByLabel("Pinning").inputValue(), "block");
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
