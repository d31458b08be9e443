/** The catalog list (`GET /api/catalogs`), shared by the settings and the A2UI views. */
import type { CatalogView } from "../wire/catalogs.ts";
import { api } from "./state.ts";

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
