/**
 * `lass eval --replay <dir>`: the config with each tool server that has `<dir>/<id>.cassette.json`
 * replaced by a replay of it, so that evals run with no live server. Never written to disk.
 */
import { join, resolve } from "node:path";

/** Fields of a record that stay with its replay: how Lass treats the server, not how it reaches it. */
const KEPT = ["id", "name", "disabledTools", "approval", "sampling", "roots", "trace", "timeoutMs"];

/** The file a server's cassette is expected in. */
export function cassettePath(dir: string, serverId: string): string {
  return resolve(join(dir, `${serverId}.cassette.json`));
}

/**
 * The stored config with every tool server whose cassette exists in `dir` served from it (at
 * once: `speed: 0`), and the ids of those servers.
 */
export function withCassettes(
  stored: Record<string, unknown>,
  dir: string,
  exists: (path: string) => boolean,
): { stored: Record<string, unknown>; replaced: string[] } {
  const replaced: string[] = [];
  const servers = Array.isArray(stored.mcpServers) ? stored.mcpServers : [];
  const mcpServers = servers.map((record: Record<string, unknown>) => {
    const id = typeof record?.id === "string" ? record.id : undefined;
    const cassette = id && cassettePath(dir, id);
    if (!cassette || !exists(cassette)) return record;
    replaced.push(id);
    const kept = Object.fromEntries(
      KEPT.filter((key) => key in record).map((key) => [key, record[key]]),
    );
    return { ...kept, transport: "replay", cassette, speed: 0 };
  });
  return { stored: { ...stored, mcpServers }, replaced };
}
