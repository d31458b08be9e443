/**
 * The standard catalog without the A2UI package: its view is read from `schema/standard_catalog.json`
 * (written by `deno task schema` from `@a2ui/web_core`; a test keeps the two equal), so listing it
 * and describing the render tool load nothing heavy. Its validators load with the first surface.
 */
import view from "../../schema/standard_catalog.json" with { type: "json" };
import type { CatalogView } from "../../wire/catalogs.ts";
import type { ComponentValidators, LoadedCatalog } from "./catalog.ts";

/** The standard catalog: the committed view, with validators from `@a2ui/web_core` on demand. */
export const standardCatalog: LoadedCatalog = {
  ...(view as CatalogView),
  validators: standardValidators,
};

/** The validators of the basic catalog, loaded from `@a2ui/web_core` once (`load.ts` caches it). */
async function standardValidators(): Promise<ComponentValidators> {
  const { loadStandardCatalog } = await import("./load.ts");
  return await (await loadStandardCatalog()).validators();
}
