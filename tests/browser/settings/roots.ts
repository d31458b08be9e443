/// <reference lib="dom" />
/** The Roots field of the tool-server form (settings), in Chromium. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_SERVER } from "../../_chat.ts";
import type { Json } from "../../_helpers.ts";
import { editor, fieldError, fileConfig } from "../../_settings.ts";

/** An HTTP server that is never connected here, with a root already stored. */
const REMOTE = {
  id: "remote",
  name: "Remote",
  transport: "http",
  url: "http://127.0.0.1:9/mcp",
  roots: [{ uri: "file:///srv/data", name: "Data" }],
};

Deno.test({
  name: "web UI settings: the tool-server form adds, shows, removes and checks roots",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: chatConfig({ servers: [DEMO_SERVER, REMOTE], workspace: { mcpServerIds: [] } }),
    });
    const page = await ui.page();
    const { t } = ui;
    /** The record of `id` in the stored config, as `GET /api/config/export` answers it. */
    const record = async (id: string): Promise<Json> => {
      const response = await t.call("/api/config/export");
      assert.equal(response.status, 200);
      const config = await response.json();
      return config.mcpServers.find((server: Json) => server.id === id);
    };
    const form = editor(page);
    const roots = form.getByRole("group", { name: "Roots" });
    const save = async () => {
      await form.getByRole("button", { name: "Save" }).click();
      await form.getByRole("status").getByText("Saved").waitFor();
    };
    try {
      await test.step("a stored root shows when the form of an HTTP server opens", async () => {
        await page.goto(withToken(ui.base, "/settings/servers/remote"));
        assert.equal(await roots.getByLabel("URI 1").inputValue(), "file:///srv/data");
        assert.equal(await roots.getByLabel("Name 1").inputValue(), "Data");
        assert.equal(await roots.getByLabel("URI 2").count(), 0);
      });

      await test.step("two roots added (a path, a URI with a name) are saved", async () => {
        await page.goto(withToken(ui.base, "/settings/servers/demo"));
        await roots.getByText("No roots.").waitFor();
        await roots.getByRole("button", { name: "Add root" }).click();
        await roots.getByLabel("URI 1").fill("/tmp/lass roots/project");
        await roots.getByLabel("Name 1").fill("Project");
        // Leaving the field shows the path as its file:// URI.
        assert.equal(
          await roots.getByLabel("URI 1").inputValue(),
          "file:///tmp/lass%20roots/project",
        );
        await roots.getByRole("button", { name: "Add root" }).click();
        await roots.getByLabel("URI 2").fill("file:///tmp/other");
        await save();
        assert.deepEqual((await record("demo")).roots, [
          { uri: "file:///tmp/lass%20roots/project", name: "Project" },
          { uri: "file:///tmp/other" },
        ]);
      });

      await test.step("the form opened again shows them; one removed is saved", async () => {
        await form.getByRole("button", { name: "Close" }).click();
        await form.waitFor({ state: "detached" });
        await page.getByRole("button", { name: "Edit Demo tools" }).click();
        assert.equal(
          await roots.getByLabel("URI 1").inputValue(),
          "file:///tmp/lass%20roots/project",
        );
        assert.equal(await roots.getByLabel("Name 1").inputValue(), "Project");
        assert.equal(await roots.getByLabel("URI 2").inputValue(), "file:///tmp/other");
        assert.equal(await roots.getByLabel("Name 2").inputValue(), "");
        await roots.getByRole("button", { name: "Remove root file:///tmp/other" }).click();
        assert.equal(await roots.getByLabel("URI 2").count(), 0);
        await save();
        assert.deepEqual((await record("demo")).roots, [
          { uri: "file:///tmp/lass%20roots/project", name: "Project" },
        ]);
      });

      await test.step("a URI that is not file:// is refused at its row and not saved", async () => {
        await roots.getByRole("button", { name: "Add root" }).click();
        await roots.getByLabel("URI 2").fill("https://x");
        await form.getByRole("button", { name: "Save" }).click();
        await fieldError(page, "roots").getByText("must be a file:// URI").waitFor();
        assert.equal(await roots.getByLabel("URI 2").getAttribute("aria-invalid"), "true");
        assert.equal(await roots.getByLabel("URI 1").getAttribute("aria-invalid"), null);
        await form.getByText("Not saved: see the errors at the fields.").waitFor();
        await screenshot(page, "settings-server-roots");
        assert.deepEqual((await fileConfig(t)).mcpServers[0].roots, [
          { uri: "file:///tmp/lass%20roots/project", name: "Project" },
        ]);
      });

      await test.step("the inspector's roots editor reads the same record", async () => {
        await page.goto(withToken(ui.base, "/inspector/demo"));
        const inspector = page.locator("details.roots-editor");
        await inspector.locator("summary .count").getByText("1", { exact: true }).waitFor();
        await inspector.locator("summary").click();
        assert.equal(
          await inspector.getByLabel("URI 1").inputValue(),
          "file:///tmp/lass%20roots/project",
        );
      });

      await test.step("with every root removed the record has no roots field", async () => {
        await page.goto(withToken(ui.base, "/settings/servers/demo"));
        await roots.getByRole("button", { name: "Remove root file:///tmp/lass%20roots/project" })
          .click();
        await roots.getByText("No roots.").waitFor();
        await save();
        assert.equal("roots" in await record("demo"), false);
      });
      // The refused save is a 400, which the browser logs; nothing else went wrong.
      assert.deepEqual(ui.problems.filter((problem) => !/status of 400/.test(problem)), []);
    } finally {
      await ui.close();
    }
  },
});
