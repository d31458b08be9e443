/** Typed calls of the catalog routes: `GET /api/catalogs` and `POST /api/catalogs/preview`. */
import { api } from "../state.ts";

/** A loaded catalog, as the catalog routes answer it (see docs/genui.md). */
export interface CatalogView {
  /** The record id; `standard` for the standard catalog. */
  id: string;
  name: string;
  /** The A2UI catalog id (a URI); empty when it could not be read. */
  catalogId: string;
  source: "standard" | "path" | "url" | "inline";
  /** The resolved file path or the URL, for path and url catalogs. */
  location?: string;
  components: { name: string; description?: string; schema: Record<string, unknown> }[];
  functions: string[];
  errors: string[];
}

/** The id of the built-in standard catalog. */
export const STANDARD_CATALOG = "standard";

/** Every catalog, the standard one first; `reload` reads files and URLs again. */
export async function listCatalogs(reload = false): Promise<CatalogView[]> {
  const answer = await api().json<{ catalogs: CatalogView[] }>(
    "GET",
    `/api/catalogs${reload ? "?reload=1" : ""}`,
  );
  return answer.catalogs;
}

/** Loads a `catalogs[]` record (its id may be missing) without saving it. */
export function previewCatalog(catalog: Record<string, unknown>): Promise<CatalogView> {
  return api().json<CatalogView>("POST", "/api/catalogs/preview", { catalog });
}
