/**
 * Chat in the browser: turns, recovery, scrolling, tasks and columns side by side. One module
 * graph: Playwright and Lass load once, and one Chromium serves every test (each with contexts of
 * its own). Run one module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./chat/turns.ts";
import "./chat/recovery.ts";
import "./chat/scroll.ts";
import "./chat/tasks.ts";
import "./chat/compare.ts";

await openSharedBrowser();

Deno.test({
  name: "chat: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
