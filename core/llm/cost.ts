/**
 * What a model's tokens cost: the profile's own `pricing`, else the catalog's price of its model;
 * the built-in demo model costs nothing. Chat (`finish` and `step` chunks), sessions and evals
 * price their usage here.
 */
import { DEMO_MARKER } from "../config/defaults.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import { type ChatUsage, type CostSource, type Priced, roundUsd } from "../../wire/usage.ts";
import { catalogPrice, type Price } from "./price_catalog.ts";

/** How a turn's tokens are priced: a price and where it comes from, or why there is none. */
export type Pricing = { price: Price; source: CostSource } | { reason: string };

const FREE: Price = { inputPerMTok: 0, outputPerMTok: 0 };

/** Why a remote agent's turn has no price. */
export const AGENT_UNPRICED: Pricing = {
  reason: "a remote agent's turn has no price in Lass (it reports no model and no prices)",
};

/**
 * A profile's pricing: its `pricing` field wins; the demo model is free; else the catalog's price
 * (which loads the catalog on first use). Never throws.
 */
export async function pricingOf(profile: LlmProfile): Promise<Pricing> {
  if (profile.pricing) return { price: profile.pricing, source: "profile" };
  if (profile.provider === "compatible-api" && profile.baseURL === DEMO_MARKER) {
    return { price: FREE, source: "demo" };
  }
  const found = await catalogPrice(profile.provider, profile.model);
  return "price" in found ? { price: found.price, source: "catalog" } : found;
}

/**
 * What `usage` costs at `pricing`. Cached input tokens are billed at the cached price and
 * cache writes at the cache-write price (each the input price when there is none); reasoning
 * tokens are output tokens unless the price lists them apart. Usage with neither input nor output
 * counts has no price.
 */
export function costAt(pricing: Pricing, usage: ChatUsage): Priced {
  if ("reason" in pricing) return { cost: null, costUnknown: pricing.reason };
  if (usage.inputTokens === undefined && usage.outputTokens === undefined) {
    return { cost: null, costUnknown: "the provider reported no token counts" };
  }
  const { price } = pricing;
  const input = usage.inputTokens ?? 0;
  const cached = Math.min(usage.cachedInputTokens ?? 0, input);
  const written = Math.min(usage.cacheWriteTokens ?? 0, input - cached);
  const output = usage.outputTokens ?? 0;
  const reasoning = price.reasoningPerMTok === undefined
    ? 0
    : Math.min(usage.reasoningTokens ?? 0, output);
  const perToken = (input - cached - written) * price.inputPerMTok +
    cached * (price.cachedInputPerMTok ?? price.inputPerMTok) +
    written * (price.cacheWritePerMTok ?? price.inputPerMTok) +
    (output - reasoning) * price.outputPerMTok +
    reasoning * (price.reasoningPerMTok ?? price.outputPerMTok);
  return { cost: { usd: roundUsd(perToken / 1_000_000), source: pricing.source } };
}

/**
 * What `usage` of a profile's model costs: `{cost: {usd, source}}`, or `{cost: null,
 * costUnknown}` with the reason. The one entry point for anything that prices a turn.
 */
export async function costOf(profile: LlmProfile, usage: ChatUsage): Promise<Priced> {
  return costAt(await pricingOf(profile), usage);
}
