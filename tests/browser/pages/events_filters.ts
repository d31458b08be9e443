/// <reference lib="dom" />
/** The events page's filters in Chromium: filled on open, and a chat turn's link to its events. */
import assert from "node:assert/strict";
import { skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chat, chatConfig, user } from "../../_chat.ts";

Deno.test({
  name: "web UI events: the Type and Server filters list the buffer's events as the page opens",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    try {
      const { status } = await chat(ui.t, { messages: [user("please add 2 and 3")] });
      assert.equal(status, 200);
      await page.goto(withToken(ui.base, "/events"));
      await page.locator('.event-row[data-type="chat.finish"]').waitFor();
      // Nothing typed anywhere: the selects already offer what the buffer holds.
      const types = page.locator("#events-type option");
      await types.filter({ hasText: /^tool\.call$/ }).waitFor({ state: "attached" });
      const typeValues = await types.evaluateAll((options) =>
        options.map((option) => (option as HTMLOptionElement).value)
      );
      for (const type of ["chat.start", "chat.finish", "tool.call", "tool.result", "chat.*"]) {
        assert.ok(typeValues.includes(type), `the Type filter offers ${type}: ${typeValues}`);
      }
      const servers = page.locator("#events-server option");
      await servers.filter({ hasText: /^demo$/ }).waitFor({ state: "attached" });
      assert.equal(await page.getByLabel("Search").inputValue(), "");
      await page.getByLabel("Type").selectOption("tool.call");
      await waitForCount(page.locator(".event-row[data-seq]"), 1);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name: "web UI events: a chat turn's 'Events of this turn' opens the page filtered by its run",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig({ workspace: { llmId: "demo" } }) });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    try {
      // An earlier run, whose events must not show once filtered.
      const earlier = await chat(ui.t, { messages: [user("please add 1 and 1")] });
      const earlierRun = earlier.chunks[0].runId as string;
      await page.goto(withToken(ui.base));
      await page.getByLabel("Message", { exact: true }).fill("please add 2 and 3");
      await page.getByRole("button", { name: "Send" }).click();
      await page.locator(".turn-done").waitFor();
      const runId = await page.locator(".turn-done").getAttribute("data-run-id");
      assert.ok(runId, "the turn knows its run");
      assert.notEqual(runId, earlierRun);
      await page.locator(".turn-done").getByRole("link", { name: "Events of this turn" }).click();
      await page.waitForURL(`${ui.base}/events?run=${runId}`);
      assert.equal(await page.getByLabel("Run", { exact: true }).inputValue(), runId);
      const rows = page.locator(".event-row[data-seq]");
      await page.locator('.event-row[data-type="chat.finish"]').waitFor();
      const shown = await rows.allInnerTexts();
      assert.ok(shown.length >= 4, `the run's events: ${shown.join(" | ")}`);
      for (const text of shown) assert.match(text, new RegExp(`run ${runId!.slice(0, 8)}`));
      assert.ok(!shown.some((text) => text.includes(earlierRun.slice(0, 8))));
      // Back goes back to the chat.
      await page.goBack();
      await page.locator(".turn-done").waitFor();
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
