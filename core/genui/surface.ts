/**
 * The render tool's input, checked and expanded: a compact surface (components, data, optional
 * id and title) becomes A2UI v0.9 messages, or a list of problems the model can fix.
 */
import type { SurfaceProblem, SurfaceResult } from "../../wire/genui.ts";
import { A2UI_VERSION } from "./catalog.ts";
import type { OfferedCatalog, UiOffer } from "./offer.ts";
import {
  type CheckedCatalog,
  type Entry,
  isRecord,
  type Json,
  listed,
  pointer,
  type Report,
} from "./_entry.ts";
import { checkProps } from "./_props.ts";
import { checkTree } from "./_tree.ts";
import { SurfaceIds } from "./surface_ids.ts";

/** The most components one surface may have. */
export const MAX_COMPONENTS = 1000;

const TOP_LEVEL = new Set(["surfaceId", "title", "catalogId", "components", "data"]);
const SURFACE_ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Checks a compact surface against an offer and expands it into A2UI v0.9 messages. With
 * `offer.repair`, safe fixes are applied and reported as `repaired` problems; any problem left
 * makes `ok` false and `messages` empty. The chosen catalog's validators load here (the standard
 * catalog's from `@a2ui/web_core`, with the first surface); it never throws.
 */
export async function expandSurface(
  input: unknown,
  offer: UiOffer,
  ids: SurfaceIds = new SurfaceIds(),
): Promise<SurfaceResult> {
  const problems: SurfaceProblem[] = [];
  const repair = offer.repair;
  const report = (code: string, path: string, message: string, repaired = false) => {
    problems.push({ code, path, message, ...(repaired && { repaired: true as const }) });
  };
  const fail = (surfaceId: string): SurfaceResult => ({
    ok: false,
    surfaceId,
    messages: [],
    problems,
  });

  let surface: Json;
  if (Array.isArray(input) && repair) {
    surface = { components: structuredClone(input) };
    report("components-wrapped", "", "a bare list was taken as the components", true);
  } else if (isRecord(input)) surface = structuredClone(input);
  else {
    report("invalid-input", "", "must be an object with a components list");
    return fail("");
  }

  for (const key of Object.keys(surface)) {
    if (TOP_LEVEL.has(key)) continue;
    if (key === "messages" || key === "surface") {
      report(
        "unknown-property",
        pointer(key),
        `is not a field: give components (and data) directly, not A2UI messages`,
      );
      continue;
    }
    report("unknown-property", pointer(key), "is not a field", repair);
    if (repair) delete surface[key];
  }

  let requested: string | undefined;
  if (surface.surfaceId !== undefined) {
    const given = surface.surfaceId;
    if (typeof given === "string" && SURFACE_ID.test(given)) requested = given;
    else if (repair && typeof given === "string" && given.trim() !== "") {
      requested = given.replace(/[^A-Za-z0-9_.:-]+/g, "-").slice(0, 64);
      report("invalid-surface-id", "/surfaceId", `was changed to "${requested}"`, true);
    } else {
      report(
        "invalid-surface-id",
        "/surfaceId",
        "must be 1-64 letters, digits, '_', '-', '.' or ':'",
      );
    }
  }
  let title: string | undefined;
  if (surface.title !== undefined) {
    if (typeof surface.title === "string") title = surface.title.trim() || undefined;
    else report("invalid-value", "/title", "must be a string");
  }
  if (surface.data !== undefined && !isRecord(surface.data)) {
    report("invalid-data", "/data", "must be an object: the surface's initial data model");
  }

  let list = surface.components;
  if (isRecord(list) && repair) {
    list = Object.entries(list).map(([id, value]) =>
      isRecord(value) && value.id === undefined ? { id, ...value } : value
    );
    report("components-listed", "/components", "an object of components was made a list", true);
  }
  if (!Array.isArray(list)) {
    report("invalid-input", "/components", "must be a list of components");
    return fail(requested ?? "");
  }
  if (list.length === 0) {
    report("invalid-input", "/components", "must have at least one component");
    return fail(requested ?? "");
  }
  if (list.length > MAX_COMPONENTS) {
    report("too-many-components", "/components", `has more than ${MAX_COMPONENTS} components`);
    return fail(requested ?? "");
  }

  const entries = readEntries(list, repair, report);
  const offered = chooseCatalog(surface.catalogId, entries, offer, report);
  const catalog = offered && await withValidators(offered, surface.catalogId, report);
  if (catalog) checkProps(entries, catalog, offer, report);
  const ordered = catalog ? checkTree(entries, catalog, offer, report) : undefined;

  if (!ordered || problems.some((problem) => !problem.repaired)) {
    return { ...fail(requested ?? ""), ...(offered && { catalogId: offered.catalog.catalogId }) };
  }
  // Only a surface that is shown takes an id.
  const surfaceId = ids.next(requested);
  const catalogId = catalog!.catalog.catalogId;
  const messages: unknown[] = [
    {
      version: A2UI_VERSION,
      createSurface: { surfaceId, catalogId, ...(offer.theme && { theme: offer.theme }) },
    },
    {
      version: A2UI_VERSION,
      updateComponents: { surfaceId, components: ordered.map((entry) => entry.fields) },
    },
  ];
  if (isRecord(surface.data)) {
    messages.push({
      version: A2UI_VERSION,
      updateDataModel: { surfaceId, path: "/", value: surface.data },
    });
  }
  return {
    ok: true,
    surfaceId,
    catalogId,
    ...(title && { title }),
    messages,
    problems,
  };
}

/** Reads each component's id and type, repairing v0.8 shapes and missing ids. */
function readEntries(list: unknown[], repair: boolean, report: Report): Entry[] {
  const entries: Entry[] = [];
  const seen = new Map<string, number>();
  const taken = new Set(
    list.flatMap((item) => isRecord(item) && typeof item.id === "string" ? [item.id] : []),
  );
  list.forEach((item, index) => {
    const path = pointer("components", index);
    if (!isRecord(item)) {
      report("invalid-component", path, "must be an object with id and component");
      return;
    }
    const fields: Json = { ...item };
    // v0.8 shape: {"component": {"Text": {...}}}
    const wrapper = fields.component;
    if (isRecord(wrapper) && Object.keys(wrapper).length === 1) {
      const [type, props] = Object.entries(wrapper)[0];
      if (repair && isRecord(props)) {
        delete fields.component;
        Object.assign(fields, props, { component: type });
        report(
          "component-unwrapped",
          `${path}/component`,
          `the v0.8 form {"${type}": {...}} was flattened`,
          true,
        );
      }
    }
    const entry: Entry = { index, path, fields, valid: false };
    if (typeof fields.id !== "string" || fields.id === "") {
      if (repair && fields.id === undefined) {
        let n = index + 1;
        while (taken.has(`component-${n}`)) n++;
        fields.id = `component-${n}`;
        taken.add(fields.id as string);
        report("missing-id", `${path}/id`, `was set to "${fields.id}"`, true);
      } else report("missing-id", `${path}/id`, "must be a non-empty string");
    }
    if (typeof fields.id === "string" && fields.id !== "") {
      const first = seen.get(fields.id);
      if (first !== undefined) {
        report(
          "duplicate-id",
          `${path}/id`,
          `"${fields.id}" is already the id of /components/${first}; ids must be unique`,
        );
      } else {
        seen.set(fields.id, index);
        entry.id = fields.id;
      }
    }
    if (typeof fields.component === "string" && fields.component !== "") {
      entry.type = fields.component;
    } else {
      report("invalid-component", `${path}/component`, "must be the component's type name");
    }
    // Reorder so that id and component come first, as in the spec's examples.
    const { id, component, ...props } = fields;
    entry.fields = { id, component, ...props };
    entries.push(entry);
  });
  return entries;
}

/** The catalog the surface uses: the one it names, else the first offering all its types. */
function chooseCatalog(
  requested: unknown,
  entries: Entry[],
  offer: UiOffer,
  report: Report,
): OfferedCatalog | undefined {
  if (requested !== undefined) {
    const found = offer.catalogs.find((offered) =>
      offered.catalog.catalogId === requested || offered.catalog.id === requested
    );
    if (found) return found;
    report(
      "unknown-catalog",
      "/catalogId",
      `must be one of ${listed(offer.catalogs.map((offered) => offered.catalog.catalogId))}`,
    );
    return undefined;
  }
  const types = [...new Set(entries.flatMap((entry) => entry.type ? [entry.type] : []))];
  let best = offer.catalogs[0];
  let bestCount = -1;
  for (const offered of offer.catalogs) {
    const count = types.filter((type) => offered.components.includes(type)).length;
    if (count === types.length) return offered;
    if (count > bestCount) [best, bestCount] = [offered, count];
  }
  return best;
}

/** The chosen catalog with its validators loaded; validators that cannot load are a problem. */
async function withValidators(
  offered: OfferedCatalog,
  requested: unknown,
  report: Report,
): Promise<CheckedCatalog | undefined> {
  try {
    return { ...offered, validators: await offered.catalog.validators() };
  } catch (error) {
    report(
      "unavailable-catalog",
      requested === undefined ? "" : "/catalogId",
      `the catalog ${offered.catalog.catalogId} cannot be loaded: ${(error as Error).message}`,
    );
    return undefined;
  }
}
