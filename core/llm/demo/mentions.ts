/** The demo model's reading of tool names: which offered tools a user's message names, and where. */
import type { LanguageModelV4FunctionTool } from "@ai-sdk/provider";

/** A tool named in the user's message: where its name was first seen. */
export interface Mention {
  tool: LanguageModelV4FunctionTool;
  start: number;
  end: number;
}

/** The offered tools named in the message, in the order they are first mentioned. */
export function findMentions(message: string, tools: LanguageModelV4FunctionTool[]): Mention[] {
  const mentions: Mention[] = [];
  const lower = message.toLowerCase();
  for (const tool of tools) {
    let best: Mention | undefined;
    for (const alias of toolAliases(tool.name)) {
      const match = findAlias(alias, message, lower);
      if (match && (!best || match.index < best.start)) {
        best = { tool, start: match.index, end: match.index + match[0].length };
      }
    }
    if (best) mentions.push(best);
  }
  return mentions.sort((a, b) => a.start - b.start);
}

/** Aliases by tool name: every turn asks for the same few names again. */
const aliasCache = new Map<string, string[]>();
const ALIAS_CACHE_SIZE = 1024;

/** The names a user may use for a tool: full name, the part after the last `__`, and both spaced. */
export function toolAliases(name: string): string[] {
  let aliases = aliasCache.get(name);
  if (aliases) return aliases;
  const short = name.includes("__") ? name.slice(name.lastIndexOf("__") + 2) : name;
  const spaced = (s: string) => s.replace(/[_-]+/g, " ").trim();
  aliases = [...new Set([name, short, spaced(name), spaced(short)])].filter((a) => a.length > 0);
  if (aliasCache.size >= ALIAS_CACHE_SIZE) aliasCache.clear();
  aliasCache.set(name, aliases);
  return aliases;
}

/**
 * Where an alias occurs in a message as {@link aliasPattern} finds it. A Unicode-aware pattern
 * takes long to compile, so none is made when a word of the alias is not in the message.
 */
export function findAlias(
  alias: string,
  message: string,
  lower = message.toLowerCase(),
): RegExpExecArray | null {
  if (!alias.toLowerCase().split(" ").every((word) => lower.includes(word))) return null;
  return aliasPattern(alias).exec(message);
}

/** Compiled alias patterns by flags and alias: every step of every turn looks for the same ones. */
const patternCache = new Map<string, RegExp>();

/**
 * A case-insensitive, whole-word pattern for one alias; spaces match runs of space, `_` or `-`.
 * Shared: a caller of a global (`g`) pattern uses it only through `replace`, which resets it.
 */
export function aliasPattern(alias: string, flags = "iu"): RegExp {
  const key = `${flags} ${alias}`;
  let pattern = patternCache.get(key);
  if (!pattern) {
    const body = alias.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/ /g, "[\\s_-]+");
    pattern = new RegExp(`(?<![\\p{L}\\p{N}_-])${body}(?![\\p{L}\\p{N}_-])`, flags);
    if (patternCache.size >= ALIAS_CACHE_SIZE) patternCache.clear();
    patternCache.set(key, pattern);
  }
  return pattern;
}
