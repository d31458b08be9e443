/// <reference lib="dom" />
/**
 * Waiting requests and the keyboard, in Chromium (issue 31, defects 14 and 15): a chat's approval
 * takes the focus, Alt+Shift+W brings one waiting elsewhere, a refused Save focuses the bad field
 * (keyboard only, at 1400×900); on a phone (390×844) an inspector call's question opens the drawer
 * and Submit closes it, "n waiting" opens it from any page, and the events and inspector pages fit
 * with nothing cut or overlapping.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { screenshot, skipBrowser, startUi, watchForProblems, withToken } from "../../_browser.ts";
import { DEMO_LLM, DEMO_SERVER } from "../../_chat.ts";
import type { TestService } from "../../_helpers.ts";

const CONFIG = {
  llms: [DEMO_LLM],
  mcpServers: [DEMO_SERVER],
  workspaces: [
    { id: "w", name: "Open", llmId: "demo", mcpServerIds: ["demo"] },
    { id: "strict", name: "Strict", llmId: "demo", mcpServerIds: ["demo"], requireApproval: true },
  ],
  activeWorkspaceId: "w",
};

/** A short description of the focused element. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    const card = active?.closest("section.interaction")?.getAttribute("aria-label");
    const label = active?.getAttribute("aria-label") ?? active?.id ?? "";
    return `${active?.tagName.toLowerCase()} ${label} "${active?.textContent?.trim() ?? ""}"` +
      (card ? ` in "${card}"` : "");
  });
}

/** Keeps, in the page, each element that takes or loses the focus (shown when a wait fails). */
function logFocus(page: Page): Promise<void> {
  return page.evaluate(() => {
    const log: string[] = [];
    (globalThis as unknown as { focusLog: string[] }).focusLog = log;
    const describe = (target: EventTarget | null) => {
      const element = target as HTMLElement | null;
      return `${element?.tagName?.toLowerCase()}#${element?.id ?? ""} "${
        (element?.textContent ?? "").trim().slice(0, 30)
      }"`;
    };
    const start = performance.now();
    for (const type of ["focusin", "focusout"]) {
      document.addEventListener(type, (event) => {
        log.push(`${Math.round(performance.now() - start)} ms ${type} ${describe(event.target)}`);
      }, true);
    }
  });
}

/** Waits until the focused element matches `expected` (the focus moves after a render). */
async function focusReaches(page: Page, expected: RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  let now = await focused(page);
  while (!expected.test(now)) {
    if (Date.now() > deadline) {
      const log = await page.evaluate(() =>
        (globalThis as unknown as { focusLog?: string[] }).focusLog ?? []
      );
      assert.fail(`the focus stayed on ${now}, not ${expected}; focus changes:\n${log.join("\n")}`);
    }
    await page.waitForTimeout(50);
    now = await focused(page);
  }
}

/** A chat turn in the strict workspace, sent through the API (not shown in the page's chat). */
function strictTurn(t: TestService): Promise<string> {
  return t.call("/api/chat", {
    method: "POST",
    json: {
      workspaceId: "strict",
      messages: [{ role: "user", content: "please add 2 and 3" }],
    },
  }).then((response) => response.text());
}

/**
 * What is cut or too wide: an element reaching past the screen's sides (inside no scroller that
 * keeps it), and text cut by its own box (scrollWidth past clientWidth) among `texts`.
 */
function cutOrTooWide(page: Page, texts: string): Promise<string[]> {
  return page.evaluate((texts) => {
    const problems: string[] = [];
    const clipsX = (el: Element) => /auto|scroll|hidden|clip/.test(getComputedStyle(el).overflowX);
    const describe = (el: Element) => el.outerHTML.slice(0, 100);
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      if (!el.checkVisibility()) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || (box.left >= -1 && box.right <= innerWidth + 1)) continue;
      let kept = false;
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
        if (clipsX(up)) {
          const frame = up.getBoundingClientRect();
          kept = frame.left >= -1 && frame.right <= innerWidth + 1;
          break;
        }
      }
      if (!kept) {
        problems.push(`${Math.round(box.left)}..${Math.round(box.right)}: ${describe(el)}`);
      }
    }
    for (const el of document.querySelectorAll<HTMLElement>(texts)) {
      if (el.checkVisibility() && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`cut (${el.scrollWidth} > ${el.clientWidth}): ${describe(el)}`);
      }
    }
    return problems;
  }, texts);
}

/** Pairs of boxes that overlap within one row, for each row of `rows` and its `parts`. */
function overlaps(page: Page, rows: string, parts: string): Promise<string[]> {
  return page.evaluate(([rows, parts]) => {
    const problems: string[] = [];
    for (const row of document.querySelectorAll(rows)) {
      const boxes = [...row.querySelectorAll<HTMLElement>(parts)]
        .filter((el) => el.checkVisibility())
        .map((el) => ({ el, box: el.getBoundingClientRect() }));
      for (const [i, a] of boxes.entries()) {
        for (const b of boxes.slice(i + 1)) {
          const x = Math.min(a.box.right, b.box.right) - Math.max(a.box.left, b.box.left);
          const y = Math.min(a.box.bottom, b.box.bottom) - Math.max(a.box.top, b.box.top);
          if (x > 1 && y > 1) {
            problems.push(
              `${a.el.className} and ${b.el.className} in ${row.getAttribute("data-type")}`,
            );
          }
        }
      }
    }
    return problems;
  }, [rows, parts]);
}

const EVENT_PARTS = "time, .event-seq, .event-type, .event-summary, .event-run";

Deno.test({
  name:
    "web UI waiting requests: focus on a new approval, Alt+Shift+W, the bad field after Save; on a phone the drawer, 'n waiting', events and inspector fit",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: CONFIG });
    const { t } = ui;
    try {
      await test.step("keyboard: a new approval takes the focus; Enter approves", async () => {
        const page = await ui.page();
        await page.setViewportSize({ width: 1400, height: 900 });
        await page.goto(withToken(ui.base));
        await logFocus(page);
        await page.getByLabel("Workspace", { exact: true }).selectOption("strict");
        // The skip link, then the message box.
        await page.keyboard.press("Tab");
        await page.keyboard.press("Enter");
        await page.keyboard.type("please add 2 and 3");
        await page.keyboard.press("Enter");
        const approval = page.getByRole("region", { name: "Run add (demo)?" });
        await approval.waitFor();
        await focusReaches(page, /^button {2}"Approve" in "Run add \(demo\)\?"$/);
        await page.keyboard.press("Enter");
        await page.locator(".turn-done").waitFor();
        assert.match(await page.locator(".tool-card").innerText(), /Result\s+5/);
        assert.equal(await page.evaluate(() => document.activeElement?.id), "composer");

        // One waiting elsewhere (not this chat's) leaves the typing alone; Alt+Shift+W brings it.
        await page.keyboard.type("half a thought");
        const answered = strictTurn(t);
        const waiting = page.getByRole("button", { name: "1 waiting" });
        await waiting.waitFor();
        assert.equal(await waiting.getAttribute("aria-keyshortcuts"), "Alt+Shift+W");
        assert.equal(await page.evaluate(() => document.activeElement?.id), "composer");
        await page.keyboard.press("Alt+Shift+W");
        await focusReaches(page, /^button {2}"Approve" in "Run add \(demo\)\?"$/);
        assert.equal(
          await page.evaluate(() => !!document.activeElement?.closest("#sidebar")),
          true,
          "the card in the sidebar",
        );
        await page.keyboard.press("Enter");
        assert.match(await answered, /"type":"finish"/);
        await waiting.waitFor({ state: "detached" });
        assert.equal(
          await page.getByLabel("Message", { exact: true }).inputValue(),
          "half a thought",
        );
        await page.context().close();
      });

      await test.step("keyboard: a refused Save puts the focus on the bad field", async () => {
        // Not watched for problems: the refused PUT is a 400 the browser logs.
        const page = await (await ui.context({ watched: false })).newPage();
        await page.goto(withToken(ui.base, "/settings/models/demo"));
        const form = page.locator("form.record-editor");
        const url = form.getByLabel("Base URL");
        await url.focus();
        await page.keyboard.press("ControlOrMeta+A");
        await page.keyboard.type("ftp://example.com/v1");
        await form.getByRole("button", { name: "Save" }).focus();
        await page.keyboard.press("Enter");
        await form.locator('[data-field="baseURL"] .field-error').waitFor();
        // The focus moves once the error is drawn (the next frame).
        const onField = () => url.evaluate((el) => el === document.activeElement);
        for (let waited = 0; !await onField(); waited += 50) {
          assert.ok(waited < 5000, `the focus stayed on ${await focused(page)}`);
          await page.waitForTimeout(50);
        }
        assert.equal(await url.getAttribute("aria-invalid"), "true");
        await page.context().close();
      });

      const phone = await ui.context({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        watched: false,
      });
      const page = await phone.newPage();
      watchForProblems(page, ui.problems);

      await test.step("phone: an inspector call's question opens the drawer; Submit closes it", async () => {
        await t.service.mcp.connect("demo");
        await page.goto(withToken(ui.base, "/inspector/demo"));
        await page.getByRole("navigation", { name: "Tools" })
          .getByRole("button", { name: /^long_report/ }).click();
        const tool = page.getByRole("article", { name: "Tool long_report" });
        await tool.getByRole("button", { name: "Raw JSON" }).click();
        await tool.getByLabel("Arguments (JSON)")
          .fill('{"steps": 4, "delayMs": 100, "ask": true}');
        await tool.getByRole("button", { name: "Call" }).click();
        const form = page.locator("#sidebar").getByRole("region", {
          name: "Input requested (demo)",
        });
        await form.waitFor();
        assert.equal(await page.locator("#sidebar").isVisible(), true, "the drawer opened");
        await focusReaches(page, /in "Input requested \(demo\)"$/);
        await tool.getByRole("status").getByText("waiting for you").waitFor({ state: "attached" });
        assert.deepEqual(await cutOrTooWide(page, ".interaction"), [], "the drawer");
        await screenshot(page, "phone-inspector-question");
        await form.getByLabel("Report title").fill("Phone report");
        await form.getByRole("button", { name: "Submit" }).click();
        await page.locator("#sidebar").waitFor({ state: "hidden" });
        await tool.getByText(/Phone report/).first().waitFor();
      });

      await test.step("phone: the inspector fits, its Tasks list folds, History's rows whole", async () => {
        const tasks = page.getByRole("region", { name: "Tasks" });
        await tasks.locator("summary").waitFor();
        for (const state of ["open", "closed"]) {
          assert.deepEqual(
            await cutOrTooWide(page, ".task-row .tool-name, .running-call"),
            [],
            `Tasks ${state}`,
          );
          await tasks.locator("summary").click();
        }
        assert.equal(
          await tasks.locator("details").evaluate((d) => (d as HTMLDetailsElement).open),
          true,
        );
        // History's rows: the method and the whole subject (a log line, the tool's name).
        await page.getByRole("tab", { name: "History" }).click();
        await page.locator(".timeline-item .subject:not(:empty)").first().waitFor();
        assert.deepEqual(await cutOrTooWide(page, ".timeline-item .subject"), [], "History");
        await screenshot(page, "phone-inspector-tasks");
      });

      await test.step("phone: 'n waiting' opens the drawer from any page, on the request", async () => {
        await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "Events" })
          .click();
        await page.locator(".event-row[data-seq]").first().waitFor();
        const answered = strictTurn(t);
        const waiting = page.getByRole("button", { name: "1 waiting" });
        await waiting.tap();
        const approve = page.locator("#sidebar").getByRole("button", {
          name: "Approve",
          exact: true,
        });
        await approve.waitFor();
        await focusReaches(page, /"Approve" in "Run add \(demo\)\?"$/);
        await approve.tap();
        assert.match(await answered, /"type":"finish"/);
        await page.locator("#sidebar").waitFor({ state: "hidden" });
      });

      await test.step("events: nothing cut or overlapping, at 390 and at 1400 px", async () => {
        await page.locator('.event-row[data-type="chat.finish"]').first().waitFor();
        assert.deepEqual(await cutOrTooWide(page, ".event-summary, .event-type"), []);
        assert.deepEqual(await overlaps(page, ".event-row", EVENT_PARTS), []);
        await screenshot(page, "phone-events");
        await page.setViewportSize({ width: 1400, height: 900 });
        assert.deepEqual(await cutOrTooWide(page, ".event-type"), []);
        assert.deepEqual(await overlaps(page, ".event-row", EVENT_PARTS), []);
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
