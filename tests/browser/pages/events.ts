/** The events page in Chromium: a chat's events, filters, pause, clear, reconnects. */
import assert from "node:assert/strict";
import { screenshot, skipBrowser, startUi, waitForCount, withToken } from "../../_browser.ts";
import { chat, chatConfig, user } from "../../_chat.ts";
import type { TestService } from "../../_helpers.ts";

const CHAT_TYPES = ["chat.start", "tool.call", "tool.result", "chat.finish"];

/** Runs a chat turn that calls the demo `add` tool; answers its run id. */
async function addTurn(t: TestService): Promise<string> {
  const { status, chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
  assert.equal(status, 200);
  assert.ok(chunks.some((chunk) => chunk.type === "tool-result"), "the tool was called");
  return chunks[0].runId;
}

Deno.test({
  name: "web UI events: a chat's events live and from history, filters, pause, clear, reconnects",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: chatConfig({ workspace: { llmId: "demo" } }),
      heartbeatMs: 1000,
    });
    const page = await ui.page();
    page.setDefaultTimeout(10_000);
    const { t } = ui;
    const rows = page.locator(".event-row[data-seq]");
    const row = (type: string, run: string) =>
      page.locator(`.event-row[data-type="${type}"]`).filter({ hasText: `run ${run.slice(0, 8)}` });
    const seqs = async () =>
      (await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-seq"))))
        .map(Number);
    try {
      let first = "";
      let second = "";
      await test.step("a chat turn's events show, from the buffer and live", async () => {
        first = await addTurn(t);
        await page.goto(withToken(ui.base, "/events"));
        for (const type of CHAT_TYPES) await row(type, first).waitFor();
        second = await addTurn(t);
        for (const type of CHAT_TYPES) await row(type, second).waitFor();
        assert.match(await row("tool.call", second).innerText(), /demo › add \{"a":2,"b":3\}/);
        assert.match(await row("tool.result", second).innerText(), /demo › add ok \d+ m?s/);
        await page.getByRole("status").getByText("Live").waitFor();
        // Heartbeats are not rows: they show when the last one came.
        await page.getByText(/^Last heartbeat \d\d:\d\d:\d\d/).waitFor();
        assert.equal(await page.locator('.event-row[data-type="heartbeat"]').count(), 0);
        // A row opens to its JSON.
        await row("chat.finish", second).locator(".event-toggle").click();
        const json = JSON.parse(await row("chat.finish", second).locator("pre").innerText());
        assert.equal(json.data.runId, second);
        await screenshot(page, "events");
      });

      await test.step("clicking a run id filters by it; the type filter takes groups", async () => {
        await row("chat.start", first).getByRole("button", { name: `Show only run ${first}` })
          .click();
        assert.equal(await page.getByLabel("Run", { exact: true }).inputValue(), first);
        await waitForCount(rows, 4);
        assert.deepEqual(
          await rows.evaluateAll((items) => items.map((item) => item.getAttribute("data-type"))),
          [...CHAT_TYPES].reverse(),
        );
        await page.getByLabel("Type", { exact: true }).selectOption("tool.*");
        await waitForCount(rows, 2);
        await page.getByLabel("Run", { exact: true }).fill("");
        await waitForCount(rows, 4);
        assert.match(await page.locator(".events-count").innerText(), /^4 of \d+ events match/);
        await page.getByRole("button", { name: "Reset filters" }).click();
        await page.getByLabel("Server", { exact: true }).selectOption("demo");
        const types = await rows.evaluateAll((items) =>
          items.map((i) => i.getAttribute("data-type"))
        );
        assert.ok(types.every((type) => /^(tool|mcp)\./.test(type!)), types.join());
        await page.getByLabel("Search", { exact: true }).fill("add: 2 + 3");
        await waitForCount(rows, 2); // The demo server's log line of each call.
        await page.getByRole("button", { name: "Reset filters" }).click();
      });

      await test.step("Pause holds new events; Resume shows them", async () => {
        await page.getByRole("button", { name: "Pause" }).click();
        for (const name of ["held-1", "held-2", "held-3"]) {
          const response = await t.call("/api/events/ui", {
            method: "POST",
            json: { type: "ui.action", data: { name } },
          });
          assert.equal(response.status, 200);
          await response.body?.cancel();
        }
        await page.getByText("3 new events held").waitFor();
        assert.equal(await page.locator('.event-row[data-type="ui.action"]').count(), 0);
        await page.getByRole("button", { name: "Resume" }).click();
        await waitForCount(page.locator('.event-row[data-type="ui.action"]'), 3);
        assert.match(await rows.first().innerText(), /ui\.action\s+held-3/);
      });

      await test.step("Clear empties the view; Clear on server empties the buffer", async () => {
        await page.getByRole("button", { name: "Clear", exact: true }).click();
        await page.getByText("No events yet.").waitFor();
        t.service.events.emit("test.after-clear", { note: "kept" });
        await waitForCount(rows, 1);
        await page.getByRole("button", { name: "Clear on server…" }).click();
        await page.getByRole("button", { name: "Yes, clear on server" }).click();
        await page.getByText("No events yet.").waitFor();
        assert.deepEqual(t.service.events.history(), []);
      });

      await test.step("a dropped stream reconnects with since=, retrying while it fails", async () => {
        const marker = t.service.events.emit("test.before-drop", {});
        await page.locator(`.event-row[data-seq="${marker.seq}"]`).waitFor();
        // Reconnects fail until the route is lifted: the page says it is reconnecting, and why.
        const resumes = /\/api\/events\?since=/;
        let refused = 0;
        await page.route(resumes, (route) => {
          refused++;
          return route.abort("internetdisconnected");
        });
        const answered: string[] = [];
        page.on("response", (response) => {
          if (resumes.test(response.url())) answered.push(response.url());
        });
        // More events at once than the buffer holds: Lass drops the stream of every reader.
        for (let i = 0; i < 1100; i++) t.service.events.emit("test.burst", { i });
        const status = page.getByRole("status");
        await status.getByText("Reconnecting…").waitFor();
        await page.locator(".stream-problem").getByText(/cannot be reached/).waitFor();
        const deadline = Date.now() + 10_000;
        while (refused < 3 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.ok(refused >= 3, "the page kept trying");
        await page.unroute(resumes);
        await status.getByText("Live").waitFor({ timeout: 15_000 });
        assert.ok(
          answered.some((url) => url.endsWith(`/api/events?since=${marker.seq}`)),
          answered.join("\n"),
        );
        // The app's own stream resumes the same way; the page's note shows that it resumed
        // after the marker: the events evicted meanwhile are named as a gap.
        const gap = `#${marker.seq + 1}–#${marker.seq + 100}`;
        await page.locator(".stream-note").getByText(`100 events were not received (${gap})`)
          .waitFor();
        const after = t.service.events.emit("test.after-drop", {});
        await page.locator(`.event-row[data-seq="${after.seq}"]`).waitFor();
        const shown = await seqs();
        assert.equal(new Set(shown).size, shown.length, "no event twice");
        assert.equal(shown.length, 500, "at most 500 rows");
        assert.equal(shown[0], after.seq);
        assert.equal(shown[1], after.seq - 1, "the last burst event, once");
        assert.match(await page.locator(".events-count").innerText(), /showing the newest 500/);
      });

      await test.step("typing in Search keeps every key; the rows follow when typing pauses", async () => {
        const search = page.getByLabel("Search");
        await search.pressSequentially("test.after-d", { delay: 5 });
        assert.equal(await search.inputValue(), "test.after-d");
        await page.locator(".events-count").getByText(/^1 of \d+ events match\.$/).waitFor();
        assert.deepEqual(await rows.evaluateAll((items) => items.map((i) => i.dataset.type)), [
          "test.after-drop",
        ]);
        // A chosen option applies at once, with the text typed before.
        await page.getByLabel("Type").selectOption("test.burst");
        await page.getByText("No events match the filters.").waitFor();
        await page.getByRole("button", { name: "Reset filters" }).click();
        await page.locator(".events-count").getByText(/showing the newest 500/).waitFor();
      });

      // The refused reconnects are expected; nothing else may go wrong on the page.
      assert.deepEqual(ui.problems.filter((p) => !/ERR_INTERNET_DISCONNECTED/.test(p)), []);
    } finally {
      await ui.close();
    }
  },
});
