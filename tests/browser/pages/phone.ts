/// <reference lib="dom" />
/**
 * Every page of the web UI at phone width (390×844) in Chromium: nothing scrolls sideways, every
 * visible control can be brought into view (only the page's own scrollers move, never the
 * document), the sidebar is a drawer, and the chat keeps most of the height.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { screenshot, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig, DEMO_LLM } from "../../_chat.ts";
import { bannerCatalog } from "../../_genui.ts";

const SKILLS = fileURLToPath(new URL("../../fixtures/skills/", import.meta.url));
const PHONE = { width: 390, height: 844 };

/** A config with a record in every settings section. */
function config(): Record<string, unknown> {
  return {
    ...chatConfig({
      workspace: { starterPrompts: ["please add 2 and 3"] },
      // Priced, so the chat shows what its answers cost.
      llms: [{ ...DEMO_LLM, pricing: { inputPerMTok: 3, outputPerMTok: 15 } }],
    }),
    skills: [{ id: "pdf", path: `${SKILLS}pdf-processing` }],
    agents: [{ id: "helper", name: "Helper", protocol: "a2a", url: "http://127.0.0.1:9/" }],
    catalogs: [{ id: "banners", catalog: bannerCatalog() }],
  };
}

/** Pages, and what each shows once it is drawn. */
const PAGES: [path: string, ready: string][] = [
  ["/settings/models", ".records"],
  ["/settings/models/demo", ".record-editor"],
  ["/settings/servers", ".records"],
  ["/settings/servers/demo", ".record-editor"],
  ["/settings/skills", ".records"],
  ["/settings/skills/pdf", ".record-editor"],
  ["/settings/agents", ".records"],
  ["/settings/agents/helper", ".record-editor"],
  ["/settings/catalogs", ".records"],
  ["/settings/catalogs/banners", ".record-editor"],
  ["/settings/workspaces", ".records"],
  ["/settings/workspaces/w", ".record-editor"],
  ["/settings/config", "textarea"],
  ["/inspector", "main h1"],
  ["/events", ".event-row, main h1"],
  ["/evals", "main h1"],
  ["/playground", "main h1"],
];

/**
 * What keeps a visible control out of reach: the document is wider than the screen, or a control,
 * once scrolled into view by its own scrollers, is still (partly) outside the screen, or bringing it
 * into view scrolled the document or a container that clips without scrolling.
 */
function unreachable(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.scrollingElement!;
    if (root.scrollWidth > innerWidth) {
      problems.push(`the document is ${root.scrollWidth} px wide`);
    }
    const controls = document.querySelectorAll<HTMLElement>(
      "button, select, input:not([type=hidden]), textarea, a[href], summary, [role=button], [role=tab]",
    );
    const describe = (el: Element) => el.outerHTML.slice(0, 120);
    for (const control of controls) {
      // The skip link waits above the screen until it has the focus.
      if (control.matches(".skip-link")) continue;
      if (!control.checkVisibility({ visibilityProperty: true })) continue;
      const before = control.getBoundingClientRect();
      if (before.width === 0 && before.height === 0) continue;
      control.scrollIntoView({ block: "nearest", inline: "nearest" });
      const box = control.getBoundingClientRect();
      if (box.left < -1 || box.right > innerWidth + 1) {
        problems.push(`${Math.round(box.left)}..${Math.round(box.right)} px: ${describe(control)}`);
      } else if (box.top < -1 || box.bottom > innerHeight + 1) {
        problems.push(`out of sight below/above: ${describe(control)}`);
      }
    }
    if (root.scrollTop !== 0 || root.scrollLeft !== 0) problems.push("the document scrolled");
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const style = getComputedStyle(el);
      const clips = (overflow: string) => overflow === "hidden" || overflow === "clip";
      if (
        (el.scrollTop !== 0 && clips(style.overflowY)) ||
        (el.scrollLeft !== 0 && clips(style.overflowX))
      ) {
        problems.push(`a clipping container had to scroll: ${describe(el)}`);
        el.scrollTo(0, 0);
      }
    }
    return problems;
  });
}

/** Whether a control is inside the screen as it is, without scrolling anything. */
function inView(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).first().evaluate((el) => {
    const box = el.getBoundingClientRect();
    return box.left >= 0 && box.right <= innerWidth && box.top >= 0 && box.bottom <= innerHeight;
  });
}

/** Goes to `path` in the app, as the nav does, and waits for `ready` and for loading to end. */
async function show(page: Page, path: string, ready: string): Promise<void> {
  await page.evaluate((path) => {
    history.pushState(null, "", path);
    dispatchEvent(new PopStateEvent("popstate"));
  }, path);
  await page.locator(ready).first().waitFor();
  const busy = page.locator(".loading:visible, [aria-busy=true]:visible");
  for (let waited = 0; await busy.count() > 0; waited += 50) {
    assert.ok(waited < 5000, `${path} still loading after 5 s`);
    await page.waitForTimeout(50);
  }
}

Deno.test({
  name: "web UI at phone width: every page fits 390 px, every control is reachable, drawer sidebar",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: config() });
    try {
      const context = await ui.context({ viewport: PHONE, hasTouch: true, watched: false });
      const page = await context.newPage();
      page.on("pageerror", (error) => ui.problems.push(`page error: ${error.message}`));

      await test.step("chat: the message box and Export in view, the messages most of the height", async () => {
        await page.goto(withToken(ui.base));
        await page.getByRole("button", { name: "please add 2 and 3" }).click();
        await page.locator(".turn-done").waitFor();
        await page.waitForURL(/\/chat\/[\w-]+$/);
        assert.deepEqual(await unreachable(page), [], "on the chat");
        assert.ok(await inView(page, "#composer"), "the message box is on the screen");
        // The answer's tokens and cost and the chat's total fit the width.
        assert.match(await page.locator(".turn-done .turn-meta").innerText(), /tokens\s+\$0\.\d+/);
        assert.match(await page.locator(".session-total").innerText(), /tokens, \$0\.\d+$/);
        for (const selector of [".turn-done .turn-meta", ".session-total"]) {
          const box = await page.locator(selector).boundingBox();
          assert.ok(
            box && box.x >= 0 && box.x + box.width <= PHONE.width,
            `${selector}: ${JSON.stringify(box)}`,
          );
        }
        assert.ok(
          await inView(page, ".chat-header [aria-haspopup=dialog]"),
          "Export is on the screen",
        );
        const nav = await page.getByRole("navigation", { name: "Pages" }).getByRole("link")
          .evaluateAll((links) =>
            links.filter((link) => {
              const box = link.getBoundingClientRect();
              return box.left < 0 || box.right > innerWidth;
            }).length
          );
        assert.equal(nav, 0, "every nav link is on the screen");
        const height = await page.locator(".messages").evaluate((el) => el.clientHeight);
        assert.ok(height >= 0.6 * PHONE.height, `the messages get ${height} of ${PHONE.height} px`);
        await screenshot(page, "phone-chat");
      });

      await test.step("the sidebar is a drawer: opened by its button, closed by Escape or a link", async () => {
        const toggle = page.getByRole("button", { name: "Chats", exact: true });
        assert.equal(await toggle.getAttribute("aria-expanded"), "false");
        assert.equal(await page.locator("#sidebar").isVisible(), false, "hidden at first");
        await toggle.click();
        await page.getByRole("button", { name: "New chat" }).waitFor();
        assert.equal(await toggle.getAttribute("aria-expanded"), "true");
        assert.deepEqual(await unreachable(page), [], "in the drawer");
        await screenshot(page, "phone-drawer");
        await page.keyboard.press("Escape");
        await page.locator("#sidebar").waitFor({ state: "hidden" });
        assert.equal(await page.evaluate(() => document.activeElement?.id), "sidebar-toggle");
        // A chat picked in the drawer opens in its place.
        await toggle.click();
        await page.getByRole("button", { name: "New chat" }).click();
        await page.locator("#sidebar").waitFor({ state: "hidden" });
        await page.waitForURL(`${ui.base}/`);
        await toggle.click();
        await page.locator("#sidebar").getByRole("link", { name: /please add 2 and 3/ }).click();
        await page.locator("#sidebar").waitFor({ state: "hidden" });
        await page.locator(".turn-done").waitFor();
      });

      await test.step("the export dialog fits the screen", async () => {
        await page.locator(".chat-header [aria-haspopup=dialog]").click();
        const dialog = page.getByRole("dialog");
        await dialog.locator("pre").first().waitFor();
        assert.deepEqual(await unreachable(page), [], "in the export dialog");
        await page.keyboard.press("Escape");
        await dialog.waitFor({ state: "hidden" });
      });

      for (const [path, ready] of PAGES) {
        await test.step(`${path} fits`, async () => {
          await show(page, path, ready);
          assert.deepEqual(await unreachable(page), [], `on ${path}`);
          if (/\/(w|demo)$|^\/(events|playground|settings\/config)$/.test(path)) {
            await screenshot(page, `phone${path.replaceAll("/", "-")}`);
          }
        });
      }

      await test.step("the inspector with a connected server's tools, prompts and resources", async () => {
        // The chat above connected the demo server.
        await show(page, "/inspector/demo", "[role=tab]");
        for (const tab of ["Tools", "Prompts", "Resources"]) {
          await page.getByRole("tab", { name: new RegExp(`^${tab}`) }).click();
          await page.locator("[role=tabpanel]").first().waitFor();
          assert.deepEqual(await unreachable(page), [], `on the inspector's ${tab}`);
        }
        await screenshot(page, "phone-inspector-demo");
      });
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
