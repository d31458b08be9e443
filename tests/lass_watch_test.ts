/** `createLass({watchConfig})`: a program that runs once (the CLI's chat, check, eval) follows no config edits. */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLass } from "../lass.ts";
import type { FileSystem } from "../core/files.ts";
import { denoFileSystem } from "../runtime/deno_fs.ts";
import { RUN_ONCE } from "../cli/options.ts";
import { configWithServers } from "./_helpers.ts";

/** Deno's file access, counting the folders it was asked to watch. */
function countingWatches(): { fs: FileSystem; watched: string[] } {
  const watched: string[] = [];
  const fs: FileSystem = {
    ...denoFileSystem,
    watch: (dir, onChange) => {
      watched.push(dir);
      return denoFileSystem.watch(dir, onChange);
    },
  };
  return { fs, watched };
}

for (
  const [label, options, watches] of [
    ["by default", {}, true],
    ["with the CLI's run-once options", RUN_ONCE, false],
  ] as const
) {
  Deno.test(`createLass watches the config file's folder ${label}: ${watches}`, async () => {
    const dir = await mkdtemp(join(tmpdir(), "lass-watch-"));
    const configPath = join(dir, "service.json");
    await writeFile(configPath, JSON.stringify(configWithServers([])));
    const { fs, watched } = countingWatches();
    const lass = await createLass({ ...options, configPath, dataDir: join(dir, "data"), fs });
    try {
      assert.deepEqual(watched, watches ? [dir] : []);
    } finally {
      await lass.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
}
