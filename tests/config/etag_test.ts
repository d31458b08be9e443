/** Optimistic concurrency on the config: `ETag` on reads, `If-Match` on `PUT /api/config`. */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import {
  configWithServers,
  type Json,
  readJsonResponse,
  startService,
  type TestService,
  waitForEvent,
} from "../_helpers.ts";

/** A tool-server record that no workspace uses. */
function server(id: string): Json {
  return { id, name: id.toUpperCase(), transport: "http", url: "http://127.0.0.1:9/mcp" };
}

async function readConfig(t: TestService): Promise<{ etag: string; config: Json }> {
  const response = await t.call("/api/config");
  assert.equal(response.status, 200);
  const etag = response.headers.get("etag");
  assert.ok(etag, "GET /api/config answers an ETag");
  return { etag, config: await response.json() };
}

async function putConfig(t: TestService, config: unknown, ifMatch?: string) {
  const headers: Record<string, string> = ifMatch === undefined ? {} : { "if-match": ifMatch };
  const response = await t.call("/api/config", { method: "PUT", json: config, headers });
  return { ...(await readJsonResponse(response)), etag: response.headers.get("etag") };
}

Deno.test("GET /api/config answers the file with a strong ETag that the other reads share", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    const response = await t.call("/api/config");
    const etag = response.headers.get("etag")!;
    assert.match(etag, /^"r\d+-[a-z0-9]+"$/, "a strong tag");
    assert.equal(await response.text(), await readFile(t.configPath, "utf8"));
    const head = await t.call("/api/config", { method: "HEAD" });
    assert.equal(head.headers.get("etag"), etag);
    await head.body?.cancel();

    const raw = await t.call("/api/config/export");
    assert.equal(raw.headers.get("etag"), etag, "the same bytes, the same tag");
    await raw.body?.cancel();
    const redacted = await t.call("/api/config/export?redact=1");
    const redactedEtag = redacted.headers.get("etag")!;
    assert.ok(redactedEtag.startsWith('"') && redactedEtag !== etag, redactedEtag);
    await redacted.body?.cancel();
    const bootstrap = await t.call("/api/bootstrap").then((r) => r.json());
    assert.equal(bootstrap.configEtag, etag);

    const refused = await putConfig(t, configWithServers([]), redactedEtag);
    assert.equal(refused.status, 412, "the redacted export's tag never allows a write");
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/config with If-Match writes only over the config it names; 412 changes nothing", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    const first = await readConfig(t);
    const next = { ...first.config, mcpServers: [server("a")] };
    const written = await putConfig(t, next, first.etag);
    assert.equal(written.status, 200);
    assert.deepEqual(written.body.config, next);
    assert.ok(written.etag && written.etag !== first.etag, "a write answers the new tag");
    assert.equal((await readConfig(t)).etag, written.etag);

    const before = await readFile(t.configPath, "utf8");
    const changes = () =>
      t.service.events.history().filter((event) => event.type === "config.changed").length;
    const changesBefore = changes();
    const stale = await putConfig(t, { ...first.config, mcpServers: [server("b")] }, first.etag);
    assert.equal(stale.status, 412);
    assert.equal(stale.body.error.code, "precondition-failed");
    assert.match(stale.body.error.message, /changed since it was read/);
    assert.equal(await readFile(t.configPath, "utf8"), before, "the file is byte-identical");
    assert.equal(changes(), changesBefore, "no config.changed");
    assert.equal(stale.etag, null);

    const weak = await putConfig(t, next, `W/${written.etag}`);
    assert.equal(weak.status, 412, "a weak tag never matches");
    const listed = await putConfig(t, next, `"r0-x", ${written.etag}`);
    assert.equal(listed.status, 200, "one tag of a list matches");
    const star = await putConfig(t, next, "*");
    assert.equal(star.status, 200, "* matches the config there is");
    const without = await putConfig(t, { ...next, activeWorkspaceId: "w" });
    assert.equal(without.status, 200, "without If-Match the last writer wins, as before");
    assert.equal(without.etag, (await readConfig(t)).etag);

    const invalid = await putConfig(t, { ...next, activeWorkspaceId: "nope" }, first.etag);
    assert.equal(invalid.status, 400, "an invalid body is 400 whatever If-Match says");
  } finally {
    await t.close();
  }
});

Deno.test("20 parallel read-modify-write clients with If-Match that retry on 412 keep all 20 servers", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    let conflicts = 0;
    const client = async (i: number) => {
      for (;;) {
        const { etag, config } = await readConfig(t);
        config.mcpServers = [...config.mcpServers, server(`s${i}`)];
        const answer = await putConfig(t, config, etag);
        if (answer.status === 200) return;
        assert.equal(answer.status, 412, JSON.stringify(answer.body));
        conflicts++;
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_, i) => client(i)));
    const onDisk = JSON.parse(await readFile(t.configPath, "utf8"));
    const ids = onDisk.mcpServers.map((record: Json) => record.id).sort();
    assert.deepEqual(ids, Array.from({ length: 20 }, (_, i) => `s${i}`).sort());
    assert.ok(conflicts > 0, "the clients did collide, and the precondition caught it");
  } finally {
    await t.close();
  }
});

Deno.test("an edit of the file on disk moves the ETag, so a write based on the old one fails", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    const { etag, config } = await readConfig(t);
    const edited = { ...config, mcpServers: [server("from-disk")] };
    await writeFile(t.configPath, JSON.stringify(edited, null, 2));
    // This service does not watch the file: the write itself looks at the disk first.
    const stale = await putConfig(t, { ...config, mcpServers: [server("api")] }, etag);
    assert.equal(stale.status, 412);
    assert.deepEqual(JSON.parse(await readFile(t.configPath, "utf8")), edited);
    const fresh = await readConfig(t);
    assert.notEqual(fresh.etag, etag);
    assert.deepEqual(fresh.config, edited, "the edit on disk was taken in");
    const merged = { ...fresh.config, mcpServers: [...fresh.config.mcpServers, server("api")] };
    assert.equal((await putConfig(t, merged, fresh.etag)).status, 200);
  } finally {
    await t.close();
  }
});

Deno.test("with the file watched, an edit on disk changes the ETag that reads answer", async () => {
  const t = await startService({ config: configWithServers([]), watchConfig: true });
  try {
    const { etag, config } = await readConfig(t);
    const changed = waitForEvent(
      t,
      (event) => event.type === "config.changed" && event.data.source === "file",
      { what: "config.changed from the edit on disk" },
    );
    await writeFile(t.configPath, JSON.stringify({ ...config, activeWorkspaceId: "w", x: 1 }));
    await changed;
    const after = await readConfig(t);
    assert.notEqual(after.etag, etag);
    assert.equal(after.config.x, 1);
    const stale = await putConfig(t, config, etag);
    assert.equal(stale.status, 412);
  } finally {
    await t.close();
  }
});
