/**
 * The web UI's build, checked inside `lass serve` once it listens (no second Deno start): in a
 * source checkout whose `build/ui/` is missing or older than its sources, the UI is built in the
 * background while the API already answers; pages and assets wait for it. A bundle carries its
 * UI, and has no sources beside it to check.
 */

/** The entry of the UI's sources; only a source checkout has it. */
const UI_ENTRY = new URL("../islands/app.tsx", import.meta.url);

/** Whether this Lass runs from a source checkout (not from `dist/lass.js`). */
async function fromSource(): Promise<boolean> {
  if (UI_ENTRY.protocol !== "file:") return false;
  try {
    return (await Deno.stat(UI_ENTRY)).isFile;
  } catch {
    return false;
  }
}

/**
 * Builds the UI when it is stale, quietly; a failure is a warning on stderr (the API works
 * without the UI, and the pages say how to build it).
 */
export async function buildUiIfStale(): Promise<void> {
  if (!await fromSource()) return;
  try {
    // The check first: the builder (and its `node:fs`) loads only for a stale build.
    const { uiIsStale } = await import("../scripts/ui_stale.ts");
    if (!await uiIsStale()) return;
    const { buildUi } = await import("../scripts/build_ui.ts");
    await buildUi({ ifStale: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`lass: could not build the web UI (the API works without it): ${message}`);
  }
}
