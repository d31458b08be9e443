/** The exact npm versions that exported code pins, stated in its header and in the export's `dependencies`. */

/**
 * Pinned versions of every package an export may import. The AI SDK ones are the versions Lass
 * itself runs (deno.json); the LangChain ones were type-checked together with `@langchain/core`.
 */
export const PINNED_VERSIONS = {
  "ai": "7.0.173",
  "@ai-sdk/mcp": "2.0.99",
  "@ai-sdk/openai": "4.0.118",
  "@ai-sdk/anthropic": "4.0.105",
  "@ai-sdk/google": "4.0.121",
  "@ai-sdk/azure": "4.0.85",
  "@ai-sdk/openai-compatible": "3.0.92",
  "ollama-ai-provider-v2": "4.0.1",
  "zod": "4.6.7",
  "langchain": "1.5.14",
  "@langchain/core": "1.4.0",
  "@langchain/langgraph": "1.7.3",
  "@langchain/mcp-adapters": "1.1.4",
  "@langchain/openai": "1.6.0",
  "@langchain/anthropic": "1.5.11",
  "@langchain/google-genai": "2.3.2",
  "@langchain/ollama": "1.3.0",
} as const;

/** A package an export may import. */
export type PinnedPackage = keyof typeof PINNED_VERSIONS;

/** The packages as `{name: version}`, in the order given. */
export function pinned(names: readonly PinnedPackage[]): Record<string, string> {
  return Object.fromEntries([...new Set(names)].map((name) => [name, PINNED_VERSIONS[name]]));
}
