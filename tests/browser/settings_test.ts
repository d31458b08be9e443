/**
 * Settings in the browser: models and servers, command lines, conflicts, eras, roots. One module
 * graph: Playwright and Lass load once, and one Chromium serves every test (each with contexts of
 * its own). Run one module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./settings/models_servers.ts";
import "./settings/command.ts";
import "./settings/conflict.ts";
import "./settings/eras.ts";
import "./settings/roots.ts";

await openSharedBrowser();

Deno.test({
  name: "settings: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
