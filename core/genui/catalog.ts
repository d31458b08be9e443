/** What Lass knows about a component catalog once it is loaded; no SDK is imported here. */

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

/** Where a catalog came from. */
export type CatalogSource = "standard" | "path" | "url" | "inline";

/** One component of a catalog, as `GET /api/catalogs` lists it. */
export interface CatalogComponent {
  name: string;
  description?: string;
  /**
   * The JSON Schema of the component's properties (without `id` and `component`), standalone:
   * the A2UI common types appear as `$ref`s to `common_types.json` of v0.9.
   */
  schema: Record<string, unknown>;
}

/** A loaded catalog, as `GET /api/catalogs` and `POST /api/catalogs/preview` answer. */
export interface CatalogView {
  /** The record id; `standard` for the standard catalog. */
  id: string;
  name: string;
  /** The A2UI catalog id (a URI) that `createSurface` names; empty when it could not be read. */
  catalogId: string;
  source: CatalogSource;
  /** The resolved file path or the URL (env references unresolved), for path and url catalogs. */
  location?: string;
  components: CatalogComponent[];
  /** The names of the catalog's functions. */
  functions: string[];
  /** Why the catalog or some of its components cannot be used; the rest still can. */
  errors: string[];
}

/** What bootstrap lists per catalog. */
export interface CatalogSummary {
  id: string;
  name: string;
  errors: string[];
}

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
