/**
 * The inspector's history in the browser: the trace, the proxy, recordings, tasks. One module
 * graph: Playwright and Lass load once, and one Chromium serves every test (each with contexts of
 * its own). Run one module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./inspector/history.ts";
import "./inspector/proxy.ts";
import "./inspector/recordings.ts";
import "./inspector/tasks_list.ts";
import "./inspector/tasks.ts";

await openSharedBrowser();

Deno.test({
  name: "inspector history: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
