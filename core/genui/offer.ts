/** What a workspace's render tool offers: its settings resolved, and the allowed components per catalog. */
import { CONFIG_DEFAULTS } from "../../wire/config/field_defaults.ts";
import type { Workspace } from "../../wire/config/schema.ts";
import type { UiExample } from "../../wire/genui.ts";
import type { LoadedCatalog } from "./catalog.ts";

/** The `generativeUi` object of a workspace, with its defaults. */
type Settings = Exclude<Workspace["generativeUi"], boolean>;

/** A catalog as one workspace offers it: only the allowed components. */
export interface OfferedCatalog {
  catalog: LoadedCatalog;
  /** The allowed component names, in catalog order. */
  components: string[];
}

/** The render tool of one workspace, before it is turned into a tool. */
export interface UiOffer {
  toolName: string;
  /** Catalogs with at least one allowed component: the standard one first, then configured ones. */
  catalogs: OfferedCatalog[];
  /** Names of components that the catalogs have but the workspace does not allow. */
  denied: Set<string>;
  repair: boolean;
  theme?: Record<string, unknown>;
  instructions?: string;
  description?: string;
  examples: UiExample[];
}

/** The settings of a workspace's render tool; `undefined` when `generativeUi` is `false`. */
export function uiSettings(workspace: Workspace): Settings | undefined {
  const setting = workspace.generativeUi;
  if (setting === false) return undefined;
  if (setting === true) {
    return { toolName: CONFIG_DEFAULTS.renderToolName, standard: true, repair: true };
  }
  return setting;
}

/**
 * What a workspace offers from the loaded catalogs: the standard catalog unless `standard` is
 * false, the configured catalogs named in `catalogIds` (all of them when it is absent), each
 * narrowed by `allow` and `deny`. `undefined` when the render tool is off or nothing is left.
 */
export function offerFor(workspace: Workspace, catalogs: LoadedCatalog[]): UiOffer | undefined {
  let byWorkspace = offers.get(catalogs);
  if (!byWorkspace) offers.set(catalogs, byWorkspace = new WeakMap());
  let offer = byWorkspace.get(workspace);
  if (offer === undefined) {
    byWorkspace.set(workspace, offer = buildOffer(workspace, catalogs) ?? null);
  }
  return offer ?? undefined;
}

/**
 * Offers by loaded catalog list and workspace. Both are replaced when they change (a reload, a
 * config write), never edited, so every turn of a workspace shares one offer until then.
 */
const offers = new WeakMap<LoadedCatalog[], WeakMap<Workspace, UiOffer | null>>();

/** Builds what {@link offerFor} returns. */
function buildOffer(workspace: Workspace, catalogs: LoadedCatalog[]): UiOffer | undefined {
  const settings = uiSettings(workspace);
  if (!settings) return undefined;
  const allow = settings.allow && new Set(settings.allow);
  const deny = new Set(settings.deny ?? []);
  const allowed = (name: string) => (!allow || allow.has(name)) && !deny.has(name);
  const chosen = catalogs.filter((catalog) =>
    catalog.source === "standard"
      ? settings.standard
      : settings.catalogIds === undefined || settings.catalogIds.includes(catalog.id)
  );
  const offered: OfferedCatalog[] = [];
  const denied = new Set<string>();
  for (const catalog of chosen) {
    if (!catalog.catalogId) continue;
    const names = catalog.components.map((component) => component.name);
    for (const name of names) if (!allowed(name)) denied.add(name);
    const components = names.filter(allowed);
    if (components.length > 0) offered.push({ catalog, components });
  }
  for (const { components } of offered) for (const name of components) denied.delete(name);
  if (offered.length === 0) return undefined;
  return {
    toolName: settings.toolName,
    catalogs: offered,
    denied,
    repair: settings.repair,
    ...(settings.theme && { theme: settings.theme }),
    ...(settings.instructions && { instructions: settings.instructions }),
    ...(settings.description && { description: settings.description }),
    examples: settings.examples ?? [],
  };
}

/** An offer of every loaded catalog with nothing denied: previews without a workspace. */
export function openOffer(catalogs: LoadedCatalog[], repair = true): UiOffer {
  return {
    toolName: CONFIG_DEFAULTS.renderToolName,
    catalogs: catalogs.filter((catalog) => catalog.catalogId && catalog.components.length > 0)
      .map((catalog) => ({
        catalog,
        components: catalog.components.map((component) => component.name),
      })),
    denied: new Set(),
    repair,
    examples: [],
  };
}
