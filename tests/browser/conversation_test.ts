/**
 * What a conversation shows and asks in the browser: markdown, questions, focus, leaving, eval
 * cases. One module graph: Playwright and Lass load once, and one Chromium serves every test (each
 * with contexts of its own). Run one module alone with `deno test -A <its path>`.
 */
import { closeSharedBrowser, openSharedBrowser, skipBrowser } from "../_browser.ts";
import "./chat/markdown.ts";
import "./chat/leave_warning.ts";
import "./chat/waiting_focus.ts";
import "./chat/save_case.ts";
import "./chat/elicitation_form.ts";
import "./chat/interactions.ts";

await openSharedBrowser();

Deno.test({
  name: "conversation: the shared browser closes with no context left open",
  ignore: skipBrowser,
  fn: closeSharedBrowser,
});
