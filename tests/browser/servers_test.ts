/**
 * Tool servers in the browser: sign-in, pinning, progress and cancel, retries. One module graph:
 * Playwright and Lass load once, and one Chromium serves every test (each with contexts of its
 * own). Run one module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./servers/sign_in_debugger.ts";
import "./servers/pinning.ts";
import "./servers/progress_cancel.ts";
import "./servers/server_retry.ts";

await openSharedBrowser();

Deno.test({
  name: "servers: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
