/**
 * The inspector in the browser: lists, controls and their state, re-runs, the workbench. One module
 * graph: Playwright and Lass load once, and one Chromium serves every test (each with contexts of
 * its own). Run one module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./inspector/lists.ts";
import "./inspector/control_state.ts";
import "./inspector/controls.ts";
import "./inspector/rerun.ts";
import "./inspector/workbench.ts";

await openSharedBrowser();

Deno.test({
  name: "inspector: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
