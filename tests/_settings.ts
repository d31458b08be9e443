/** Helpers of the settings pages' browser tests: the stored config and the open editor. */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import type { Json, TestService } from "./_helpers.ts";

/** The stored config, parsed from the file. */
export async function fileConfig(t: TestService): Promise<Json> {
  return JSON.parse(await readFile(t.configPath, "utf8"));
}

/** Waits until the stored config passes `test` (10 s at most), and returns it. */
export async function configWhere(t: TestService, test: (config: Json) => boolean): Promise<Json> {
  const deadline = Date.now() + 10_000;
  while (true) {
    const current = await fileConfig(t);
    if (test(current)) return current;
    if (Date.now() > deadline) {
      throw new Error(`the config never matched: ${JSON.stringify(current)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The editor form of the record being edited. */
export function editor(page: Page) {
  return page.locator("form.record-editor");
}

/** The error text shown at field `name` of the editor. */
export function fieldError(page: Page, name: string) {
  return editor(page).locator(`[data-field="${name}"] .field-error`);
}
