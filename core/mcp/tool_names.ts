/** The names the model sees for tool-server tools: `<serverId>__<tool>`, at most 64 safe characters. */

const MAX_LENGTH = 64;
const SAFE = /[^A-Za-z0-9_-]/g;

/** A short, stable hash (FNV-1a, 32 bits, hex) that keeps shortened names unique. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/**
 * The model-visible name of a server's tool. Characters that model APIs refuse become `_`, and
 * a name that had to change or is longer than 64 characters gets a stable hash suffix.
 */
export function modelToolName(serverId: string, tool: string): string {
  const full = `${serverId}__${tool}`;
  const safe = full.replace(SAFE, "_");
  if (safe === full && safe.length <= MAX_LENGTH) return safe;
  const suffix = `_${shortHash(full)}`;
  return safe.slice(0, MAX_LENGTH - suffix.length) + suffix;
}
