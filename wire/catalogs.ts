/**
 * `GET /api/catalogs` and `POST /api/catalogs/preview`: the server's types, re-exported as types
 * only, so a browser bundle never contains server code.
 */
export type { CatalogComponent, CatalogSource, CatalogView } from "../core/genui/catalog.ts";
