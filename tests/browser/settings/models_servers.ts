/** Settings for model profiles, tool servers (live status, import) and the raw config, in Chromium. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import type { Json } from "../../_helpers.ts";
import { startOAuthFixture } from "../../fixtures/oauth_mcp_server.ts";
import { configWhere, editor, fieldError, fileConfig } from "../../_settings.ts";

Deno.test({
  name: "web UI settings: model profiles, tool servers with live status and import, raw config",
  ignore: skipBrowser,
  fn: async (test) => {
    const oauth = await startOAuthFixture();
    const secure = { id: "secure", name: "Secure", transport: "http", url: oauth.url };
    const config = chatConfig({ workspace: { llmId: "demo" } });
    const ui = await startUi({
      config: { ...config, mcpServers: [...config.mcpServers as Json[], secure] },
      env: { OPENAI_API_KEY: "sk-not-used" },
    });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    try {
      await test.step("models: a new profile from the form, tested and listed before saving", async () => {
        await page.goto(withToken(ui.base, "/settings/models"));
        await page.locator('li.record[data-record-id="demo"]').getByText("built-in demo").waitFor();
        await page.getByRole("button", { name: "Add model profile" }).click();
        const form = editor(page);
        // A key in the environment picks its provider, and the hint says it is set.
        assert.equal(await form.getByLabel("Provider", { exact: true }).inputValue(), "hosted-a");
        assert.equal(await form.getByLabel("Name", { exact: true }).inputValue(), "OpenAI");
        assert.match(
          await form.locator('[data-field="apiKey"] .hint').innerText(),
          /OPENAI_API_KEY \(set\)/,
        );
        // Another provider brings its preset: the preset's name and model follow.
        await form.getByLabel("Provider", { exact: true }).selectOption("compatible-api");
        assert.equal(
          await form.getByLabel("Name", { exact: true }).inputValue(),
          "OpenAI-compatible endpoint",
        );
        assert.equal(await form.getByLabel("Model", { exact: true }).inputValue(), "");
        await form.getByLabel("Id", { exact: true }).fill("local");
        await form.getByLabel("Name", { exact: true }).fill("Local demo");
        await form.getByLabel("Model", { exact: true }).fill("placeholder");
        await form.getByLabel("Base URL").fill("service:demo");

        await form.getByRole("button", { name: "Test", exact: true }).click();
        const result = form.getByRole("region", { name: "Test result" });
        await result.waitFor();
        assert.match(await result.innerText(), /The model answered in/);
        assert.match(await result.getAttribute("class") ?? "", /\bok\b/);

        await form.getByRole("button", { name: "List models" }).click();
        const listed = form.getByRole("button", { name: "Use model placeholder" });
        await listed.waitFor();
        await form.getByLabel("Model", { exact: true }).fill("demo");
        await form.getByRole("button", { name: "List models" }).click();
        await form.getByRole("button", { name: "Use model demo" }).click();
        assert.equal(await form.getByLabel("Model", { exact: true }).inputValue(), "demo");
        assert.equal((await fileConfig(t)).llms.length, 1, "nothing saved yet");

        await form.getByRole("button", { name: "Save" }).click();
        await form.getByRole("status").getByText("Saved").waitFor();
        await page.waitForURL(/\/settings\/models\/local$/);
        const stored = await configWhere(t, (config) => config.llms.length === 2);
        assert.deepEqual(stored.llms[1], {
          id: "local",
          name: "Local demo",
          provider: "compatible-api",
          model: "demo",
          baseURL: "service:demo",
        });
        // The editor stays open on the saved record.
        assert.equal(await editor(page).getByLabel("Id", { exact: true }).inputValue(), "local");
        await screenshot(page, "settings-models");
      });

      await test.step("models: a refused edit shows the error at its field, file unchanged", async () => {
        const before = await readFile(t.configPath, "utf8");
        const form = editor(page);
        await form.getByLabel("Base URL").fill("");
        await form.getByRole("button", { name: "Save" }).click();
        await fieldError(page, "baseURL").waitFor();
        assert.equal(
          await fieldError(page, "baseURL").innerText(),
          "is required for compatible-api",
        );
        await form.getByLabel("Base URL").fill("ftp://example.com/v1");
        await form.getByRole("button", { name: "Save" }).click();
        await fieldError(page, "baseURL").getByText("must be an http or https URL").waitFor();
        assert.equal(await form.locator(".form-status").innerText(), "", "no Saved");
        assert.equal(await readFile(t.configPath, "utf8"), before);
        // The list's Test button tests the saved profile.
        await page.locator('li.record[data-record-id="local"]')
          .getByRole("button", { name: "Test Local demo" }).click();
        await page.locator('li.record[data-record-id="local"]').getByRole("status")
          .getByText("The model answered").waitFor();
      });

      await test.step("models: Delete asks, keeps the focus, and says in words who still uses it", async () => {
        const before = await readFile(t.configPath, "utf8");
        await page.goto(withToken(ui.base, "/settings/models"));
        const item = page.locator('li.record[data-record-id="demo"]');
        const focused = () => page.evaluate<string>("document.activeElement?.textContent ?? ''");
        await item.getByRole("button", { name: "Delete Demo" }).click();
        assert.equal(await focused(), "Keep", "the question takes the focus");
        await page.keyboard.press("Enter");
        assert.equal(await focused(), "Delete", "Keep gives it back to Delete");
        await page.keyboard.press("Enter");
        await item.locator(".confirm").getByRole("button", { name: "Delete" }).click();
        await item.getByRole("alert").waitFor();
        assert.equal(
          await item.getByRole("alert").innerText(),
          'Not deleted: workspace "w", llmId: no llms record has id "demo"',
        );
        await item.getByRole("button", { name: "Delete Demo" }).waitFor();
        assert.equal(await focused(), "Delete", "the refused delete gives the focus back");
        assert.equal(await readFile(t.configPath, "utf8"), before);
        // Renaming it is refused the same way, at the form; Save keeps the focus.
        await item.getByRole("button", { name: "Edit Demo" }).click();
        await editor(page).getByLabel("Id", { exact: true }).fill("demo2");
        await editor(page).getByRole("button", { name: "Save" }).click();
        await editor(page).locator(".form-error").getByText(
          'Not saved: workspace "w", llmId: no llms record has id "demo"',
        ).waitFor();
        assert.equal(await focused(), "Save");
        await editor(page).getByLabel("Id", { exact: true }).fill("demo");
        await editor(page).getByRole("button", { name: "Save" }).click();
        await editor(page).getByRole("status").getByText("Saved").waitFor();
        assert.equal(await focused(), "Save");
      });

      await test.step("servers: import a Claude Desktop config, preview, add, connect, disconnect", async () => {
        await page.goto(withToken(ui.base, "/settings/servers"));
        // The status follows the event stream: a connect from elsewhere shows without a reload.
        const demo = page.locator('li.record[data-record-id="demo"]');
        await demo.locator(".server-status").getByText("disconnected").waitFor();
        assert.equal((await t.call("/api/mcp/demo/connect", { method: "POST" })).status, 200);
        await demo.locator(".server-status").getByText("connected", { exact: true }).waitFor();

        await page.getByRole("button", { name: "Import…" }).click();
        const dialog = page.getByRole("dialog", { name: "Import tool servers" });
        await dialog.waitFor();
        await dialog.getByLabel("Client config").fill(
          JSON.stringify({
            mcpServers: {
              demo: { command: "service:demo" },
              demo2: { command: "service:demo" },
            },
          }),
        );
        await dialog.getByRole("button", { name: "Preview" }).click();
        const preview = dialog.getByRole("region", { name: "Import preview" });
        await preview.getByText("Read as Claude Desktop: 2 servers.").waitFor();
        // "demo" is taken: the import offers another id; renaming it back is refused in place.
        const firstId = preview.getByLabel("Id for demo", { exact: true });
        assert.notEqual(await firstId.inputValue(), "demo");
        await firstId.fill("demo");
        await preview.getByText('a tool server with id "demo" exists already').waitFor();
        assert.equal(
          await dialog.getByRole("button", { name: "Add 2 servers" }).isDisabled(),
          true,
        );
        await preview.locator(".import-row").first().getByRole("checkbox").uncheck();
        assert.equal(await preview.getByLabel("Id for demo2").inputValue(), "demo2");
        await screenshot(page, "settings-import");
        await dialog.getByRole("button", { name: "Add 1 server" }).click();
        await dialog.waitFor({ state: "hidden" });
        await page.getByRole("status").getByText("Added demo2.").waitFor();
        const stored = await configWhere(t, (config) => config.mcpServers.length === 3);
        assert.deepEqual(stored.mcpServers[2], {
          id: "demo2",
          name: "demo2",
          transport: "stdio",
          command: "service:demo",
        });

        const row = page.locator('li.record[data-record-id="demo2"]');
        const badge = row.locator(".server-status");
        assert.equal(await badge.innerText(), "disconnected");
        await row.getByRole("button", { name: "Connect demo2" }).click();
        await badge.getByText("connected", { exact: true }).waitFor();
        const state = (await (await t.call("/api/mcp")).json()).servers
          .find((server: Json) => server.id === "demo2");
        assert.equal(state.status, "connected");
        await row.locator(".server-tools").getByText(`${state.tools.length} tools`).waitFor();
        assert.ok(state.tools.length > 5);
        assert.equal(
          await row.getByRole("link", { name: "Inspect demo2" }).getAttribute("href"),
          "/inspector/demo2",
        );
        await screenshot(page, "settings-servers");

        await row.getByRole("button", { name: "Disconnect demo2" }).click();
        await badge.getByText("disconnected", { exact: true }).waitFor();
        assert.equal(await row.locator(".server-tools").count(), 0);
      });

      await test.step("servers: sign in opens the authorization page in a tab; sign out asks again", async () => {
        const row = page.locator('li.record[data-record-id="secure"]');
        const badge = row.locator(".server-status");
        await row.getByRole("button", { name: "Connect Secure" }).click();
        await badge.getByText("needs sign-in").waitFor();
        // The fixture's authorization page approves at once and sends the tab to Lass's callback.
        const [tab] = await Promise.all([
          page.context().waitForEvent("page"),
          row.getByRole("button", { name: "Sign in to Secure" }).click(),
        ]);
        await tab.getByRole("heading", { name: "Signed in" }).waitFor();
        await tab.close();
        await badge.getByText("connected", { exact: true }).waitFor();
        assert.equal(oauth.stats.pkceVerified, 1);
        await row.getByRole("button", { name: "Sign out of Secure" }).click();
        await badge.getByText("needs sign-in").waitFor();
        assert.equal(await row.getByRole("button", { name: "Sign in to Secure" }).count(), 1);
      });

      await test.step("servers: the editor tests a draft and saves per-tool settings", async () => {
        const row = page.locator('li.record[data-record-id="demo2"]');
        await row.getByRole("button", { name: "Edit demo2" }).click();
        const form = editor(page);
        await form.getByRole("button", { name: "Test", exact: true }).click();
        const result = form.getByRole("region", { name: "Test result" });
        await result.getByText(/Connected in .* tools/).waitFor();
        await form.getByLabel("Offer echo to the model").uncheck();
        // An app-only tool (MCP Apps visibility ["app"]) is never offered: shown so, not editable.
        const appOnly = form.getByLabel("Offer dashboard_refresh to the model");
        assert.equal(await appOnly.isChecked(), false);
        assert.equal(await appOnly.isDisabled(), true);
        await form.getByLabel("Approval of add").selectOption("ask");
        await form.getByRole("button", { name: "Save" }).click();
        await form.getByRole("status").getByText("Saved").waitFor();
        const stored = await configWhere(t, (config) => config.mcpServers[2].approval);
        assert.deepEqual(stored.mcpServers[2].disabledTools, ["echo"]);
        assert.deepEqual(stored.mcpServers[2].approval, { tools: { add: "ask" } });
        // A transport without its required field is refused at that field.
        await form.getByLabel("Transport").selectOption("http");
        await form.getByRole("button", { name: "Save" }).click();
        await fieldError(page, "url").getByText("is required for http").waitFor();
      });

      await test.step("raw config: errors listed with path and line, text kept; a valid edit saves", async () => {
        await page.goto(withToken(ui.base, "/settings/config"));
        const text = page.getByLabel("Config (JSON)");
        await text.waitFor();
        assert.match(await page.locator(".config-path").innerText(), /service\.json$/);
        const original = await text.inputValue();
        assert.deepEqual(JSON.parse(original), await fileConfig(t));
        const before = await readFile(t.configPath, "utf8");

        // Not JSON: said with its line, nothing sent.
        await text.fill(original.replace('"llms": [', '"llms": [,'));
        await page.getByRole("button", { name: "Save" }).click();
        const problems = page.locator(".raw-problems");
        await problems.getByText("This is not valid JSON", { exact: false }).waitFor();

        // Valid JSON, invalid config: every detail with its path and line.
        const broken = original.replace('"llmId": "demo"', '"llmId": "nope"')
          .replace('"baseURL": "service:demo"', '"baseURL": "ftp://x"');
        await text.fill(broken);
        await page.getByRole("button", { name: "Save" }).click();
        const items = page.getByRole("list", { name: "Problems" }).getByRole("listitem");
        await items.getByText('no llms record has id "nope"').waitFor();
        const lines = broken.split("\n");
        const llmIdLine = lines.findIndex((line) => line.includes('"llmId": "nope"')) + 1;
        const urlLine = lines.findIndex((line) => line.includes('"ftp://x"')) + 1;
        const listed = await items.allInnerTexts();
        assert.ok(
          listed.some((item) =>
            /workspaces\.0\.llmId/.test(item) && item.includes(`line ${llmIdLine}`)
          ),
          listed.join("\n"),
        );
        assert.ok(
          listed.some((item) => /llms\.0\.baseURL/.test(item) && item.includes(`line ${urlLine}`)),
          listed.join("\n"),
        );
        assert.equal(await text.inputValue(), broken, "the text is kept");
        assert.equal(await readFile(t.configPath, "utf8"), before, "the file is unchanged");
        await page.getByRole("button", { name: `line ${llmIdLine}` }).click();
        await screenshot(page, "settings-raw");

        // A valid edit: saved as written.
        const edited = JSON.stringify({ ...JSON.parse(original), x_notes: "kept" }, null, 2);
        await text.fill(edited);
        await page.getByRole("button", { name: "Save" }).click();
        await page.locator(".raw-form").getByRole("status").getByText("Saved").waitFor();
        assert.equal((await fileConfig(t)).x_notes, "kept");
        assert.equal(await page.locator(".raw-problems").count(), 0);

        // The redacted export downloads.
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "Download (secrets redacted)" }).click(),
        ]);
        assert.equal(download.suggestedFilename(), "service.redacted.json");
        const path = await download.path();
        assert.equal(JSON.parse(await readFile(path, "utf8")).x_notes, "kept");
      });

      // The refused writes above answer 400, which the browser logs; nothing else may appear.
      assert.deepEqual(ui.problems.filter((problem) => !/status of 400/.test(problem)), []);
    } finally {
      await ui.close();
      await oauth.close();
    }
  },
});
