/// <reference lib="dom" />
/**
 * The inspector in Chromium shows the log level and the resource subscriptions Lass keeps for a
 * server: after a page reload, and when another client changes them.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { DEMO_LLM } from "../../_chat.ts";
import { post } from "../../_helpers.ts";
import { v2StdioRecord } from "../../_v2_fixtures.ts";

/** The v2 fixture server over stdio in the 2025 era: logging and resource subscriptions. */
const V2_LEGACY = v2StdioRecord("legacy");

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [V2_LEGACY],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: [] }],
  activeWorkspaceId: "w",
};

const README = "fixture://readme";
const ALPHA = "fixture://items/alpha";

/** Waits until the Log level selector shows `level` (the option's text). */
async function levelShown(controls: Locator, level: string): Promise<void> {
  await controls.locator("select option:checked", { hasText: new RegExp(`^${level}$`) })
    .waitFor({ state: "attached" });
}

/** Opens a resource on the Resources tab and returns its panel. */
async function openResource(page: Page, uri: string): Promise<Locator> {
  await page.getByRole("tab", { name: /Resources/ }).click();
  await page.getByRole("navigation", { name: "Resources" })
    .getByRole("button", { name: new RegExp(uri.replace(/[/.]/g, "\\$&")) }).click();
  return page.getByRole("article", { name: `Resource ${uri}` });
}

Deno.test({
  name: "web UI inspector: the log level and subscriptions show after a reload and from elsewhere",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    const { t } = ui;
    const controls = page.getByRole("group", { name: "Protocol controls" });
    try {
      await t.service.mcp.connect("v2");
      await page.goto(withToken(ui.base, "/inspector/v2"));

      await test.step("the level is set and a resource subscribed", async () => {
        await levelShown(controls, "The server's own");
        await controls.getByLabel("Log level").selectOption("warning");
        await controls.getByText("log messages from warning up").waitFor();
        const readme = await openResource(page, README);
        await readme.getByRole("button", { name: "Subscribe" }).click();
        await readme.getByRole("button", { name: "Unsubscribe" }).waitFor();
        const state = t.service.mcp.state("v2");
        assert.equal(state.logLevel, "warning");
        assert.deepEqual(state.subscriptions, [README]);
      });

      await test.step("after a reload the selector and the resource show both", async () => {
        await page.reload();
        await levelShown(controls, "warning");
        const readme = await openResource(page, README);
        await readme.getByRole("button", { name: "Unsubscribe" }).waitFor();
        await readme.getByText("following").waitFor();
      });

      await test.step("changes made by another client show at once", async () => {
        const level = await post(t, "/api/mcp/v2/log-level", { level: "error" });
        assert.equal(level.status, 200, JSON.stringify(level.body));
        await levelShown(controls, "error");
        const unsubscribed = await post(t, "/api/mcp/v2/unsubscribe", { uri: README });
        assert.equal(unsubscribed.status, 200, JSON.stringify(unsubscribed.body));
        const readme = page.getByRole("article", { name: `Resource ${README}` });
        await readme.getByRole("button", { name: "Subscribe" }).waitFor();
        const subscribed = await post(t, "/api/mcp/v2/subscribe", { uri: ALPHA });
        assert.equal(subscribed.status, 200, JSON.stringify(subscribed.body));
        const alpha = await openResource(page, ALPHA);
        await alpha.getByRole("button", { name: "Unsubscribe" }).waitFor();
      });

      await test.step("a second reload agrees with the server", async () => {
        await page.reload();
        await levelShown(controls, "error");
        const alpha = await openResource(page, ALPHA);
        await alpha.getByRole("button", { name: "Unsubscribe" }).waitFor();
        const readme = await openResource(page, README);
        await readme.getByRole("button", { name: "Subscribe" }).waitFor();
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
