/**
 * Generative UI in the browser: A2UI surfaces and MCP Apps. One module graph: Playwright and Lass
 * load once, and one Chromium serves every test (each with contexts of its own). Run one module
 * alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./genui/a2ui.ts";
import "./genui/mcp_apps.ts";

await openSharedBrowser();

Deno.test({
  name: "genui: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
