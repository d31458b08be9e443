/// <reference lib="dom" />
/**
 * Settings → Tool servers → Add from registry in Chromium, against the fake registry: search, pick
 * a version and a package or remote, fill an input, add, and the note of the variables to set; at
 * 1400×900 and at a phone's 390×844.
 */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { configWhere } from "../../_settings.ts";
import { EVERYTHING_VERSION, startFakeRegistry } from "../../fixtures/fake_registry.ts";

Deno.test({
  name:
    "Add from registry: search, choose a version and a package or remote, add with the env note",
  ignore: skipBrowser,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async (test) => {
    const fake = startFakeRegistry();
    const ui = await startUi({
      config: {
        version: 1,
        registryUrl: fake.url,
        mcpServers: [{ id: "demo", name: "Demo", transport: "stdio", command: "service:demo" }],
      },
    });
    const { t } = ui;
    try {
      const context = await ui.context();
      const page = await context.newPage();
      await page.setViewportSize({ width: 1400, height: 900 });

      await test.step("search by description, choose, set an input, add: the env note names the secret", async () => {
        await page.goto(withToken(ui.base, "/settings/servers"));
        await page.getByRole("button", { name: "Add from registry…" }).click();
        const dialog = page.getByRole("dialog", { name: "Add from the MCP Registry" });
        const results = dialog.getByRole("list", { name: "Registry servers" });
        await results.getByText("io.github.example/database").waitFor();
        assert.equal(await results.getByRole("listitem").count(), 6);
        await dialog.getByRole("searchbox", { name: "Search the registry" }).fill("forecasts");
        await dialog.getByRole("button", { name: "Search" }).click();
        // The search's answer replaces the first page: wait for that, then look.
        await waitForCount(results.getByRole("listitem"), 1);
        await results.getByText("io.github.example/weather").waitFor();
        await dialog.getByRole("button", { name: "Choose io.github.example/weather" }).click();
        const server = dialog.getByRole("region", { name: "Server io.github.example/weather" });
        await server.getByText("uvx weather-mcp-server==0.5.0").waitFor();
        const note = server.getByRole("note");
        await note.getByText("WEATHER_API_KEY").waitFor();
        assert.match(await note.innerText(), /secrets are never written into the config/);
        await server.getByLabel("env WEATHER_UNITS").fill("fahrenheit");
        await server.getByLabel("env WEATHER_UNITS").press("Tab");
        await screenshot(page, "registry-server-1400");
        await server.getByRole("button", { name: "Add" }).click();
        await dialog.waitFor({ state: "hidden" });
        await page.getByRole("status").getByText("Added weather.").waitFor();
        await page.getByRole("note").getByText(/Set WEATHER_API_KEY in Lass's environment/)
          .waitFor();
        const stored = await configWhere(t, (config) => config.mcpServers.length === 2);
        assert.deepEqual(stored.mcpServers[1], {
          id: "weather",
          name: "weather",
          transport: "stdio",
          command: "uvx",
          args: ["weather-mcp-server==0.5.0"],
          env: { WEATHER_API_KEY: "env:WEATHER_API_KEY", WEATHER_UNITS: "fahrenheit" },
        });
        await page.locator('li.record[data-record-id="weather"]').waitFor();
      });

      await test.step("pick an older version of server-everything and add it", async () => {
        await page.getByRole("button", { name: "Add from registry…" }).click();
        const dialog = page.getByRole("dialog", { name: "Add from the MCP Registry" });
        await dialog.getByRole("button", {
          name: "Choose io.github.modelcontextprotocol/server-everything",
        }).click();
        const server = dialog.getByRole("region", {
          name: "Server io.github.modelcontextprotocol/server-everything",
        });
        await server.getByText(`@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`)
          .first().waitFor();
        const version = server.getByLabel("Version");
        await version.locator("option", { hasText: "2025.9.25" }).waitFor({ state: "attached" });
        assert.deepEqual(
          await version.locator("option").allInnerTexts(),
          [`${EVERYTHING_VERSION} (latest)`, "2025.9.25"],
        );
        await version.selectOption("2025.9.25");
        await server.locator(".registry-target").getByText(
          "npx -y @modelcontextprotocol/server-everything@2025.9.25",
        ).waitFor();
        assert.equal(await server.getByRole("note").count(), 0, "nothing to set");
        await server.getByRole("button", { name: "Add" }).click();
        await dialog.waitFor({ state: "hidden" });
        const stored = await configWhere(t, (config) => config.mcpServers.length === 3);
        assert.deepEqual(stored.mcpServers[2].args, [
          "-y",
          "@modelcontextprotocol/server-everything@2025.9.25",
        ]);
        await screenshot(page, "registry-added-1400");
      });

      await test.step("on a phone: a remote with a secret header, nothing wider than the screen", async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.getByRole("button", { name: "Add from registry…" }).click();
        const dialog = page.getByRole("dialog", { name: "Add from the MCP Registry" });
        await dialog.getByRole("searchbox", { name: "Search the registry" }).fill("remote");
        await dialog.getByRole("button", { name: "Search" }).click();
        const found = dialog.getByRole("list", { name: "Registry servers" }).getByRole("listitem");
        await waitForCount(found, 1);
        await screenshot(page, "registry-list-390");
        await dialog.getByRole("button", { name: "Choose com.example/remote-api" }).click();
        const server = dialog.getByRole("region", { name: "Server com.example/remote-api" });
        await server.getByRole("radio").nth(1).check();
        await server.locator(".registry-target").getByText("https://mcp.example.com/sse")
          .waitFor();
        await server.getByRole("note").getByText("REMOTE_API_X_API_KEY").waitFor();
        const box = await dialog.boundingBox();
        assert.ok(
          box && box.x >= 0 && box.x + box.width <= 390,
          `dialog box ${JSON.stringify(box)}`,
        );
        const overflow = await dialog.evaluate((element) =>
          element.scrollWidth - element.clientWidth
        );
        assert.ok(overflow <= 1, `the dialog scrolls sideways by ${overflow} px`);
        await screenshot(page, "registry-remote-390");
        await server.getByRole("button", { name: "Add" }).click();
        await dialog.waitFor({ state: "hidden" });
        const stored = await configWhere(t, (config) => config.mcpServers.length === 4);
        assert.deepEqual(stored.mcpServers[3].headers, { "X-API-Key": "env:REMOTE_API_X_API_KEY" });
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
      await fake.close();
    }
  },
});
