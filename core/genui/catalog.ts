/** What Lass knows about a component catalog once it is loaded; no SDK is imported here. */
import type { CatalogSummary, CatalogView } from "../../wire/catalogs.ts";

/** The catalog id of the A2UI v0.9 basic catalog, Lass's standard catalog. */
export const BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";

/** The A2UI protocol version of every message Lass produces. */
export const A2UI_VERSION = "v0.9";

/** The v0.9 common types file the component schemas refer to. */
export const COMMON_TYPES_URL = "https://a2ui.org/specification/v0_9/common_types.json";

/** The most bytes a catalog file or response may have: 2 MiB. */
export const MAX_CATALOG_BYTES = 2 * 1024 * 1024;

/** How long fetching a catalog URL may take. */
export const CATALOG_FETCH_TIMEOUT_MS = 10_000;

/**
 * The validator of one component, from `@a2ui/web_core` (a zod 3 schema), kept opaque here so
 * that this module imports nothing heavy.
 */
export interface ComponentValidator {
  /** The zod schema of the component's properties. */
  // deno-lint-ignore no-explicit-any
  schema: any;
}

/** The validators of a catalog's usable components, by name. */
export type ComponentValidators = ReadonlyMap<string, ComponentValidator>;

/** A loaded catalog with what validation needs. */
export interface LoadedCatalog extends CatalogView {
  /**
   * The validators of the usable components. Only checking a surface needs them, so they may load
   * later than the view: the standard catalog's come from `@a2ui/web_core` on the first call.
   */
  validators(): Promise<ComponentValidators>;
}

/** The public view of a loaded catalog (no validators). */
export function viewOf(catalog: LoadedCatalog): CatalogView {
  const { validators: _, ...view } = catalog;
  return view;
}

/** The common type a property schema refers to (`DynamicString`, ...), if it is one. */
export function commonTypeOf(schema: unknown): string | undefined {
  const ref = (schema as Record<string, unknown> | undefined)?.$ref;
  if (typeof ref !== "string" || !ref.startsWith(COMMON_TYPES_URL)) return undefined;
  return ref.slice(ref.lastIndexOf("/") + 1);
}

/** The bootstrap summary of a loaded catalog. */
export function summaryOf(catalog: CatalogView): CatalogSummary {
  return { id: catalog.id, name: catalog.name, errors: catalog.errors };
}
