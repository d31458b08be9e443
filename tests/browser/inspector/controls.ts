/// <reference lib="dom" />
/**
 * The inspector's protocol controls in Chromium: argument completion, log level, ping, list
 * refresh, roots, and resource subscriptions with live updates.
 */
import assert from "node:assert/strict";
import { skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";
import { type Json, post, waitForEvent } from "../../_helpers.ts";
import { v2StdioRecord } from "../../_v2_fixtures.ts";

/** The v2 fixture server over stdio in the 2025 era: ping, subscriptions, `touch`. */
const V2_LEGACY = v2StdioRecord("legacy");

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER, V2_LEGACY],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name: "web UI inspector: completion for prompt arguments and template variables, by keyboard",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    try {
      await ui.t.service.mcp.connect("demo");
      await page.goto(withToken(ui.base, "/inspector/demo"));

      await test.step("a prompt argument suggests as you type; arrows and Enter take one", async () => {
        await page.getByRole("tab", { name: /Prompts/ }).click();
        const prompt = page.getByRole("article", { name: "Prompt code_review" });
        const language = prompt.getByRole("textbox", { name: "language" });
        await language.pressSequentially("ty");
        const options = prompt.getByRole("option");
        await options.getByText("TypeScript", { exact: true }).waitFor();
        assert.deepEqual(await options.allInnerTexts(), ["TypeScript"]);
        await language.press("ArrowDown");
        assert.equal(await options.first().getAttribute("aria-selected"), "true");
        await language.press("Enter");
        assert.equal(await language.inputValue(), "TypeScript");
        await prompt.getByRole("listbox").waitFor({ state: "hidden" });
        // Escape closes a list; typing opens it again with what matches.
        await language.fill("");
        await language.pressSequentially("j");
        await options.getByText("JavaScript", { exact: true }).waitFor();
        await language.press("Escape");
        await prompt.getByRole("listbox").waitFor({ state: "hidden" });
        // An answer that comes after Escape does not open the list again.
        let release = () => {};
        const held = new Promise<void>((resolve) => release = resolve);
        let asked = () => {};
        const sent = new Promise<void>((resolve) => asked = resolve);
        await page.route("**/api/mcp/demo/complete", async (route) => {
          asked();
          await held;
          await route.continue();
        });
        await language.pressSequentially("a");
        await sent;
        await language.press("Escape");
        const answered = page.waitForResponse("**/api/mcp/demo/complete");
        release();
        await answered;
        // The page has had the answer; a frame later the list is still closed.
        await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => resolve(null)))");
        assert.equal(await prompt.getByRole("listbox").isHidden(), true);
        await page.unroute("**/api/mcp/demo/complete");
      });

      await test.step("a template variable suggests too; a click takes it", async () => {
        await page.getByRole("tab", { name: /Resources/ }).click();
        await page.getByRole("navigation", { name: "Resource templates" })
          .getByRole("button", { name: /demo:\/\/notes\/\{id\}/ }).click();
        const panel = page.getByRole("article", { name: "Template demo://notes/{id}" });
        const id = panel.getByRole("combobox", { name: "id" });
        await id.pressSequentially("g");
        await panel.getByRole("option", { name: "groceries" }).click();
        assert.equal(await id.inputValue(), "groceries");
        assert.equal(await panel.locator("output").innerText(), "demo://notes/groceries");
        await panel.getByRole("button", { name: "Read" }).click();
        await panel.getByText("Milk, bread, three apples, coffee.", { exact: true }).waitFor();
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name:
    "web UI inspector: log level, refresh, ping (server/discover on 2026 locally), roots editor",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    const { t } = ui;
    const controls = page.getByRole("group", { name: "Protocol controls" });
    try {
      await test.step("the demo (2026, in process) is pinged with server/discover, and says so", async () => {
        await t.service.mcp.connect("demo");
        await page.goto(withToken(ui.base, "/inspector/demo"));
        await controls.getByRole("button", { name: "Ping" }).click();
        const said = controls.locator(".ping-time");
        await said.waitFor();
        assert.match(await said.innerText(), /round trip .*server\/discover/);
      });

      await test.step("the log level is set on the server", async () => {
        const set = waitForEvent(
          t,
          (e) => e.type === "mcp.log-level" && e.data.serverId === "demo",
          { what: "the demo's log level set" },
        );
        await controls.getByLabel("Log level").selectOption("error");
        assert.equal((await set).data.level, "error");
        await controls.getByText("log messages from error up").waitFor();
      });

      await test.step("Refresh lists reads the lists again", async () => {
        const lists = page.locator('.timeline-item[data-method="tools/list"]');
        await lists.first().waitFor();
        const before = await lists.count();
        await controls.getByRole("button", { name: "Refresh lists" }).click();
        await waitForCount(lists, before + 1);
      });

      await test.step("roots are added, checked and saved into the record", async () => {
        const roots = page.locator("details.roots-editor");
        await roots.locator("summary").click();
        await roots.getByRole("button", { name: "Add root" }).click();
        await roots.getByLabel("URI 1").fill("relative/path");
        await roots.getByRole("button", { name: "Save roots" }).click();
        await roots.locator(".field-error").getByText(/file:\/\/ URI/).waitFor();
        await roots.getByLabel("URI 1").fill("file:///tmp/lass-project");
        await roots.getByLabel("Name 1").fill("Project");
        await roots.getByRole("button", { name: "Add root" }).click();
        await roots.getByLabel("URI 2").fill("file:///tmp/other");
        await roots.getByRole("button", { name: "Save roots" }).click();
        await roots.getByText("Saved.").waitFor();
        const record = () => t.service.config.config.mcpServers.find((s) => s.id === "demo")!;
        assert.deepEqual(record().roots, [
          { uri: "file:///tmp/lass-project", name: "Project" },
          { uri: "file:///tmp/other" },
        ]);
        await roots.getByRole("button", { name: "Remove root file:///tmp/other" }).click();
        await roots.getByRole("button", { name: "Save roots" }).click();
        await roots.getByText("Saved.").waitFor();
        assert.deepEqual(record().roots, [{ uri: "file:///tmp/lass-project", name: "Project" }]);
        assert.match(await roots.locator("summary").innerText(), /Roots\s*1/);
      });

      await test.step("a 2025 server answers ping with its round trip", async () => {
        await page.getByLabel("Tool server").selectOption("v2");
        await page.getByRole("button", { name: "Connect", exact: true }).click();
        const ping = controls.getByRole("button", { name: "Ping" });
        await ping.click();
        await controls.getByText(/^round trip \d+(\.\d)? m?s \(MCP ping\)$/).waitFor();
        assert.equal(t.service.mcp.state("v2").era, "legacy");
      });
      // The refused save (400) is the only failed request.
      assert.deepEqual(ui.problems, [
        "console error: Failed to load resource: the server responded with a status of 400 (Bad Request)",
      ]);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name: "web UI inspector: a subscribed resource shows its updates and is read again",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    const { t } = ui;
    try {
      await t.service.mcp.connect("v2");
      await page.goto(withToken(ui.base, "/inspector/v2"));
      await page.getByRole("tab", { name: /Resources/ }).click();
      await page.getByRole("navigation", { name: "Resources" })
        .getByRole("button", { name: /fixture:\/\/readme/ }).click();
      const panel = page.getByRole("article", { name: "Resource fixture://readme" });
      await panel.getByRole("button", { name: "Subscribe" }).click();
      await panel.getByText("following").waitFor();
      const reads = page.locator('.timeline-item[data-method="resources/read"]');
      assert.equal(await reads.count(), 0);
      const touched = await post(t, "/api/mcp/v2/call", {
        tool: "touch",
        args: { uri: "fixture://readme" },
      });
      assert.equal(touched.status, 200, JSON.stringify(touched.body as Json));
      await panel.locator(".resource-updated").getByText(/^updated at \d\d:\d\d:\d\d/).waitFor();
      // The update reads the resource again and shows it.
      await panel.getByRole("region", { name: "Contents" }).waitFor();
      await waitForCount(reads, 1);
      await panel.getByRole("button", { name: "Unsubscribe" }).click();
      await panel.getByRole("button", { name: "Subscribe" }).waitFor();
      assert.deepEqual(
        t.service.events.history().filter((e) => e.type === "mcp.subscription")
          .map((e) => e.data.subscribed),
        [true, false],
      );
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
