/** Typed call of `POST /api/catalogs/preview` (the list is in `islands/catalogs.ts`). */
import type { CatalogView } from "../../wire/catalogs.ts";
import { api } from "../state.ts";
import { type RecordDraft, withoutId } from "./form.tsx";

/** Loads a `catalogs[]` record (saved or a draft) without saving it. */
export function previewCatalog(catalog: RecordDraft): Promise<CatalogView> {
  return api().json<CatalogView>("POST", "/api/catalogs/preview", { catalog: withoutId(catalog) });
}
