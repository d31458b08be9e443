/// <reference lib="dom" />
/**
 * Progress and Cancel in Chromium: the chat's tool card shows a moving progress bar and the
 * elapsed time, Cancel stops the call (the card says "cancelled", the turn goes on), a denied
 * approval says "denied"; the inspector shows the same for its own calls.
 */
import assert from "node:assert/strict";
import type { Locator } from "playwright-core";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_SERVER } from "../../_chat.ts";
import { type Json, waitForEvent } from "../../_helpers.ts";
import type { LassEvent } from "../../../wire/events.ts";

const cancelledLog = (event: LassEvent) =>
  event.type === "mcp.log" && /slow_count: cancelled after/.test(String(event.data.message));

/** Waits until the `progress` element's value is at least `value`. */
async function progressReaches(bar: Locator, value: number): Promise<void> {
  await bar.waitFor();
  await bar.page().waitForFunction(
    ([element, wanted]) => (element as HTMLProgressElement).value >= (wanted as number),
    [await bar.elementHandle(), value] as const,
    { timeout: 20_000 },
  ).catch(() => {
    throw new Error(`the progress bar did not reach ${value} within 20 s`);
  });
}

Deno.test({
  name: "web UI chat: the tool card's progress bar moves; Cancel ends the call as cancelled and " +
    "the turn goes on; a denied approval shows denied",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({
      config: chatConfig({
        servers: [{ ...DEMO_SERVER, approval: { tools: { add: "ask" } } }],
        workspace: { llmId: "demo" },
      }),
    });
    const page = await ui.page();
    const { t } = ui;
    try {
      await page.goto(withToken(ui.base));
      const card = page.getByRole("region", { name: "Tool call slow_count on demo" });

      await test.step("progress bar, count and elapsed time while it runs", async () => {
        await page.getByLabel("Message", { exact: true }).fill("slow count 40 steps of 250 ms");
        await page.keyboard.press("Enter");
        const status = card.getByRole("status");
        const bar = status.locator("progress");
        await progressReaches(bar, 1);
        assert.equal(await bar.getAttribute("max"), "40");
        await progressReaches(bar, 3);
        assert.match(await status.innerText(), /\d+ \/ 40/);
        assert.match(await status.innerText(), /Step \d+ of 40/);
        assert.match(await status.locator(".elapsed").innerText(), /^\d+(\.\d)? m?s$/);
        await screenshot(page, "chat-progress");
      });

      await test.step("Cancel: the server stops, the card says cancelled, the turn goes on", async () => {
        const sawCancel = waitForEvent(t, cancelledLog, {
          what: "mcp.log `slow_count: cancelled after …`",
        });
        await card.getByRole("button", { name: "Cancel slow_count" }).click();
        await card.locator(".badge-cancelled").getByText("cancelled", { exact: true }).waitFor();
        await sawCancel;
        await page.locator(".turn-done").waitFor();
        assert.match(
          await page.locator(".turn").last().innerText(),
          /failed with an error: The user cancelled this tool call/,
        );
        assert.equal(await card.locator(".badge-error").count(), 0);
        assert.equal(t.service.runningCalls.size(), 0);
        await screenshot(page, "chat-cancelled");
      });

      await test.step("a denied approval shows denied", async () => {
        await page.getByLabel("Message", { exact: true }).fill("please add 2 and 3");
        await page.keyboard.press("Enter");
        const add = page.getByRole("region", { name: "Tool call add on demo" });
        await add.getByRole("button", { name: "Deny" }).click();
        await add.locator(".badge-denied").getByText("denied", { exact: true }).waitFor();
        await page.locator(".turn-done").nth(1).waitFor();
      });

      await test.step("a reload shows the same endings", async () => {
        await page.reload();
        await card.locator(".badge-cancelled").waitFor();
        await page.getByRole("region", { name: "Tool call add on demo" }).locator(".badge-denied")
          .waitFor();
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name: "web UI inspector: a running call shows progress and the elapsed time; Cancel stops it " +
    "on the server and the panel says cancelled",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig() });
    const page = await ui.page();
    const { t } = ui;
    try {
      await t.service.mcp.connect("demo");
      await page.goto(withToken(ui.base, "/inspector/demo"));
      await page.getByRole("navigation", { name: "Tools" })
        .getByRole("button", { name: /^slow_count/ }).click();
      const tool = page.getByRole("article", { name: "Tool slow_count" });
      await tool.getByRole("button", { name: "Raw JSON" }).click();
      await tool.getByLabel("Arguments (JSON)").fill('{"steps": 40, "delayMs": 250}');
      const sawCancel = waitForEvent(t, cancelledLog, {
        what: "mcp.log `slow_count: cancelled after …`",
        ms: 30_000,
      });
      const ended = waitForEvent(
        t,
        (e) => e.type === "tool.result" && e.data.tool === "slow_count",
        { what: "tool.result of slow_count", ms: 30_000 },
      );
      await tool.getByRole("button", { name: "Call" }).click();
      const running = tool.getByRole("status");
      const bar = running.locator("progress");
      await progressReaches(bar, 1);
      await progressReaches(bar, 3);
      assert.match(await running.innerText(), /Step \d+ of 40/);
      assert.match(await running.locator(".elapsed").innerText(), /^\d+(\.\d)? m?s$/);
      await screenshot(page, "inspector-progress");
      await tool.getByRole("button", { name: "Cancel slow_count" }).click();
      const result = tool.getByRole("region", { name: "Result" });
      await result.locator(".badge-cancelled").getByText("cancelled", { exact: true }).waitFor();
      const [, counted] = /cancelled after (\d+) of 40/.exec(
        String((await sawCancel).data.message),
      ) ?? [];
      assert.ok(Number(counted) < 40, `the call was cut short, not after ${counted} steps`);
      const { data } = await ended;
      assert.equal(data.cancelled, true, `the call's tool.result: ${JSON.stringify(data)}`);
      // The tool can be called again at once.
      await tool.getByRole("button", { name: "Call" }).waitFor();
      assert.equal(await tool.getByRole("button", { name: "Call" }).isEnabled(), true);
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name:
    "web UI inspector: the call form's Timeout ends a call that reports progress at its deadline",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig() });
    const page = await ui.page();
    const { t } = ui;
    try {
      await t.service.mcp.connect("demo");
      await page.goto(withToken(ui.base, "/inspector/demo"));
      await page.getByRole("navigation", { name: "Tools" })
        .getByRole("button", { name: /^slow_count/ }).click();
      const tool = page.getByRole("article", { name: "Tool slow_count" });
      await tool.getByRole("button", { name: "Raw JSON" }).click();
      await tool.getByLabel("Arguments (JSON)").fill('{"steps": 40, "delayMs": 100}');
      await tool.getByLabel("Timeout (s)").fill("0.3");
      await tool.getByRole("button", { name: "Call" }).click();
      const alert = tool.locator(".call-error");
      await alert.getByText(/got no answer within 0\.3 s/).waitFor({ timeout: 20_000 });
      const ended = t.service.events.history().find((e: Json) =>
        e.type === "tool.result" && e.data.tool === "slow_count"
      );
      assert.equal(ended?.data.isError, true);
      assert.ok(
        t.service.events.history().some((e: Json) => e.type === "tool.progress"),
        "the call reported progress before its deadline",
      );
      assert.deepEqual(ui.problems, [
        "console error: Failed to load resource: the server responded with a status of 504 (Gateway Timeout)",
      ]);
    } finally {
      await ui.close();
    }
  },
});
