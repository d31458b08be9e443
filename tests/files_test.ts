/** One contract, two implementations: the file operations on node:fs and on Deno's API. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FileSystem, writeFileAtomic } from "../core/files.ts";
import { nodeFileSystem } from "../core/files_node.ts";
import { denoFileSystem } from "../runtime/deno_fs.ts";

for (const [label, fs] of [["node:fs", nodeFileSystem], ["Deno", denoFileSystem]] as const) {
  const withDir = async (run: (dir: string, fs: FileSystem) => Promise<void>) => {
    const dir = await mkdtemp(join(tmpdir(), "lass-fs-"));
    try {
      await run(dir, fs);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };

  Deno.test(`${label}: read, write atomically, list, stat, remove`, async () => {
    await withDir(async (dir, fs) => {
      const file = join(dir, "sub", "a.json");
      assert.equal(await fs.readText(file), undefined);
      assert.deepEqual(await fs.list(join(dir, "sub")), []);
      assert.equal(await fs.stat(file), undefined);
      await writeFileAtomic(fs, file, "héllo", { mode: 0o600, dirMode: 0o700 });
      assert.equal(await fs.readText(file), "héllo");
      assert.deepEqual(await fs.list(join(dir, "sub")), ["a.json"], "no temp file is left");
      const info = (await fs.stat(file))!;
      assert.equal(info.mode & 0o777, 0o600);
      assert.equal(info.size, 6);
      assert.equal((await fs.stat(join(dir, "sub")))!.mode & 0o777, 0o700);
      await writeFileAtomic(fs, file, "second");
      assert.equal(await fs.readText(file), "second");
      await assert.rejects(fs.writeNew(file, "x", 0o600), "writeNew never overwrites");
      assert.equal(fs.exists(file), true);
      assert.equal(await fs.realPath(file), file);
      assert.equal(await fs.remove(file), true);
      assert.equal(await fs.remove(file), false);
      assert.equal(fs.exists(file), false);
    });
  });

  Deno.test(`${label}: entries with kinds, directory stat, and a capped read`, async () => {
    await withDir(async (dir, fs) => {
      assert.deepEqual(await fs.entries(join(dir, "missing")), []);
      assert.equal(await fs.readBytes(join(dir, "missing"), 10), undefined);
      await fs.makeDir(join(dir, "sub"), 0o755);
      await writeFileAtomic(fs, join(dir, "a.txt"), "0123456789");
      await Deno.symlink(join(dir, "a.txt"), join(dir, "link"));
      const entries = (await fs.entries(dir)).sort((a, b) => a.name.localeCompare(b.name));
      assert.deepEqual(entries, [
        { name: "a.txt", isFile: true, isDirectory: false, isSymlink: false },
        { name: "link", isFile: false, isDirectory: false, isSymlink: true },
        { name: "sub", isFile: false, isDirectory: true, isSymlink: false },
      ]);
      assert.equal((await fs.stat(join(dir, "sub")))!.isDirectory, true);
      assert.equal((await fs.stat(join(dir, "link")))!.isDirectory, false);
      assert.equal(new TextDecoder().decode(await fs.readBytes(join(dir, "a.txt"), 4)), "0123");
      assert.equal((await fs.readBytes(join(dir, "a.txt"), 100))!.length, 10);
    });
  });

  Deno.test(`${label}: watch reports changes in a folder until stopped`, async () => {
    await withDir(async (dir, fs) => {
      const seen: (string | undefined)[] = [];
      const changed = new Promise<void>((resolve) => {
        const stop = fs.watch(dir, (name) => {
          seen.push(name);
          if (name === "c.json") {
            stop();
            resolve();
          }
        });
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await Deno.writeTextFile(join(dir, "c.json"), "{}");
      await changed;
      assert.ok(seen.includes("c.json"));
    });
  });
}
