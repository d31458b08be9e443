/**
 * Every page of the web UI in Chromium, light and dark: each visible control has an accessible
 * name, Tab moves through the page's controls, and no page has errors or CSP violations.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";

/** Pages and what each shows once it is drawn. */
const PAGES: [path: string, ready: string][] = [
  ["/", "#composer"],
  ["/settings/models", ".records"],
  ["/settings/models/new", ".record-editor"],
  ["/settings/servers", ".records"],
  ["/settings/servers/new", ".record-editor"],
  ["/settings/skills/new", ".record-editor"],
  ["/settings/agents/new", ".record-editor"],
  ["/settings/catalogs/new", ".record-editor"],
  ["/settings/workspaces/w", ".record-editor"],
  ["/settings/config", "textarea"],
  ["/inspector", "main h1"],
  ["/inspector/demo", "main h1"],
  ["/events", "main h1"],
  ["/evals", "main h1"],
  ["/playground", "main h1"],
];

/**
 * Visible controls without an accessible name: `aria-label`, `aria-labelledby`, a `<label>`, a
 * title, or (buttons, links, summaries) their text or an image's alt.
 */
const UNNAMED = `[...document.querySelectorAll(
  "button, select, input:not([type=hidden]), textarea, a[href], summary, [role=button], [role=tab]")]
  .filter((el) => el.checkVisibility())
  .filter((el) => {
    const byIds = (el.getAttribute("aria-labelledby") || "").split(/\\s+/)
      .map((id) => document.getElementById(id)?.textContent || "").join("");
    const name = el.getAttribute("aria-label") || byIds || el.title ||
      [...(el.labels || [])].map((label) => label.textContent).join("") ||
      (["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) ? "" : el.textContent) ||
      [...el.querySelectorAll("img[alt]")].map((img) => img.alt).join("");
    return !name || !name.trim();
  })
  .map((el) => el.outerHTML.slice(0, 160))`;

/**
 * Presses Tab `count` times; where the focus went each time, and whether it was in `main`. The
 * page notes each stop itself when the key comes up (the focus has moved by then), so the presses
 * need no round trip to the browser each.
 */
async function tabStops(page: Page, count: number): Promise<{ name: string; inMain: boolean }[]> {
  await page.evaluate(`(() => {
    const stops = globalThis.__tabStops = [];
    globalThis.__noteTabStop ??= (event) => {
      if (event.key !== "Tab") return;
      const host = document.activeElement;
      if (!host || host === document.body) return globalThis.__tabStops.push({ name: "", inMain: false });
      let el = host;
      while (el.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      globalThis.__tabStops.push({
        name: el.tagName + ":" + (el.getAttribute("aria-label") || el.textContent || el.id || "")
          .trim().slice(0, 40),
        inMain: Boolean(host.closest("main")),
      });
    };
    addEventListener("keyup", globalThis.__noteTabStop, true);
  })()`);
  // The presses go to the browser at once: it handles input events in order, one after the other.
  const cdp = await page.context().newCDPSession(page);
  const tab = { key: "Tab", code: "Tab", windowsVirtualKeyCode: 9, nativeVirtualKeyCode: 9 };
  await Promise.all(
    Array.from({ length: count }, () => [
      cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", ...tab }),
      cdp.send("Input.dispatchKeyEvent", { type: "keyUp", ...tab }),
    ]).flat(),
  );
  await cdp.detach();
  const stops = await page.evaluate(`(() => {
    removeEventListener("keyup", globalThis.__noteTabStop, true);
    return globalThis.__tabStops;
  })()`) as { name: string; inMain: boolean }[];
  // A key that came up in a frame is not seen here: say so rather than judge fewer stops.
  assert.equal(stops.length, count, `${count - stops.length} Tab presses went to a frame`);
  return stops;
}

Deno.test({
  name:
    "web UI accessibility: every page's controls are named and reachable by Tab, light and dark",
  ignore: skipBrowser,
  fn: async (test) => {
    const ui = await startUi({ config: chatConfig({ workspace: { starterPrompts: ["hi"] } }) });
    try {
      for (const colorScheme of ["light", "dark"] as const) {
        await test.step(`${colorScheme}: every page`, async () => {
          const page = await ui.page({ colorScheme });
          await page.goto(withToken(ui.base));
          await page.locator("#composer").waitFor();
          for (const [path, ready] of PAGES) {
            // In-app navigation, as a person moves between pages (a reload is tested elsewhere).
            await page.evaluate(`history.pushState(null, "", ${JSON.stringify(path)});
              dispatchEvent(new PopStateEvent("popstate"))`);
            await page.locator(ready).first().waitFor();
            // Parts that load on their own (lists, previews) have settled.
            const busy = page.locator(".loading:visible, [aria-busy=true]:visible");
            for (let waited = 0; await busy.count() > 0; waited += 50) {
              assert.ok(
                waited < 5000,
                `still loading on ${path}: ${await busy.first().evaluate(
                  (el: { outerHTML: string }) => el.outerHTML.slice(0, 200),
                )}`,
              );
              await page.waitForTimeout(50);
            }
            assert.deepEqual(await page.evaluate(UNNAMED), [], `unnamed controls on ${path}`);
            await page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)");
            await page.locator(".skip-link").focus();
            await page.evaluate("document.activeElement?.blur()");
            // From the top of the page, Tab passes the shell and reaches the page's own controls.
            const stops = await tabStops(page, 24);
            const trail = stops.map((stop) => stop.name).join(" | ");
            assert.ok(stops.some((stop) => stop.inMain), `Tab never enters ${path}: ${trail}`);
            assert.ok(
              stops.every((stop, i) =>
                i === 0 || stop.name === "" || stop.name !== stops[i - 1].name
              ),
              `the focus sticks on ${path}: ${trail}`,
            );
          }
        });
      }
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
