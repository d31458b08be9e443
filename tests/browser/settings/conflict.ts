/**
 * A settings save never undoes a change it did not see: the page writes only over the config it
 * read (If-Match), and when another client changed it meanwhile it makes its change again on the
 * new config. In Chromium.
 */
import assert from "node:assert/strict";
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_LLM } from "../../_chat.ts";
import { readJsonResponse } from "../../_helpers.ts";
import { configWhere, editor, fileConfig } from "../../_settings.ts";

Deno.test({
  name: "web UI settings: a save that meets a change made meanwhile keeps both",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    try {
      await page.goto(withToken(ui.base, "/settings/models"));
      const item = page.locator('li.record[data-record-id="demo"]');
      await item.getByRole("button", { name: "Edit Demo" }).click();
      await editor(page).getByLabel("Name", { exact: true }).fill("Demo renamed");

      // Another client adds a profile just before the page's write reaches Lass.
      let interfered = 0;
      const puts: (string | null)[] = [];
      await page.route("**/api/config", async (route) => {
        const request = route.request();
        if (request.method() === "PUT") {
          puts.push(await request.headerValue("if-match"));
          if (interfered++ === 0) {
            const config = await fileConfig(t);
            config.llms.push({ ...DEMO_LLM, id: "external", name: "External" });
            const put = await readJsonResponse(
              await t.call("/api/config", { method: "PUT", json: config }),
            );
            assert.equal(put.status, 200, JSON.stringify(put.body));
          }
        }
        await route.continue();
      });

      await editor(page).getByRole("button", { name: "Save" }).click();
      await editor(page).getByRole("status").getByText("Saved").waitFor();
      const stored = await configWhere(t, (config) => config.llms.length === 2);
      assert.deepEqual(
        stored.llms.map((llm: { id: string; name: string }) => [llm.id, llm.name]),
        [["demo", "Demo renamed"], ["external", "External"]],
      );
      assert.equal(puts.length, 2, "the first write was refused (412), the second made again");
      assert.ok(puts.every((tag) => tag !== null), `each write names its config: ${puts}`);
      assert.notEqual(puts[0], puts[1]);
    } finally {
      await ui.close();
    }
  },
});
