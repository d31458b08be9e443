/**
 * Events, metrics, evals and relative times in the browser. One module graph: Playwright and Lass
 * load once, and one Chromium serves every test (each with contexts of its own). Run one module
 * alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./pages/events.ts";
import "./pages/events_filters.ts";
import "./pages/metrics.ts";
import "./pages/evals.ts";
import "./pages/relative_times.ts";

await openSharedBrowser();

Deno.test({
  name: "events: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
