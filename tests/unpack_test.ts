/** `runtime/unpack.ts`: the payload of `dist/lass.js`, packed, read back and unpacked once. */
import assert from "node:assert/strict";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { cacheRoot, payloadComment, readPayload, unpack } from "../runtime/unpack.ts";

const FILES = {
  "lass.js": "export const start = () => 1;\n",
  "chunk-A1.js": "/* a */ export {};",
  "ui/manifest.json": "{}",
};

/** A bundle file (a loader line, then the payload) in a new temp folder. */
async function bundleIn(files: Record<string, string>): Promise<{ dir: string; url: string }> {
  const dir = await mkdtemp(join(tmpdir(), "lass-unpack-"));
  const file = join(dir, "lass.js");
  await writeFile(file, `console.log("loader");\n${await payloadComment(files)}`);
  return { dir, url: pathToFileURL(file).href };
}

Deno.test("a payload comment reads back as the same files", async () => {
  const comment = await payloadComment(FILES);
  assert.match(
    comment,
    /^\/\*LASS-PAYLOAD:[A-Za-z0-9+/=]+\*\/\n$/,
    "one comment, nothing to parse",
  );
  assert.deepEqual(await readPayload(`const x = "/*LASS-PAYLOAD:";\n${comment}`), FILES);
  await assert.rejects(readPayload("console.log(1);\n"), /carries no Lass payload/);
});

Deno.test("unpack writes the files once; a second call finds them", async () => {
  const { dir, url } = await bundleIn(FILES);
  try {
    const root = join(dir, "cache");
    const [first, second] = await Promise.all([unpack(url, "id1", root), unpack(url, "id1", root)]);
    assert.equal(first, `${root}/id1`);
    assert.equal(second, first);
    assert.deepEqual(await readdir(root), ["id1"], "no temp folder is left");
    assert.deepEqual((await readdir(first)).sort(), ["chunk-A1.js", "lass.js", "ui"]);
    assert.equal(await Deno.readTextFile(join(first, "chunk-A1.js")), FILES["chunk-A1.js"]);
    assert.equal(await Deno.readTextFile(join(first, "ui", "manifest.json")), "{}");
    await Deno.remove(url.replace("file://", "")); // the bundle is not read again
    assert.equal(await unpack(url, "id1", root), first);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("unpack refuses a payload path that leaves its folder or goes deeper", async () => {
  for (const bad of ["../evil.js", "..", "ui/..", "a/b/c.js", "/etc/x"]) {
    const { dir, url } = await bundleIn({ "lass.js": "", [bad]: "" });
    try {
      await assert.rejects(
        unpack(url, "id1", join(dir, "cache")),
        (error: Error) => error.message === `the payload names a bad file: ${bad}`,
      );
      assert.deepEqual(await readdir(join(dir, "cache")), [], "nothing is left behind");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
});

Deno.test("unpacking a new payload removes other payloads' folders unused for 30 days", async () => {
  const { dir, url } = await bundleIn(FILES);
  try {
    const root = join(dir, "cache");
    for (const old of ["old", "recent"]) await Deno.mkdir(join(root, old), { recursive: true });
    const longAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    await Deno.utime(join(root, "old"), longAgo, longAgo);
    await unpack(url, "new", root);
    assert.deepEqual((await readdir(root)).sort(), ["new", "recent"]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("the cache folder: LASS_CACHE_DIR, then XDG_CACHE_HOME, HOME and LOCALAPPDATA", () => {
  const env = (values: Record<string, string>) => (name: string) => values[name];
  assert.equal(cacheRoot(env({ LASS_CACHE_DIR: "/c", HOME: "/h" })), "/c");
  assert.equal(cacheRoot(env({ XDG_CACHE_HOME: "/x", HOME: "/h" })), "/x/lass/bundles");
  assert.equal(cacheRoot(env({ HOME: "/h" })), "/h/.cache/lass/bundles");
  assert.equal(cacheRoot(env({ LOCALAPPDATA: "C:\\L" })), "C:\\L\\lass\\bundles");
  assert.throws(() => cacheRoot(env({})), /set LASS_CACHE_DIR/);
});
