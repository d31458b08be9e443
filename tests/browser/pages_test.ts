/**
 * Every page in the browser: the shell, accessibility, phone width. One module graph: Playwright
 * and Lass load once, and one Chromium serves every test (each with contexts of its own). Run one
 * module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./pages/shell.ts";
import "./pages/a11y.ts";
import "./pages/phone.ts";

await openSharedBrowser();

Deno.test({
  name: "pages: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
