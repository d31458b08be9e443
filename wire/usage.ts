/**
 * Token counts and what they cost, as chat chunks, sessions and eval reports carry them, and how
 * they add up (the server, the web UI and the command line share these helpers).
 */

/**
 * Token counts of a step or a whole turn; fields a provider does not report are left out.
 * `inputTokens` includes the cached (`cachedInputTokens`, read from the provider's prompt cache)
 * and cache-write tokens; `outputTokens` includes `reasoningTokens`.
 */
export interface ChatUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
}

/**
 * Where a price comes from: the pinned models.dev catalog (`catalog`), the profile's own
 * `pricing` (`profile`), or the built-in demo model, which costs nothing (`demo`).
 */
export type CostSource = "catalog" | "profile" | "demo";

/** What some tokens cost, in US dollars (rounded to 1e-10). */
export interface ChatCost {
  usd: number;
  source: CostSource;
}

/**
 * The price of a step or a turn: `cost`, or `cost: null` and `costUnknown`, one sentence saying
 * why there is no price (e.g. the catalog does not know the model).
 */
export interface Priced {
  cost: ChatCost | null;
  /** Present exactly when `cost` is null. */
  costUnknown?: string;
}

/** Token counts and their price. */
export interface PricedUsage extends Priced {
  usage: ChatUsage;
}

/**
 * Costs added up: `usd` of every priced part, and how many parts had no price (`unpriced`), with
 * the first of their reasons.
 */
export interface CostTotal {
  usd: number;
  unpriced: number;
  /** Why the first unpriced part had no price. */
  costUnknown?: string;
}

/** An empty total. */
export function noCost(): CostTotal {
  return { usd: 0, unpriced: 0 };
}

/** Rounds dollars to 1e-10, so sums and products print without float noise. */
export function roundUsd(usd: number): number {
  return Math.round(usd * 1e10) / 1e10;
}

/** Adds a priced part (or another total) to a total, in place; returns the total. */
export function addCost(total: CostTotal, part: Priced | CostTotal): CostTotal {
  if ("unpriced" in part) {
    total.usd = roundUsd(total.usd + part.usd);
    total.unpriced += part.unpriced;
  } else if (part.cost) {
    total.usd = roundUsd(total.usd + part.cost.usd);
  } else {
    total.unpriced++;
  }
  if (total.costUnknown === undefined && part.costUnknown !== undefined) {
    total.costUnknown = part.costUnknown;
  }
  return total;
}

const USAGE_FIELDS = [
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "reasoningTokens",
  "cachedInputTokens",
  "cacheWriteTokens",
] as const;

/** Token counts added up field by field; a field no part reports stays absent. */
export function addUsage(parts: ChatUsage[]): ChatUsage {
  const sum: ChatUsage = {};
  for (const part of parts) {
    for (const field of USAGE_FIELDS) {
      const value = part[field];
      if (value !== undefined) sum[field] = (sum[field] ?? 0) + value;
    }
  }
  return sum;
}

/** All tokens of a usage record: `totalTokens`, else input + output. */
export function tokenCount(usage: ChatUsage | undefined): number {
  if (!usage) return 0;
  return usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0);
}

/**
 * Dollars as a person reads them: `$0`, `$0.000042`, `$0.0157`, `$1.27`: two significant digits
 * below a cent, four decimals below a dollar, cents above.
 */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0";
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd >= 0.01) return `$${Number(usd.toFixed(4))}`;
  if (usd >= 0.000001) return `$${Number(usd.toPrecision(2))}`;
  return "<$0.000001";
}

/**
 * A total as words: `$0.0042`, `$0.0042 + 2 unpriced`, `no price` (nothing priced), `-` (no total:
 * a report of an older Lass).
 */
export function costWords(total: CostTotal | undefined, parts: number): string {
  if (!total) return "-";
  if (total.unpriced > 0 && total.unpriced === parts) return "no price";
  const usd = formatUsd(total.usd);
  return total.unpriced > 0 ? `${usd} + ${total.unpriced} unpriced` : usd;
}

/**
 * The price of several priced parts together: their cost added up when every part has one, else
 * `null` with the first reason.
 */
export function addPriced(parts: Priced[]): Priced {
  const unpriced = parts.find((part) => !part.cost);
  if (unpriced || parts.length === 0) {
    return { cost: null, costUnknown: unpriced?.costUnknown ?? "nothing was priced" };
  }
  const usd = parts.reduce((sum, part) => roundUsd(sum + part.cost!.usd), 0);
  return { cost: { usd, source: parts[0].cost!.source } };
}

/** Several priced parts (the steps of a turn) as one: their tokens and their price added up. */
export function sumPriced(parts: PricedUsage[]): PricedUsage {
  return { usage: addUsage(parts.map((part) => part.usage)), ...addPriced(parts) };
}

/** A priced step or turn as words: `$0.0042`, or `no price`. */
export function priceWords(priced: Priced): string {
  return priced.cost ? formatUsd(priced.cost.usd) : "no price";
}
