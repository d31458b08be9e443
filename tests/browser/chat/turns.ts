/** The chat page in Chromium: tool-call cards, errors in place, stop, sessions, reload. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_LLM } from "../../_chat.ts";
import { type Json, waitForEvent } from "../../_helpers.ts";

const STARTERS = ["please add 2 and 3", "what tools do you have"];

/**
 * The demo model with a price (so its answers cost something), and a profile whose key variable
 * is not set (its turns fail in the stream).
 */
const LLMS = [
  { ...DEMO_LLM, pricing: { inputPerMTok: 3, outputPerMTok: 15 } },
  {
    id: "broken",
    name: "Broken",
    provider: "hosted-a",
    model: "gpt-5-mini",
    apiKey: "env:LASS_TEST_UNSET_KEY",
  },
];

Deno.test({
  name: "web UI chat: tool card, errors in place, stop, sessions saved, rename, delete, reload",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: chatConfig({ llms: LLMS, workspace: { llmId: "demo", starterPrompts: STARTERS } }),
    });
    const page = await ui.page();
    const { t } = ui;
    let sessionId = "";
    try {
      await test.step("a chat with a tool call shows its card, then the answer", async () => {
        await page.goto(withToken(ui.base));
        await page.getByRole("button", { name: STARTERS[0] }).click();
        const card = page.getByRole("region", { name: "Tool call add on demo" });
        await card.waitFor();
        await page.locator(".turn-done").waitFor();
        const cardText = await card.innerText();
        assert.match(cardText, /Input[\s\S]*"a": 2,[\s\S]*"b": 3/);
        assert.match(cardText, /Result\s+5/);
        assert.match(cardText, /\bdone\b/);
        assert.match(cardText, /\d+(\.\d)? m?s/, "the duration");
        assert.match(await page.locator(".turn").innerText(), /`?demo__add`? returned 5\./);
        // The answer's tokens and cost, and the chat's total.
        const meta = page.locator(".turn-done .turn-meta");
        assert.match(await meta.innerText(), /\d+ tokens\s+\$0\.\d+/);
        assert.equal(
          await meta.locator(".turn-cost").getAttribute("title"),
          "Priced by the model profile's pricing",
        );
        assert.match(
          await meta.locator(".turn-tokens").getAttribute("title") ?? "",
          /^\d+ in, \d+ out \(\d+ reasoning\)$/,
        );
        const cost = await meta.locator(".turn-cost").innerText();
        assert.equal(
          await page.locator(".session-total").innerText(),
          `Chat total: ${await meta.locator(".turn-tokens").innerText()}, ${cost}`,
        );
        // Reasoning is there, collapsed; the raw exchange opens on demand.
        assert.equal(await page.locator("details.reasoning").first().getAttribute("open"), null);
        await card.getByText("Raw").click();
        assert.match(await card.locator("details.raw pre").innerText(), /structuredContent/);
        // Saved by the server as it went: the URL names the session, the sidebar lists it.
        await page.waitForURL(/\/chat\/[\w-]+$/);
        sessionId = decodeURIComponent(page.url().split("/chat/")[1]);
        const link = page.getByRole("link", { name: /please add 2 and 3/ });
        await link.waitFor();
        assert.equal(await link.getAttribute("aria-current"), "page");
        await screenshot(page, "chat-tool-call");
      });

      await test.step("the session is stored with its messages and tool-call details", async () => {
        const stored = await t.service.sessions.get(sessionId);
        assert.deepEqual(stored.messages.map((m: Json) => m.role), [
          "user",
          "assistant",
          "tool",
          "assistant",
        ]);
        const details = Object.values(stored.meta?.toolCalls as Json);
        assert.equal(details.length, 1);
        assert.equal((details[0] as Json).source, "demo");
        assert.equal(typeof (details[0] as Json).durationMs, "number");
      });

      await test.step("errors are shown in place; the model picker picks the model", async () => {
        await page.getByLabel("Model", { exact: true }).selectOption("broken");
        await page.getByLabel("Message", { exact: true }).fill("hello there");
        await page.getByRole("button", { name: "Send" }).click();
        const alert = page.locator(".turn-error [role=alert]");
        await alert.waitFor();
        assert.match(await alert.innerText(), /LASS_TEST_UNSET_KEY is not set/);
        await page.getByLabel("Model", { exact: true }).selectOption("");
      });

      await test.step("Stop aborts a running turn: the server stops it, the page says so", async () => {
        const aborted = waitForEvent(t, (e) => e.type === "chat.error" && e.data.aborted === true);
        await page.getByLabel("Message", { exact: true }).fill("slow count 20 steps");
        await page.keyboard.press("Enter");
        const card = page.getByRole("region", { name: "Tool call slow_count on demo" });
        await card.getByText("running…").waitFor();
        await page.getByRole("button", { name: "Stop" }).click();
        await page.getByText("Stopped.", { exact: true }).waitFor();
        await aborted;
        await card.getByText("no result").waitFor();
        await page.getByRole("button", { name: "Send" }).waitFor();
      });

      await test.step("the next turn continues the history without the failed ones; the session keeps them", async () => {
        await page.getByLabel("Message", { exact: true }).fill("echo 'after the stop'");
        await page.keyboard.press("Enter");
        await page.getByRole("region", { name: "Tool call echo on demo" }).waitFor();
        await page.locator(".turn-done").nth(1).waitFor();
        const stored = await t.service.sessions.get(sessionId);
        const users = stored.messages.filter((m: Json) => m.role === "user").map((m: Json) =>
          m.content
        );
        assert.deepEqual(users, [
          "please add 2 and 3",
          "hello there",
          "slow count 20 steps",
          "echo 'after the stop'",
        ]);
        // By the index of the user message: after the first turn's four messages.
        assert.deepEqual(Object.keys(stored.meta?.endings as Json), ["4", "5"]);
      });

      await test.step("a reload reopens the chat exactly", async () => {
        const view = async () => {
          const texts = await page.locator(".turn").evaluateAll((turns) =>
            turns.map((turn) => {
              const copy = turn.cloneNode(true) as Json;
              copy.querySelectorAll(".turn-meta, .turn-error, .turn-stopped").forEach((e: Json) =>
                e.remove()
              );
              return copy.textContent;
            })
          );
          return texts;
        };
        const before = await view();
        const costs = async () => [
          await page.locator(".turn-cost").allInnerTexts(),
          await page.locator(".session-total").innerText(),
        ];
        const costsBefore = await costs();
        await page.reload();
        await page.getByRole("region", { name: "Tool call echo on demo" }).waitFor();
        assert.equal(page.url(), `${ui.base}/chat/${sessionId}`);
        const after = await view();
        assert.deepEqual(await costs(), costsBefore, "each answer's cost and the total come back");
        assert.equal(costsBefore[0].length, 2, "the two answers that finished have a cost");
        assert.equal(after.length, 4, "the stopped and failed turns are saved");
        // The stopped turn's unfinished call now says so; the others are as they were.
        assert.deepEqual([after[0], after[1], after[3]], [before[0], before[1], before[3]]);
        assert.match(
          await page.locator(".turn-error [role=alert]").innerText(),
          /LASS_TEST_UNSET_KEY is not set/,
        );
        await page.locator(".turn-stopped").getByText("Stopped.", { exact: true }).waitFor();
        const durations = await page.locator(".tool-card .duration").allInnerTexts();
        assert.equal(durations.length, 2, "durations come back from the session's meta");
        await screenshot(page, "chat-reopened");
        // The stored history is what the next turn sends: the chat goes on after the reload.
        await page.getByLabel("Message", { exact: true }).fill("please add 1 and 1");
        await page.keyboard.press("Enter");
        await page.locator(".turn-done").nth(2).waitFor();
        assert.match(await page.locator(".turn-done").nth(2).innerText(), /returned 2\./);
      });

      await test.step("generative-UI results render in their tool card", async () => {
        await page.getByRole("button", { name: "New chat" }).click();
        await page.waitForURL(`${ui.base}/`);
        await page.getByRole("button", { name: STARTERS[1] }).waitFor();
        await page.getByLabel("Message", { exact: true }).fill("show dashboard please");
        await page.keyboard.press("Enter");
        const app = page.locator(".mcp-app");
        await app.waitFor();
        assert.match(await app.innerText(), /MCP App\s+ui:\/\/lass-demo\/dashboard\.html/);
        await page.locator(".turn-done").waitFor();
        await page.waitForURL(/\/chat\/[\w-]+$/);
      });

      await test.step("the sidebar lists chats newest first; rename and delete", async () => {
        const titles = page.locator(".sessions .session-title");
        await waitForCount(page.locator(".sessions li"), 2);
        assert.deepEqual(await titles.allInnerTexts(), [
          "show dashboard please",
          "please add 2 and 3",
        ]);
        await page.getByRole("button", { name: 'Rename "please add 2 and 3"' }).click();
        const input = page.getByLabel("Chat title", { exact: true });
        await input.fill("Adding numbers");
        await input.press("Enter");
        await page.getByRole("link", { name: /Adding numbers/ }).waitFor();
        assert.equal((await t.service.sessions.get(sessionId)).title, "Adding numbers");

        // Deleting the open chat goes back to a new one.
        await page.getByRole("link", { name: /Adding numbers/ }).click();
        await page.waitForURL(`${ui.base}/chat/${sessionId}`);
        await page.getByRole("button", { name: 'Delete "Adding numbers"' }).click();
        await page.getByRole("group", { name: 'Delete "Adding numbers"?' })
          .getByRole("button", { name: "Delete" }).click();
        await page.waitForURL(`${ui.base}/`);
        await page.getByRole("button", { name: STARTERS[0] }).waitFor();
        await waitForCount(page.locator(".sessions li"), 1);
        await assert.rejects(t.service.sessions.get(sessionId), /no session/);
      });

      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
