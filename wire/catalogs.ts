/**
 * `GET /api/catalogs` and `POST /api/catalogs/preview`: the component catalogs as the server loaded
 * them, shared by the server and the UI.
 */

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
