/// <reference lib="dom" />
/**
 * The inspector as a workbench in Chromium: the output-schema check on a result, Copy on JSON
 * views and "Copy as…" (curl, lass, SDK code), History's filters (method, status, origin) and
 * "Edit and send", and Messages' search and direction filter.
 */
import assert from "node:assert/strict";
import { skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chat, DEMO_LLM, DEMO_SERVER, failingServer, user } from "../../_chat.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  // `leaky` prints its TOKEN (an env reference, so a secret) to stderr when it starts.
  mcpServers: [DEMO_SERVER, failingServer("leaky", "leak", { env: { TOKEN: "env:LEAK_TOKEN" } })],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name:
    "web UI inspector workbench: schema check, copy as, History filters, edit and send, find in Messages",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG, env: { LEAK_TOKEN: "sekret-123" } });
    const context = await ui.context();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: ui.base });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
    const history = page.getByRole("list", { name: "Requests and notifications, newest first" });
    const rows = history.locator(".timeline-item");
    const add = page.getByRole("article", { name: "Tool add" });
    try {
      await t.service.mcp.connect("demo");
      await page.setViewportSize({ width: 1400, height: 900 });
      await page.goto(withToken(ui.base, "/inspector/demo"));
      await page.getByRole("navigation", { name: "Tools" }).getByRole("button", { name: /^add/ })
        .click();

      await test.step("a result's structured content says it matches the output schema; Copy copies JSON", async () => {
        await add.getByRole("spinbutton", { name: "a", exact: true }).fill("2");
        await add.getByRole("spinbutton", { name: "b", exact: true }).fill("3");
        await add.getByRole("button", { name: "Call" }).click();
        const result = page.getByRole("region", { name: "Result" });
        await result.getByText("matches the output schema").waitFor();
        await result.locator(".json-block").first().getByRole("button", { name: "Copy JSON" })
          .click();
        assert.deepEqual(JSON.parse(await clipboard()), { sum: 5 });
      });

      await test.step("Copy as… gives curl, lass and SDK code for the form's call", async () => {
        await add.getByText("Copy as…").click();
        await add.getByRole("button", { name: "Copy as curl" }).click();
        const curl = await clipboard();
        assert.match(curl, /curl -sS -X POST '.*\/api\/mcp\/demo\/call'/);
        assert.match(curl, /Bearer \$LASS_TOKEN/);
        assert.ok(curl.includes(`-d '{"tool":"add","args":{"a":2,"b":3}}'`), curl);
        await add.getByRole("button", { name: "Copy as lass" }).click();
        assert.match(
          await clipboard(),
          /^deno task lass call --url '.*' 'demo' 'add' '\{"a":2,"b":3\}'$/,
        );
        await add.getByRole("button", { name: "Copy as MCP SDK (TypeScript)" }).click();
        const code = await clipboard();
        assert.match(code, /new URL\(".*\/mcp\/demo"\)/);
        assert.match(code, /client\.callTool\(\{ name: "add", arguments: \{"a":2,"b":3\} \}\)/);
      });

      await test.step("History filters by method, status and origin", async () => {
        const turn = await chat(t, { messages: [user("please add 20 and 22")] });
        assert.equal(turn.status, 200);
        const calls = rows.and(page.locator('[data-method="tools/call"]'));
        await waitForCount(calls, 2);
        await page.getByLabel("Method", { exact: true }).first().selectOption("tools/call");
        await waitForCount(rows, 2);
        await page.getByLabel("From").first().selectOption("chat");
        await waitForCount(rows, 1);
        assert.match(await rows.first().innerText(), /add/);
        await page.getByLabel("From").first().selectOption("inspector");
        await waitForCount(rows, 1);
        await page.getByLabel("Status").selectOption("error");
        await waitForCount(rows, 0);
        await page.getByLabel("Status").selectOption("ok");
        await page.getByLabel("From").first().selectOption("own");
        await waitForCount(rows, 0);
        await page.getByLabel("From").first().selectOption("all");
        await waitForCount(rows, 2);
      });

      await test.step("Edit and send loads a past call into its form, changed and sent again", async () => {
        // The inspector's own call (the older row).
        const mine = rows.last();
        await mine.locator(".timeline-toggle").click();
        await mine.getByRole("button", { name: "Edit and send" }).click();
        const a = add.getByRole("spinbutton", { name: "a", exact: true });
        await a.waitFor();
        await page.waitForFunction(() =>
          (document.activeElement as HTMLInputElement | null)?.closest(".tool-form") !== null
        );
        assert.equal(await a.inputValue(), "2");
        assert.equal(
          await add.getByRole("spinbutton", { name: "b", exact: true }).inputValue(),
          "3",
        );
        await a.fill("40");
        await add.getByRole("button", { name: "Call" }).click();
        await page.getByRole("region", { name: "Result" }).getByText("43").first().waitFor();
        await waitForCount(rows, 3);
      });

      await test.step("Messages finds text in params and results, and filters by direction", async () => {
        await page.getByRole("tab", { name: "Messages" }).click();
        const list = page.getByRole("list", { name: "JSON-RPC messages, newest first" });
        const messages = list.locator(".raw-row");
        await page.getByRole("searchbox", { name: "Find in messages" }).fill('"sum":43');
        await waitForCount(messages, 1);
        assert.equal(await messages.first().getAttribute("class"), "raw-row dir-in");
        await page.getByRole("searchbox", { name: "Find in messages" }).fill('"a":40');
        await waitForCount(messages, 1);
        await page.getByLabel("Direction").selectOption("in");
        await waitForCount(messages, 0);
        await page.getByText("No message matches the filters.").waitFor();
      });

      await test.step("a stdio server's stderr: the kept lines, then live ones and held-back notes", async () => {
        await t.service.mcp.connect("leaky");
        await page.goto(withToken(ui.base, "/inspector/leaky"));
        await page.getByRole("tab", { name: "stderr" }).click();
        const lines = page.getByRole("list", { name: "stderr lines, oldest first" });
        await lines.getByText("starting with token").waitFor();
        assert.ok(!(await lines.innerText()).includes("sekret-123"), "the secret is taken out");
        t.service.events.emit("mcp.log", {
          serverId: "leaky",
          level: "stderr",
          message: "live one",
        });
        await lines.getByText("live one").waitFor();
        t.service.events.emit("mcp.log", {
          serverId: "leaky",
          level: "warning",
          dropped: 7,
          message: "7 log lines were dropped (over 50 a second)",
        });
        await lines.getByText("7 lines held back").waitFor();
        // The demo server runs in process: no stderr tab.
        await page.goto(withToken(ui.base, "/inspector/demo"));
        await page.getByRole("tab", { name: "History" }).waitFor();
        assert.equal(await page.getByRole("tab", { name: "stderr" }).count(), 0);
      });

      await test.step("on a phone the filters wrap and nothing is wider than the screen", async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>(".activity *")]
            .filter((element) => element.getBoundingClientRect().right > innerWidth + 1)
            .map((element) => element.className || element.tagName).slice(0, 5)
        );
        assert.deepEqual(wide, []);
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
