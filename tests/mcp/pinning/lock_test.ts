/** The lock file on its own: statuses of `checkLock`, prompts and resource templates, entries kept. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { nodeFileSystem } from "../../../core/files_node.ts";
import { checkLock, pinProblems } from "../../../core/mcp/pinning/lock_check.ts";
import { readLock, writeLock } from "../../../core/mcp/pinning/pin_files.ts";
import { pinServer } from "../../../core/mcp/pinning/canonical.ts";
import type { ToolServerState } from "../../../wire/tool_servers.ts";

/** A connected server's state with one tool, one prompt and one resource template. */
function server(id: string, changes: { prompt?: string; template?: string } = {}): ToolServerState {
  return {
    id,
    name: id,
    transport: "stdio",
    status: "connected",
    serverInfo: { name: id, version: "1" },
    tools: [{
      name: "t",
      description: "A tool",
      inputSchema: { type: "object" },
      disabled: false,
      modelName: `${id}__t`,
      modelVisible: true,
    }],
    prompts: [
      { name: "greet", description: changes.prompt ?? "Greets", arguments: [{ name: "who" }] },
    ],
    resources: [],
    resourceTemplates: [{
      name: "item",
      uriTemplate: changes.template ?? "x://items/{id}",
      description: "An item",
    }],
    subscriptions: [],
  };
}

Deno.test("checkLock writes a missing lock only when asked, then matches, drifts, and updates", async () => {
  const dir = await Deno.makeTempDir({ prefix: "lass-lock-" });
  const path = join(dir, "lass.lock.json");
  const fs = nodeFileSystem;
  try {
    const none = await checkLock(fs, { path, create: false, update: false }, [
      { state: server("a") },
    ]);
    assert.equal(none, undefined);

    const written = await checkLock(fs, { path, create: true, update: false }, [
      { state: server("a") },
      { state: server("off"), pinning: "off" },
      { state: { ...server("down"), status: "error" } },
    ]);
    assert.deepEqual(written?.servers, { a: { status: "written", changes: [] } });
    const lock = await readLock(fs, path);
    assert.deepEqual(Object.keys(lock!.servers), ["a"]);
    assert.deepEqual(Object.keys(lock!.servers.a.prompts), ["greet"]);
    assert.deepEqual(Object.keys(lock!.servers.a.resourceTemplates), ["item"]);

    const matched = await checkLock(fs, { path, create: true, update: false }, [
      { state: server("a") },
      { state: server("b") },
    ]);
    assert.equal(matched?.written, false);
    assert.equal(matched?.servers.a.status, "matched");
    assert.equal(matched?.servers.b.status, "unpinned");
    assert.deepEqual(pinProblems(matched!.servers.b, "lass.lock.json").map((p) => p.subject), [
      "pins",
    ]);

    const changed = server("a", { prompt: "Greets warmly", template: "x://things/{id}" });
    const drifted = await checkLock(fs, { path, create: false, update: false }, [
      { state: changed },
    ]);
    const pins = drifted!.servers.a;
    assert.equal(pins.status, "drifted");
    assert.deepEqual(pins.changes.map((c) => `${c.kind} ${c.name} ${c.change}`), [
      "prompt greet changed",
      "resourceTemplate item changed",
    ]);
    assert.deepEqual(pins.changes[1].schema, [{
      op: "replace",
      path: "/uriTemplate",
      before: "x://items/{id}",
      after: "x://things/{id}",
    }]);
    assert.deepEqual(pinProblems(pins, "lass.lock.json").map((p) => p.subject), [
      "prompt greet",
      "resource template item",
    ]);

    // Another server's entry stays when one server is updated.
    await writeLock(fs, path, {
      lockfileVersion: 1,
      servers: { ...(await readLock(fs, path))!.servers, other: pinServer(server("other")) },
    });
    const updated = await checkLock(fs, { path, create: false, update: true }, [
      { state: changed },
    ]);
    assert.equal(updated?.servers.a.status, "updated");
    assert.equal(updated?.written, true);
    const relocked = JSON.parse(await readFile(path, "utf8"));
    assert.deepEqual(Object.keys(relocked.servers), ["a", "other"]);
    assert.equal(relocked.servers.a.prompts.greet.definition.description, "Greets warmly");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
