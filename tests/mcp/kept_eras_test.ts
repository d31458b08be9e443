/**
 * The era verdicts of `auto` kept in the data dir for the next start (`cache/eras.json`): a
 * stdio server is started once instead of twice (no probe process), and a kept era that no longer
 * works is dropped for a probe. Each Lass here is a new service on the same data dir.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { configWithServers, post, startService } from "../_helpers.ts";
import { KeptEras } from "../../core/mcp/manager/kept_eras.ts";
import { denoFileSystem } from "../../runtime/deno_fs.ts";

const ERA_SWITCH = new URL("../fixtures/era_switch.ts", import.meta.url).pathname;

/** A folder for the config and data dir, a count of server starts and the era the server speaks. */
async function setup(era: "modern" | "legacy") {
  const dir = await Deno.makeTempDir({ prefix: "lass-kept-eras-" });
  const counter = join(dir, "starts");
  const eraFile = join(dir, "era");
  await Deno.writeTextFile(counter, "");
  await Deno.writeTextFile(eraFile, era);
  const config = configWithServers([{
    id: "switch",
    name: "Era switch",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", ERA_SWITCH, counter, eraFile],
    timeoutMs: 20_000,
  }]);
  return {
    dir,
    eraFile,
    starts: async () => (await Deno.readTextFile(counter)).split("\n").filter(Boolean).length,
    /** Starts a Lass on the folder, connects the server, and closes Lass; the server's state. */
    connectOnce: async () => {
      const t = await startService({ config, dir });
      try {
        return (await post(t, "/api/mcp/switch/connect")).body;
      } finally {
        await t.close();
      }
    },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`a ${era} verdict of auto is kept for the next start: the server starts once, no probe`, async () => {
    await using server = await setup(era);
    const first = await server.connectOnce();
    assert.equal(first.status, "connected", first.error);
    assert.equal(first.era, era);
    assert.equal(await server.starts(), 2, "the first start probes in a process of its own");

    const second = await server.connectOnce();
    assert.equal(second.status, "connected", second.error);
    assert.equal(second.era, era);
    assert.equal(await server.starts(), 3, "the next start opens the server in its era at once");

    const kept = await readFile(join(server.dir, "data", "cache", "eras.json"), "utf8");
    assert.deepEqual(Object.keys(JSON.parse(kept)), ["switch"]);
    assert.match(JSON.parse(kept).switch.key, /^[0-9a-f]{64}$/, "the settings are hashed");
    assert.ok(!kept.includes("era_switch"), "no connection settings in clear");
  });
}

Deno.test("a kept era that no longer works is dropped: the server is probed and its new era kept", async () => {
  await using server = await setup("modern");
  assert.equal((await server.connectOnce()).era, "modern");
  // The same command line now starts a server that speaks only the 2025 era.
  await Deno.writeTextFile(server.eraFile, "legacy");
  const before = await server.starts();
  const changed = await server.connectOnce();
  assert.equal(changed.status, "connected", changed.error);
  assert.equal(changed.era, "legacy");
  assert.equal(await server.starts(), before + 3, "the kept era's try, the probe, the session");
  // And the new verdict is what the next start uses.
  const next = await server.connectOnce();
  assert.equal(next.era, "legacy");
  assert.equal(await server.starts(), before + 4);
});

Deno.test("an unreadable eras file is a cache miss, not an error", async () => {
  await using server = await setup("legacy");
  await Deno.mkdir(join(server.dir, "data", "cache"), { recursive: true });
  await Deno.writeTextFile(join(server.dir, "data", "cache", "eras.json"), "{not json");
  const state = await server.connectOnce();
  assert.equal(state.status, "connected", state.error);
  assert.equal(state.era, "legacy");
  assert.equal(await server.starts(), 2);
  assert.equal((await server.connectOnce()).era, "legacy");
  assert.equal(await server.starts(), 3, "the file was written anew");
});

Deno.test("a kept era is used for a day after its probe, and entries of another Lass stay", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lass-kept-eras-unit-" });
  try {
    let now = 0;
    const hour = 60 * 60 * 1000;
    const eras = new KeptEras(denoFileSystem, dir, () => now);
    eras.keep("a", "settings a", "legacy");
    await eras.idle();
    now = 23 * hour;
    assert.equal(await eras.get("a", "settings a"), "legacy");
    assert.equal(await eras.get("a", "other settings"), undefined, "other settings, another key");
    now = 25 * hour;
    assert.equal(await eras.get("a", "settings a"), undefined, "a day old: probed again");
    eras.keep("a", "settings a", "modern");
    await eras.idle();
    assert.equal(await eras.get("a", "settings a"), "modern");

    // Another Lass on the same data dir keeps its own server; both entries stay.
    const other = new KeptEras(denoFileSystem, dir, () => now);
    other.keep("b", "settings b", "legacy");
    await other.idle();
    eras.keep("a", "settings a", undefined);
    await eras.idle();
    const fresh = new KeptEras(denoFileSystem, dir, () => now);
    assert.equal(await fresh.get("a", "settings a"), undefined, "forgotten");
    assert.equal(await fresh.get("b", "settings b"), "legacy");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
