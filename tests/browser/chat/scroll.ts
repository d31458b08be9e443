/// <reference lib="dom" />
/**
 * The chat's scrolling in Chromium: the message list follows an answer to its end, generative UI
 * that grows after the text included; a reopened long chat opens at its end; the document itself
 * never scrolls (only the message list does).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chat, chatConfig, user } from "../../_chat.ts";

/** The demo model answers a request for a form with the render tool's sign-up form. */
const FORM_PROMPT = "show me a sign-up form";

/** How far the message list is from its bottom, and how far the document is scrolled. */
function scrollState(page: Page) {
  return page.evaluate(() => {
    const list = document.querySelector(".messages")!;
    return {
      gap: Math.round(list.scrollHeight - list.scrollTop - list.clientHeight),
      scrollTop: Math.round(list.scrollTop),
      documentTop: document.scrollingElement!.scrollTop,
    };
  });
}

/** Waits until the message list is scrolled to its bottom; fails saying how far it stayed. */
async function waitForBottom(page: Page, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  let state = await scrollState(page);
  while (state.gap > 1) {
    if (Date.now() > deadline) {
      throw new Error(`${what}: the message list stayed ${state.gap} px above its bottom`);
    }
    await page.waitForTimeout(50);
    state = await scrollState(page);
  }
}

/** Whether the bottom of `selector`'s last match is inside the message list's visible part. */
function lastShown(page: Page, selector: string) {
  return page.evaluate((selector) => {
    const list = document.querySelector(".messages")!.getBoundingClientRect();
    const box = [...document.querySelectorAll(selector)].at(-1)!.getBoundingClientRect();
    return box.bottom <= list.bottom + 1 && box.bottom > list.top;
  }, selector);
}

/** The document cannot scroll: nothing overflows it, and scrolling it moves nothing. */
async function assertDocumentStill(page: Page, where: string): Promise<void> {
  const still = await page.evaluate(() => {
    const root = document.scrollingElement!;
    root.scrollTop = 1000;
    return { top: root.scrollTop, height: root.scrollHeight, view: innerHeight };
  });
  assert.equal(still.top, 0, `${where}: the document scrolled (${JSON.stringify(still)})`);
  assert.ok(still.height <= still.view, `${where}: the document overflows (${still.height} px)`);
}

Deno.test({
  name: "web UI chat scrolling: follows generative UI to the end, reopens at the end, page fixed",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: chatConfig({ servers: [] }) });
    const page = await ui.page();
    const { t } = ui;
    try {
      await test.step("a reopened long chat opens at its end, its last surface in view", async () => {
        // A long stored chat whose last turn draws a form (the renderer loads after the text).
        for (let i = 1; i <= 14; i++) {
          const turn = await chat(t, {
            workspaceId: "w",
            sessionId: "long",
            messages: [user(`message number ${i}: tell me something`)],
          });
          assert.equal(turn.status, 200);
        }
        const form = await chat(t, {
          workspaceId: "w",
          sessionId: "long",
          messages: [user(FORM_PROMPT)],
        });
        assert.ok(form.chunks.some((chunk) => chunk.type === "tool-result"), "the form was drawn");
        await page.goto(withToken(ui.base, "/chat/long"));
        await page.getByRole("region", { name: "UI: Sign up" })
          .getByRole("button", { name: "Create account" }).waitFor();
        await waitForBottom(page, "the reopened chat");
        assert.ok(await lastShown(page, ".turn"), "the last turn's end is in view");
        assert.ok((await scrollState(page)).scrollTop > 0, "the chat is longer than the screen");
        await assertDocumentStill(page, "the reopened chat");
      });

      await test.step("a turn whose generative UI grows after its text ends scrolled to the bottom", async () => {
        const message = page.getByLabel("Message", { exact: true });
        await message.fill(FORM_PROMPT);
        await message.press("Enter");
        await page.locator(".turn").nth(15).locator(".turn-meta").waitFor();
        await page.locator(".turn").nth(15).getByRole("button", { name: "Create account" })
          .waitFor();
        await waitForBottom(page, "after the generative-UI turn");
        assert.ok(await lastShown(page, ".turn-meta"), "the last turn's footer is in view");
        await assertDocumentStill(page, "after the generative-UI turn");
        await screenshot(page, "chat-scrolled-to-end");
      });

      await test.step("a reader who scrolled up stays there; sending goes back to the end", async () => {
        const list = page.locator(".messages");
        const box = (await list.boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await page.mouse.wheel(0, -300);
        const deadline = Date.now() + 5000;
        while ((await scrollState(page)).gap < 250) {
          assert.ok(Date.now() < deadline, "the wheel scrolled the message list up");
          await page.waitForTimeout(50);
        }
        const before = (await scrollState(page)).scrollTop;
        // Content grows below the reader (a tool card's raw exchange opens): the list stays put.
        await list.evaluate(async (element) => {
          const raws = element.querySelectorAll<HTMLDetailsElement>("details.raw");
          raws[raws.length - 1].open = true;
          await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
        });
        assert.equal((await scrollState(page)).scrollTop, before, "the list did not move");
        const message = page.getByLabel("Message", { exact: true });
        await message.fill("hello again");
        await message.press("Enter");
        await page.locator(".turn").nth(16).locator(".turn-meta").waitFor();
        await waitForBottom(page, "after sending from higher up");
        await assertDocumentStill(page, "after sending from higher up");
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});

Deno.test({
  name:
    "web UI chat scrolling: a reader scrolled up while an answer arrives gets Jump to the latest",
  ignore: skipBrowser,
  fn: async () => {
    const ui = await startUi({ config: chatConfig() });
    const page = await ui.page();
    const { t } = ui;
    try {
      for (let i = 1; i <= 10; i++) {
        const turn = await chat(t, {
          workspaceId: "w",
          sessionId: "jump",
          messages: [user(`message number ${i}: tell me something`)],
        });
        assert.equal(turn.status, 200);
      }
      await page.goto(withToken(ui.base, "/chat/jump"));
      await page.locator(".turn").nth(9).waitFor();
      await waitForBottom(page, "the opened chat");
      const jump = page.getByRole("button", { name: "Jump to the latest" });
      assert.equal(await jump.count(), 0, "no button at the end of the chat");

      // A slow tool call keeps the turn going while the reader scrolls up.
      const message = page.getByLabel("Message", { exact: true });
      await message.fill("slow count 12 steps of 250 ms");
      await message.press("Enter");
      const turn = page.locator(".turn").nth(10);
      await turn.getByRole("region", { name: "Tool call slow_count on demo" }).waitFor();
      const list = page.locator(".messages");
      const box = (await list.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -400);
      const deadline = Date.now() + 5000;
      while ((await scrollState(page)).gap < 250) {
        assert.ok(Date.now() < deadline, "the wheel scrolled the message list up");
        await page.waitForTimeout(50);
      }
      // The answer ends below the reader: the list stays, the button offers the way down.
      await turn.locator(".turn-meta").waitFor({ timeout: 20_000 });
      await jump.waitFor();
      assert.ok((await scrollState(page)).gap >= 250, "the list stayed where the reader was");
      await screenshot(page, "chat-jump-to-latest");
      await jump.click();
      await waitForBottom(page, "after Jump to the latest");
      assert.ok(await lastShown(page, ".turn-meta"), "the last turn's footer is in view");
      await jump.waitFor({ state: "detached" });
      await assertDocumentStill(page, "after Jump to the latest");
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
