/**
 * Figures of the chat page, measured and reported (no thresholds here): the JavaScript it loads,
 * gzipped, and its first render in headless Chromium on loopback. Written to
 * `test-artifacts/ui-metrics.json`.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { ARTIFACTS, skipBrowser, startUi, withToken } from "../../_browser.ts";
import { chatConfig } from "../../_chat.ts";
import { buildUi } from "../../../scripts/build_ui.ts";

/** Records when the starter chips (drawn from the bootstrap) first appear. */
const WATCH_CHIPS = `new MutationObserver((_, observer) => {
  if (document.querySelector(".chip")) {
    window.__lassChipsAt = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });`;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1];

Deno.test({
  name: "web UI figures: chat page JavaScript (gzip) and first render in headless Chromium",
  ignore: skipBrowser,
  fn: async () => {
    const { manifest } = await buildUi({ ifStale: true });
    const chatJs = [manifest.entry, ...manifest.preload];
    const gzip = chatJs.reduce((sum, name) => sum + manifest.files[name].gzipBytes, 0);
    const raw = chatJs.reduce((sum, name) => sum + manifest.files[name].bytes, 0);
    const ui = await startUi({ config: chatConfig({ workspace: { starterPrompts: ["hi"] } }) });
    try {
      type Run = { html: number; rendered: number; chips: number; domContentLoaded: number };
      const runs: Run[] = [];
      for (let run = 0; run < 6; run++) {
        // A fresh context each time: empty HTTP cache and sessionStorage, like a first visit.
        const context = await ui.context();
        await context.addInitScript(WATCH_CHIPS);
        const page = await context.newPage();
        await page.goto(withToken(ui.base));
        await page.locator(".chip").waitFor();
        const timing = await page.evaluate(`({
          html: performance.getEntriesByType("navigation")[0].responseEnd,
          rendered: performance.getEntriesByName("lass:rendered")[0].startTime,
          chips: window.__lassChipsAt,
          domContentLoaded: performance.getEntriesByType("navigation")[0].domContentLoadedEventEnd,
        })`) as Run;
        await context.close();
        if (run > 0) runs.push(timing); // The first run warms up the browser process.
      }
      const figures = {
        measuredAt: new Date().toISOString(),
        chatPageJs: { files: chatJs, bytes: raw, gzipBytes: gzip },
        css: manifest.styles.map((name) => ({ name, ...manifest.files[name] })),
        firstRenderMs: {
          runs: runs.length,
          htmlReceived: Math.round(median(runs.map((r) => r.html))),
          domContentLoaded: Math.round(median(runs.map((r) => r.domContentLoaded))),
          appRendered: Math.round(median(runs.map((r) => r.rendered))),
          chatWithConfig: Math.round(median(runs.map((r) => r.chips))),
          chatWithConfigMax: Math.round(Math.max(...runs.map((r) => r.chips))),
        },
      };
      await mkdir(ARTIFACTS, { recursive: true });
      await writeFile(
        new URL("../ui-metrics.json", ARTIFACTS),
        JSON.stringify(figures, null, 2) + "\n",
      );
      console.log(
        `chat page JS: ${(raw / 1024).toFixed(1)} KB, ${(gzip / 1024).toFixed(1)} KB gzip; ` +
          `first render (median of ${runs.length}): app ${figures.firstRenderMs.appRendered} ms, ` +
          `chat with config ${figures.firstRenderMs.chatWithConfig} ms after navigation start`,
      );
      assert.ok(runs.every((r) => r.chips > 0));
      assert.deepEqual(ui.problems, []);
    } finally {
      await ui.close();
    }
  },
});
