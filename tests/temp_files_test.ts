/** Temp files of atomic writes: created 0600, and removed at the next start when a crash left them. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FileSystem, isTempFileName, writeFileAtomic } from "../core/files.ts";
import { nodeFileSystem } from "../core/files_node.ts";
import { openService } from "../core/service.ts";
import { denoFileSystem } from "../runtime/deno_fs.ts";

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "lass-temp-"));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A file system on which a write stops right after its temp file is written, as in a kill -9. */
function crashingFs(base: FileSystem, seen: { path: string; mode: number }[]): FileSystem {
  return {
    ...base,
    async writeNew(path, content, mode) {
      await base.writeNew(path, content, mode);
      seen.push({ path, mode: (await stat(path)).mode & 0o777 });
      throw new Error("killed");
    },
    // The process is gone: nobody cleans up.
    remove: () => Promise.resolve(false),
  };
}

for (const [label, fs] of [["node:fs", nodeFileSystem], ["Deno", denoFileSystem]] as const) {
  Deno.test(`${label}: a write's temp file is 0600 from the start and clearly Lass's`, async () => {
    await withDir(async (dir) => {
      const seen: { path: string; mode: number }[] = [];
      const target = join(dir, "public.json");
      await assert.rejects(
        writeFileAtomic(crashingFs(fs, seen), target, '{"secret": "s3cret"}', { mode: 0o644 }),
        /killed/,
      );
      assert.equal(seen.length, 1);
      assert.equal(seen[0].mode, 0o600, "the temp file was readable by others");
      const [left] = await readdir(dir);
      assert.match(left, /^\.public\.json\.lass-[0-9a-f]{8}\.tmp$/);
      assert.ok(isTempFileName(left, "public.json"));
      // A write that completes still gives the file the mode asked for.
      await writeFileAtomic(fs, target, "{}", { mode: 0o644 });
      assert.equal((await stat(target)).mode & 0o777, 0o644);
      await writeFileAtomic(fs, join(dir, "private.json"), "{}", { mode: 0o600 });
      assert.equal((await stat(join(dir, "private.json"))).mode & 0o777, 0o600);
    });
  });
}

Deno.test("opening the service removes Lass's leftover temp files and no other file", async () => {
  await withDir(async (dir) => {
    const configPath = join(dir, "service.json");
    const dataDir = join(dir, "data");
    await mkdir(join(dataDir, "sessions"), { recursive: true });
    await mkdir(join(dataDir, "oauth"), { recursive: true });
    // A crashed config write, left by the real writer.
    const seen: { path: string; mode: number }[] = [];
    await assert.rejects(
      writeFileAtomic(crashingFs(nodeFileSystem, seen), configPath, '{"apiKey": "sk-1"}', {
        mode: 0o600,
      }),
    );
    const lass = [
      seen[0].path,
      join(dir, ".service.schema.json.lass-0a1b2c3d.tmp"),
      join(dir, ".service.json.0f1e2d3c.tmp"), // named as earlier versions did
      join(dataDir, "sessions", ".abc.json.lass-deadbeef.tmp"),
      join(dataDir, "sessions", ".abc.json.12345678.tmp"),
      join(dataDir, "oauth", ".remote.json.lass-cafebabe.tmp"),
    ];
    const others = [
      join(dir, "notes.tmp"),
      join(dir, ".other.tmp"),
      join(dir, ".editor.json.lass-12345678.tmp"), // beside the config: not a file Lass writes
      join(dir, ".service.json.swp"),
      join(dataDir, "sessions", "draft.tmp"),
      join(dataDir, "sessions", ".abc.json.lass-nothex!.tmp"),
    ];
    for (const path of [...lass.slice(1), ...others]) await writeFile(path, "x");
    const service = await openService({
      configPath,
      dataDir,
      env: () => undefined,
      watchConfig: false,
    });
    try {
      for (const path of lass) {
        assert.equal(nodeFileSystem.exists(path), false, `${path} was left`);
      }
      for (const path of others) {
        assert.equal(nodeFileSystem.exists(path), true, `${path} was removed`);
      }
    } finally {
      await service.close();
    }
  });
});
