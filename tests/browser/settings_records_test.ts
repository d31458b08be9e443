/**
 * Settings in the browser: the other records, polish, the registry. One module graph: Playwright
 * and Lass load once, and one Chromium serves every test (each with contexts of its own). Run one
 * module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./settings/polish.ts";
import "./settings/records.ts";
import "./settings/registry.ts";

await openSharedBrowser();

Deno.test({
  name: "settings records: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
