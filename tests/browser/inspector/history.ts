/// <reference lib="dom" />
/** The inspector's History and raw messages in Chromium: from the trace, across tools and reloads. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chat, DEMO_LLM, DEMO_SERVER, user } from "../../_chat.ts";
import { waitUntil } from "../../_helpers.ts";
import type { Locator } from "playwright-core";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER, { ...DEMO_SERVER, id: "quiet", name: "Quiet", trace: false }],
  workspaces: [{ id: "w", name: "W", llmId: "demo", mcpServerIds: ["demo"] }],
  activeWorkspaceId: "w",
};

Deno.test({
  name: "web UI inspector: History keeps calls across tool switches and a reload, runs them again",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    const history = page.getByRole("list", { name: "Requests and notifications, newest first" });
    const calls = (tool: string) =>
      history.locator('.timeline-item[data-method="tools/call"]').filter({ hasText: tool });
    // Rows are added at the top while the test clicks: a click by position could land on the row
    // that just moved there, so rows and their buttons get the click event itself.
    const expand = async (row: Locator) => {
      await row.locator(".timeline-toggle").dispatchEvent("click");
      await row.locator('.timeline-toggle[aria-expanded="true"]').waitFor();
    };
    const runAgain = (row: Locator) =>
      row.getByRole("button", { name: "Run again" }).dispatchEvent("click");
    const pickTool = (name: string) =>
      page.getByRole("navigation", { name: "Tools" }).getByRole("button", {
        name: new RegExp(`^${name}`),
      }).click();
    try {
      await test.step("calls from the inspector show with status and duration", async () => {
        await t.service.mcp.connect("demo");
        await page.goto(withToken(ui.base, "/inspector/demo"));
        await pickTool("add");
        const add = page.getByRole("article", { name: "Tool add" });
        await add.getByRole("spinbutton", { name: "a", exact: true }).fill("2");
        await add.getByRole("spinbutton", { name: "b", exact: true }).fill("3");
        await add.getByRole("button", { name: "Call" }).click();
        await page.getByRole("region", { name: "Result" }).waitFor();
        await calls("add").waitFor();
        assert.match(await calls("add").innerText(), /tools\/call\s+add\s+ok\s+\d+(\.\d)? m?s/);
        // Another tool: its form replaces add's, the history keeps both.
        await pickTool("fail");
        const fail = page.getByRole("article", { name: "Tool fail" });
        await fail.getByRole("textbox", { name: "reason" }).fill("on purpose");
        await fail.getByRole("button", { name: "Call" }).click();
        await calls("fail").waitFor();
        assert.match(await calls("fail").innerText(), /\berror\b/);
        await waitForCount(calls("add"), 1);
        // The handshake and the lists are there too.
        await history.locator('.timeline-item[data-method="tools/list"]').first().waitFor();
      });

      await test.step("a chat's tool call shows live", async () => {
        const { status } = await chat(t, { messages: [user("please add 20 and 22")] });
        assert.equal(status, 200);
        await waitForCount(calls("add"), 2);
      });

      await test.step("after a reload the history is still there, with request and response", async () => {
        await page.reload();
        await waitForCount(calls("add"), 2);
        await waitForCount(calls("fail"), 1);
        // Newest first: the chat's call is above the inspector's.
        const first = calls("add").last();
        await expand(first);
        const detail = first.locator(".timeline-detail");
        const [request, response] = await detail.locator("pre").allInnerTexts();
        assert.deepEqual(JSON.parse(request).params.arguments, { a: 2, b: 3 });
        assert.equal(JSON.parse(response).result.structuredContent.sum, 5);
        await screenshot(page, "inspector-history");
      });

      await test.step("Run again sends the same call; the new one is at the top, open", async () => {
        await runAgain(calls("add").last());
        await calls("add").last().getByText(/Sent again\./).waitFor();
        await waitForCount(calls("add"), 3);
        const newest = history.locator(".timeline-item").filter({ hasText: "tools/call" }).first();
        await newest.locator('.timeline-toggle[aria-expanded="true"]').waitFor();
        const request = await newest.locator(".timeline-detail pre").first().innerText();
        assert.deepEqual(JSON.parse(request).params.arguments, { a: 2, b: 3 });
      });

      await test.step("a prompt and a resource read run again too", async () => {
        await page.getByRole("tab", { name: /Prompts/ }).click();
        await page.getByRole("navigation", { name: "Prompts" })
          .getByRole("button", { name: /plan_trip/ }).click();
        const prompt = page.getByRole("article", { name: "Prompt plan_trip" });
        await prompt.getByRole("textbox", { name: "destination" }).fill("Oslo");
        await prompt.getByRole("textbox", { name: "days" }).fill("3");
        await prompt.getByRole("button", { name: "Get prompt" }).click();
        const gets = history.locator('.timeline-item[data-method="prompts/get"]');
        await waitForCount(gets, 1);
        await expand(gets.first());
        await runAgain(gets.first());
        await waitForCount(gets, 2);
        await gets.first().locator('.timeline-toggle[aria-expanded="true"]').waitFor();
        const request = await gets.first().locator(".timeline-detail pre").first().innerText();
        assert.deepEqual(JSON.parse(request).params.arguments, { destination: "Oslo", days: "3" });

        await page.getByRole("tab", { name: /Resources/ }).click();
        await page.getByRole("navigation", { name: "Resources", exact: true })
          .getByRole("button", { name: /demo:\/\/readme/ }).click();
        const readme = page.getByRole("article", { name: "Resource demo://readme" });
        await readme.getByRole("button", { name: "Read" }).click();
        const reads = history.locator('.timeline-item[data-method="resources/read"]');
        await waitForCount(reads, 1);
        await expand(reads.first());
        await runAgain(reads.first());
        await waitForCount(reads, 2);
        assert.match(await reads.first().innerText(), /demo:\/\/readme\s+ok/);
      });

      await test.step("Messages shows the raw JSON-RPC, filtered by method", async () => {
        await page.getByRole("tab", { name: "Messages" }).click();
        const raw = page.getByRole("list", { name: "JSON-RPC messages, newest first" });
        await raw.locator(".raw-row").first().waitFor();
        await page.getByLabel("Method").selectOption("tools/call");
        // Four calls (three add, one fail): each a request out and a response in.
        await waitForCount(raw.locator(".raw-row"), 8);
        const methods = await raw.locator(".raw-row").evaluateAll((rows) =>
          rows.map((row) => row.getAttribute("data-method"))
        );
        assert.deepEqual(new Set(methods), new Set(["tools/call"]));
        const dirs = await raw.locator(".raw-dir").allInnerTexts();
        assert.equal(dirs.filter((dir) => dir === "out").length, 4);
        assert.equal(dirs.filter((dir) => dir === "in").length, 4);
        assert.match(await raw.locator(".raw-line").first().innerText(), /"jsonrpc":"2\.0"/);
      });

      await test.step("a server whose trace is off says so", async () => {
        await page.getByLabel("Tool server").selectOption("quiet");
        await page.getByText("The trace is off for this server").waitFor();
        await page.getByLabel("Tool server").selectOption("demo");
        await history.locator(".timeline-item").first().waitFor();
      });

      await test.step("leaving the server closes its trace stream", async () => {
        await waitUntil(() => t.service.mcp.traceFollowers("quiet") === 0, "quiet's stream closed");
        assert.equal(t.service.mcp.traceFollowers("demo"), 1);
        await page.getByRole("link", { name: "Events", exact: true }).click();
        await page.waitForURL(`${ui.base}/events`);
        await waitUntil(
          () => t.service.mcp.traceFollowers("demo") === 0,
          "the follow stream closed",
        );
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name:
    "web UI inspector: a full trace (2,000 messages) draws only the newest rows, more on demand",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: CONFIG });
    const page = await ui.page();
    page.setDefaultTimeout(20_000);
    const { t } = ui;
    try {
      // Each add is a request, a log message and a response: 700 of them fill the ring.
      for (let batch = 0; batch < 14; batch++) {
        await Promise.all(
          Array.from(
            { length: 50 },
            (_, i) => t.service.mcp.callTool("demo", "add", { a: i, b: 1 }),
          ),
        );
      }
      await page.goto(withToken(ui.base, "/inspector/demo"));
      const history = page.getByRole("list", { name: "Requests and notifications, newest first" });
      await waitForCount(history.locator(".timeline-item"), 200);
      await page.getByText(/; the newest 200 shown/).waitFor();
      await page.getByRole("button", { name: "Show 200 older" }).click();
      await waitForCount(history.locator(".timeline-item"), 400);
      // Live calls still arrive on top.
      await t.service.mcp.callTool("demo", "add", { a: 1000, b: 1 });
      await history.locator(".timeline-item").filter({ hasText: "1000 + 1" }).waitFor();
      await page.getByRole("tab", { name: "Messages" }).click();
      const raw = page.getByRole("list", { name: "JSON-RPC messages, newest first" });
      await waitForCount(raw.locator(".raw-row"), 300);
      await page.getByText("2000 messages; the newest 300 shown").waitFor();
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
