/** Token counts as the AI SDK reports them, turned into Lass's `ChatUsage`. */
import type { LanguageModelUsage } from "ai";
import type { ChatUsage } from "../../wire/usage.ts";

/** The AI SDK's usage as the chunks show it: plain counts, no provider extras. */
export function usageOf(usage: LanguageModelUsage | undefined): ChatUsage {
  if (!usage) return {};
  const shown: ChatUsage = {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    totalTokens: usage.totalTokens,
    reasoningTokens: usage.outputTokenDetails?.reasoningTokens,
    cachedInputTokens: usage.inputTokenDetails?.cacheReadTokens,
    cacheWriteTokens: usage.inputTokenDetails?.cacheWriteTokens,
  };
  for (const key of Object.keys(shown) as (keyof ChatUsage)[]) {
    if (shown[key] === undefined) delete shown[key];
  }
  return shown;
}
