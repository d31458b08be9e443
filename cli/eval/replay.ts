/**
 * `lass eval --replay <dir>`: the config file as Lass reads it, with the tool servers that have a
 * cassette in `<dir>` replayed from it; the file on disk is never changed.
 */
import { resolve } from "node:path";
import type { FileSystem } from "../../core/files.ts";
import type { ServiceConfig } from "../../wire/config/schema.ts";
import { denoFileSystem } from "../../runtime/deno_fs.ts";
import { CliError } from "../errors.ts";

/** A file system whose config file reads with replays in, and the ids of the replayed servers. */
export async function replayFileSystem(
  flags: { config?: string; "data-dir"?: string },
  dir: string,
): Promise<{ fs: FileSystem; replaced: string[] }> {
  if (!denoFileSystem.exists(dir)) throw new CliError(`--replay: no folder ${dir}`);
  const [{ locateFiles }, { withCassettes }] = await Promise.all([
    import("../../lass.ts"),
    import("../../core/mcp/recordings/replay_config.ts"),
  ]);
  const { configPath } = await locateFiles({
    configPath: flags.config,
    dataDir: flags["data-dir"],
    env: (name) => Deno.env.get(name),
    cwd: Deno.cwd(),
    fs: denoFileSystem,
  });
  const text = await denoFileSystem.readText(configPath);
  if (text === undefined) {
    throw new CliError(`--replay needs a config file; ${configPath} is missing`);
  }
  let stored: Record<string, unknown>;
  try {
    stored = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${configPath} is not JSON: ${(error as Error).message}`, 1);
  }
  const replayed = withCassettes(stored, dir, denoFileSystem.exists);
  const replayedText = JSON.stringify(replayed.stored, null, 2) + "\n";
  const target = resolve(configPath);
  return {
    fs: {
      ...denoFileSystem,
      readText: (path) =>
        resolve(path) === target ? Promise.resolve(replayedText) : denoFileSystem.readText(path),
    },
    replaced: replayed.replaced,
  };
}

/** A usage error naming each tool server of the workspace that has no cassette in `dir`. */
export function checkReplayed(
  config: ServiceConfig,
  workspaceId: string | undefined,
  replaced: readonly string[],
  dir: string,
): void {
  const workspace = config.workspaces.find((candidate) =>
    candidate.id === (workspaceId ?? config.activeWorkspaceId)
  );
  const missing = (workspace?.mcpServerIds ?? []).filter((id) => !replaced.includes(id));
  if (missing.length === 0) return;
  throw new CliError(
    `--replay: no cassette for ${
      missing.map((id) => `${id} (${resolve(dir, `${id}.cassette.json`)})`).join(", ")
    }`,
  );
}
