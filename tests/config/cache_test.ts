/**
 * The validated-config cache (`<dataDir>/cache/config.json`): an unchanged config file opens from
 * it without validating again; any change of the text, a damaged cache or an invalid file means a
 * full validation; every accepted config is kept. The config file is never touched by it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ConfigStore, formatConfig } from "../../core/config/store.ts";
import { ValidatedConfigCache } from "../../core/config/validated_cache.ts";
import { defaultConfig } from "../../core/config/defaults.ts";
import { parseConfig } from "../../core/config/parse.ts";
import { EventBus } from "../../core/events.ts";
import { LassError } from "../../core/errors.ts";
import { denoFileSystem } from "../../runtime/deno_fs.ts";
import { sampleConfig } from "../_helpers.ts";

/** A config file and a data dir in a fresh folder; `open` opens a store on them with the cache. */
async function setUp(config: Record<string, unknown>) {
  const dir = await Deno.makeTempDir({ prefix: "lass-config-cache-" });
  const path = join(dir, "service.json");
  const cacheDir = join(dir, "data", "cache");
  await Deno.writeTextFile(path, formatConfig(config));
  const open = () =>
    ConfigStore.open({
      path,
      env: () => undefined,
      events: new EventBus(),
      fs: denoFileSystem,
      watch: false,
      cache: new ValidatedConfigCache(denoFileSystem, cacheDir),
    });
  const cacheFile = join(cacheDir, "config.json");
  const readCache = async () => JSON.parse(await Deno.readTextFile(cacheFile));
  return {
    path,
    open,
    cacheFile,
    readCache,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("a validated config survives the cache's JSON as it is (nothing lost or added)", () => {
  for (const config of [sampleConfig(), defaultConfig(() => undefined), {}]) {
    const parsed = parseConfig(config);
    assert.deepStrictEqual(JSON.parse(JSON.stringify(parsed)), parsed);
  }
});

Deno.test("the first open validates and keeps the config; an unchanged file opens from the cache", async () => {
  await using files = await setUp(sampleConfig());
  const first = await files.open();
  const validated = first.config;
  await first.close();
  const cached = await files.readCache();
  assert.match(cached.key, /^[0-9a-f]{64}$/);
  assert.deepStrictEqual(cached.config, validated);
  // Proof that the next open reads the cache, not the file's validation: a mark put in it shows.
  cached.config.workspaces[0].name = "from the cache";
  await Deno.writeTextFile(files.cacheFile, JSON.stringify(cached));
  const second = await files.open();
  assert.equal(second.config.workspaces[0].name, "from the cache");
  await second.close();
});

Deno.test("a changed file, a damaged cache or an invalid file is validated in full", async () => {
  await using files = await setUp(sampleConfig());
  await (await files.open()).close();
  const marked = await files.readCache();
  marked.config.workspaces[0].name = "stale";
  await Deno.writeTextFile(files.cacheFile, JSON.stringify(marked));

  // The text changed (one more top-level field): the mark is not used, and the cache is renewed.
  await Deno.writeTextFile(files.path, formatConfig({ ...sampleConfig(), note: "edited" }));
  const changed = await files.open();
  assert.notEqual(changed.config.workspaces[0].name, "stale");
  await changed.close();
  const renewed = await files.readCache();
  assert.notEqual(renewed.key, marked.key);
  assert.deepStrictEqual(renewed.config, changed.config);

  await Deno.writeTextFile(files.cacheFile, "{ not json");
  const afterDamage = await files.open();
  assert.deepStrictEqual(afterDamage.config, changed.config);
  await afterDamage.close();

  // An invalid file is refused whatever the cache holds for an earlier text.
  const text = formatConfig({ ...sampleConfig(), llms: [{ id: "x" }] });
  await Deno.writeTextFile(files.path, text);
  await assert.rejects(files.open(), (error) => {
    assert.ok(error instanceof LassError);
    assert.equal(error.code, "invalid-config");
    return true;
  });
  assert.equal(await Deno.readTextFile(files.path), text, "the config file is left as it was");
});

Deno.test("an accepted write is kept as the validated form of the new text", async () => {
  await using files = await setUp(sampleConfig());
  const store = await files.open();
  await store.replace({ ...store.stored, note: "from the API" });
  await store.close();
  const cached = await files.readCache();
  assert.deepStrictEqual(cached.config, store.config);
  assert.equal(cached.config.note, "from the API");
  // The next start reads it without validating: the same config.
  const reopened = await files.open();
  assert.deepStrictEqual(reopened.config, store.config);
  await reopened.close();
});
