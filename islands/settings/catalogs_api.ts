/** Typed calls of the catalog routes: `GET /api/catalogs` and `POST /api/catalogs/preview`. */
import type { CatalogView } from "../../wire/catalogs.ts";
import { api } from "../state.ts";
import { type RecordDraft, withoutId } from "./form.tsx";

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

/** Loads a `catalogs[]` record (saved or a draft) without saving it. */
export function previewCatalog(catalog: RecordDraft): Promise<CatalogView> {
  return api().json<CatalogView>("POST", "/api/catalogs/preview", { catalog: withoutId(catalog) });
}
