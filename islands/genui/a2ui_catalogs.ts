/**
 * The catalogs the browser draws A2UI surfaces with: the basic catalog of `@a2ui/lit` (its
 * widgets, a few adapted to the page in `a2ui_widgets.ts`), and for any other catalog a client copy built from `GET /api/catalogs`: components
 * named like basic ones use the basic widget, others show a placeholder naming the component.
 */
import { basicCatalog } from "@a2ui/lit/v0_9";
import {
  Catalog,
  type ComponentApi,
  type ComponentContext,
  type FunctionImplementation,
} from "@a2ui/web_core/v0_9";
import { bootstrap } from "../state.ts";
import { type CatalogView } from "../../wire/catalogs.ts";
import { listCatalogs } from "../catalogs.ts";
import { WIDGET_TAGS } from "./a2ui_widgets.ts";

/** A component with the custom element that draws it. */
export type DrawableApi = ComponentApi & { tagName: string };

/** A catalog a message processor can draw with: every component has a custom element. */
export type DrawableCatalog = Catalog<DrawableApi, FunctionImplementation>;

/** The A2UI catalog id of the basic catalog (Lass's `standard`). */
export const BASIC_CATALOG_ID = basicCatalog.id;

/** The basic catalog with the widgets this page can show (see `a2ui_widgets.ts`). */
const BASIC: DrawableCatalog = new Catalog(
  basicCatalog.id,
  [...basicCatalog.components.values()].map((component) => ({
    ...component,
    tagName: WIDGET_TAGS[component.name] ?? component.tagName,
  })),
  [...basicCatalog.functions.values()],
);

/** The custom element of components that have no widget in the browser. */
const PLACEHOLDER_TAG = "lass-a2ui-placeholder";

/** Shows the type of a component the browser cannot draw (it is in a custom catalog). */
class PlaceholderElement extends HTMLElement {
  set context(context: ComponentContext) {
    this.setAttribute("part", "placeholder");
    this.setAttribute("role", "note");
    this.textContent = `${context.componentModel.type} (no widget for it in this browser)`;
  }
}

if (!customElements.get(PLACEHOLDER_TAG)) {
  customElements.define(PLACEHOLDER_TAG, PlaceholderElement);
}

let views: { key: unknown; list: Promise<CatalogView[]> } | undefined;
const built = new Map<string, { key: unknown; catalog: DrawableCatalog }>();

/** The catalogs Lass has loaded, read again after the config changed (a new bootstrap). */
function catalogViews(): Promise<CatalogView[]> {
  const key = bootstrap.peek();
  if (!views || views.key !== key) {
    const list = listCatalogs();
    views = { key, list };
    list.catch(() => {
      if (views?.list === list) views = undefined;
    });
  }
  return views.list;
}

/** A client copy of a configured catalog: basic widgets by name, placeholders for the rest. */
function drawableOf(view: CatalogView): DrawableCatalog {
  const schemas = Catalog.fromSchema({
    catalogId: view.catalogId,
    components: Object.fromEntries(view.components.map((c) => [c.name, c.schema])),
  });
  const components = [...schemas.components.values()].map((api) => ({
    ...api,
    tagName: BASIC.components.get(api.name)?.tagName ?? PLACEHOLDER_TAG,
  }));
  return new Catalog(view.catalogId, components, [...BASIC.functions.values()]);
}

/** The catalog ids that the messages' `createSurface` name. */
export function catalogIdsOf(messages: unknown[]): string[] {
  const ids = new Set<string>();
  for (const message of Array.isArray(messages) ? messages : []) {
    const create = (message as { createSurface?: { catalogId?: unknown } } | null)?.createSurface;
    if (typeof create?.catalogId === "string") ids.add(create.catalogId);
  }
  return [...ids];
}

/**
 * The catalogs to draw surfaces of these catalog ids with: at once when only the basic catalog
 * is named, else after reading the other catalogs from Lass. An id Lass does not know is left
 * out (the surface then reports its unknown catalog).
 */
export function catalogsFor(ids: string[]): DrawableCatalog[] | Promise<DrawableCatalog[]> {
  const others = ids.filter((id) => id !== BASIC_CATALOG_ID);
  if (others.length === 0) return [BASIC];
  return catalogViews().then((list) => {
    const key = bootstrap.peek();
    const catalogs = [BASIC];
    for (const id of others) {
      const view = list.find((candidate) => candidate.catalogId === id);
      if (!view) continue;
      let entry = built.get(id);
      if (!entry || entry.key !== key) {
        entry = { key, catalog: drawableOf(view) };
        built.set(id, entry);
      }
      catalogs.push(entry.catalog);
    }
    return catalogs;
  });
}
