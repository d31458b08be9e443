import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chat, chatConfig, ofType, user } from "../../_chat.ts";
import { eventSeen, type Json, post, startService, type TestService } from "../../_helpers.ts";
import {
  FIRST_DESCRIPTION,
  PULLED_DESCRIPTION,
  RESTARTED_DESCRIPTION,
} from "../../fixtures/drifting_server.ts";
import { canonicalJson, pinServer, samePins } from "../../../core/mcp/pinning/canonical.ts";
import type { PinnedServer } from "../../../wire/pinning.ts";
import { diffPins } from "../../../core/mcp/pinning/diff.ts";

const FIXTURE = new URL("../../fixtures/drifting_server.ts", import.meta.url).pathname;

/** The drifting fixture as a record; `starts` counts its starts (it changes on the second). */
function driftingServer(dir: string, extra: Record<string, unknown> = {}) {
  return {
    id: "drift",
    name: "Drifting",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", FIXTURE, "--starts", join(dir, "starts.txt")],
    protocolEra: "legacy",
    ...extra,
  };
}

/** A service on a fresh dir whose workspace uses the drifting server. */
async function start(extra: Record<string, unknown> = {}): Promise<TestService> {
  const dir = await Deno.makeTempDir({ prefix: "lass-pins-" });
  const t = await startService({
    dir,
    config: chatConfig({ servers: [driftingServer(dir, extra)] }),
  });
  return {
    ...t,
    close: async () => {
      await t.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Connects (or reconnects) the drifting server and answers its state. */
async function connect(t: TestService, force = false): Promise<Json> {
  const { status, body } = await post(t, "/api/mcp/drift/connect", force ? { force } : {});
  assert.equal(status, 200, JSON.stringify(body));
  assert.equal(body.status, "connected", body.error);
  return body;
}

/** The text of a word diff with `[-removed-]` and `{+added+}` marks. */
function marked(parts: { op: string; text: string }[]): string {
  return parts.map((p) =>
    p.op === "add" ? `{+${p.text}+}` : p.op === "del" ? `[-${p.text}-]` : p.text
  )
    .join("");
}

Deno.test("canonical pins do not depend on key order, and a changed description is a word diff", () => {
  const state = (description: string, schema: Record<string, unknown>) => ({
    id: "s",
    name: "s",
    transport: "stdio" as const,
    status: "connected" as const,
    tools: [{
      name: "echo",
      description,
      inputSchema: schema,
      disabled: false,
      modelName: "s__echo",
      modelVisible: true,
    }],
    prompts: [],
    resources: [],
    resourceTemplates: [],
  });
  const a = pinServer(state("Returns the text", { type: "object", properties: { t: {} } }));
  const b = pinServer(state("Returns the text", { properties: { t: {} }, type: "object" }));
  assert.equal(a.tools.echo.sha256, b.tools.echo.sha256);
  assert.match(a.tools.echo.sha256, /^[0-9a-f]{64}$/);
  assert.equal(canonicalJson({ b: 1, a: [{ d: 1, c: 2 }] }), '{"a":[{"c":2,"d":1}],"b":1}');
  const c = pinServer(
    state("Returns all the text", { type: "object", properties: { t: {}, u: {} } }),
  );
  // The same definitions are known without the differ; a changed or missing one is not.
  assert.ok(samePins(a, b));
  assert.ok(!samePins(a, c));
  assert.ok(!samePins(a, { ...a, tools: {} }));
  assert.ok(samePins({ tools: a.tools } as PinnedServer, a), "a pin file without the other kinds");
  const [change] = diffPins(a, c);
  assert.equal(change.change, "changed");
  assert.equal(marked(change.description!), "Returns {+all +}the text");
  assert.deepEqual(change.schema, [{ op: "add", path: "/inputSchema/properties/u", after: {} }]);
});

Deno.test("a tool changed on restart is a drift from the first definitions seen: mcp.drift, state, accept", async () => {
  const t = await start();
  try {
    const first = await connect(t);
    assert.equal(first.drift, undefined);
    const kept = JSON.parse(await readFile(join(t.dir, "data", "pins", "drift.json"), "utf8"));
    assert.equal(kept.tools.echo.definition.description, FIRST_DESCRIPTION);

    const state = await connect(t, true);
    const event = await eventSeen(
      t,
      (e) => e.type === "mcp.drift" && e.data.serverId === "drift",
      "mcp.drift",
    );
    assert.equal(event.data.pinning, "warn");
    assert.equal(event.data.source, "first-seen");
    assert.deepEqual(event.data.version, { pinned: "drifting 1.0.0", now: "drifting 1.1.0" });
    const [change] = (event.data as Json).changes;
    assert.equal(change.kind, "tool");
    assert.equal(change.name, "echo");
    assert.equal(change.change, "changed");
    assert.equal(
      change.description.filter((p: Json) => p.op !== "del").map((p: Json) => p.text).join(""),
      RESTARTED_DESCRIPTION,
    );
    assert.ok(
      change.schema.some((c: Json) =>
        c.op === "add" && c.path === "/inputSchema/properties/copyTo"
      ),
      JSON.stringify(change.schema),
    );
    assert.deepEqual(state.drift.changes, (event.data as Json).changes);
    assert.equal(state.drift.pinning, "warn");
    // The same drift found again keeps when it was first found, and is not announced again.
    const again = (await post(t, "/api/mcp/drift/refresh")).body;
    assert.equal(again.drift.since, state.drift.since);
    const announced = t.service.events.history().filter((e) =>
      e.type === "mcp.drift" && (e.data as Json).changes.length > 0
    );
    assert.equal(announced.length, 1);

    // `warn` keeps the tool in chat.
    const turn = await chat(t, { messages: [user("Use echo to say hi")] });
    const [startChunk] = ofType(turn.chunks, "start");
    assert.equal(startChunk.unavailable, undefined);

    const accepted = await post(t, "/api/mcp/drift/pins/accept");
    assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
    assert.equal(accepted.body.drift, undefined);
    await eventSeen(t, (e) => e.type === "mcp.drift" && e.data.accepted === true, "accepted");
    const now = JSON.parse(await readFile(join(t.dir, "data", "pins", "drift.json"), "utf8"));
    assert.equal(now.tools.echo.definition.description, RESTARTED_DESCRIPTION);
    // The same definitions after another restart: no drift.
    assert.equal((await connect(t, true)).drift, undefined);
  } finally {
    await t.close();
  }
});

Deno.test("a tool changed mid-session with list_changed is a drift, and block leaves it out of chat", async () => {
  const t = await start({ pinning: "block" });
  try {
    await connect(t);
    const pulled = await post(t, "/api/mcp/drift/call", { tool: "rug_pull", args: {} });
    assert.equal(pulled.status, 200, JSON.stringify(pulled.body));
    const event = await eventSeen(
      t,
      (e) => e.type === "mcp.drift" && (e.data as Json).changes?.length > 0,
      "mcp.drift after list_changed",
    );
    assert.equal(event.data.pinning, "block");
    const changes = (event.data as Json).changes;
    assert.equal(changes[0].name, "echo");
    assert.match(marked(changes[0].description), /\{\+.*~\/\.ssh/);
    const { body } = await readJson(t, "/api/mcp");
    const state = body.servers.find((s: Json) => s.id === "drift");
    assert.equal(
      state.tools.find((tool: Json) => tool.name === "echo").description,
      PULLED_DESCRIPTION,
    );
    assert.equal(state.drift.pinning, "block");

    const turn = await chat(t, { messages: [user("Use echo to say hi")] });
    const [startChunk] = ofType(turn.chunks, "start");
    assert.deepEqual(startChunk.unavailable, [
      { serverId: "drift", tool: "echo", status: "changed", error: "changed since pinned" },
    ]);
    assert.equal(ofType(turn.chunks, "tool-call").length, 0);
    await eventSeen(
      t,
      (e) => e.type === "chat.tools-unavailable" && e.data.tool === "echo",
      "chat.tools-unavailable for echo",
    );

    assert.equal((await post(t, "/api/mcp/drift/pins/accept")).status, 200);
    const again = await chat(t, { messages: [user("Use echo to say hi")] });
    const [next] = ofType(again.chunks, "start");
    assert.equal(next.unavailable, undefined);
    assert.equal(ofType(again.chunks, "tool-call")[0]?.tool, "echo");
  } finally {
    await t.close();
  }
});

Deno.test("a change of pinning in the config applies to the open connection: block, then off", async () => {
  const t = await start();
  try {
    await connect(t);
    await post(t, "/api/mcp/drift/call", { tool: "rug_pull", args: {} });
    await eventSeen(t, (e) => e.type === "mcp.drift" && e.data.pinning === "warn", "warn drift");
    const config = await (await t.call("/api/config")).json();
    config.mcpServers[0].pinning = "block";
    assert.equal((await t.call("/api/config", { method: "PUT", json: config })).status, 200);
    await eventSeen(t, (e) => e.type === "mcp.drift" && e.data.pinning === "block", "block drift");
    assert.equal(t.service.mcp.state("drift").drift?.pinning, "block");
    config.mcpServers[0].pinning = "off";
    assert.equal((await t.call("/api/config", { method: "PUT", json: config })).status, 200);
    await eventSeen(
      t,
      (e) => e.type === "mcp.drift" && (e.data as Json).changes.length === 0,
      "the drift's end",
    );
    assert.equal(t.service.mcp.state("drift").drift, undefined);
    assert.equal(t.service.mcp.state("drift").status, "connected");
  } finally {
    await t.close();
  }
});

Deno.test("with a lock file the service compares against it, and accepting rewrites its entry", async () => {
  const t = await start();
  try {
    const first = await connect(t);
    const lockPath = join(t.dir, "lass.lock.json");
    const pins = pinServer(first);
    pins.tools.echo = { ...pins.tools.echo, sha256: "0".repeat(64) };
    pins.tools.echo.definition = { ...pins.tools.echo.definition, description: "Says hi" };
    await writeFile(lockPath, JSON.stringify({ lockfileVersion: 1, servers: { drift: pins } }));
    const refreshed = await post(t, "/api/mcp/drift/refresh");
    assert.equal(refreshed.body.drift.source, "lock");
    assert.equal(
      marked(refreshed.body.drift.changes[0].description),
      "[-Says hi-]{+Returns the text+}",
    );
    await post(t, "/api/mcp/drift/pins/accept");
    const lock = JSON.parse(await readFile(lockPath, "utf8"));
    assert.equal(lock.servers.drift.tools.echo.definition.description, FIRST_DESCRIPTION);
    assert.equal(lock.servers.drift.tools.echo.sha256, pinServer(first).tools.echo.sha256);
  } finally {
    await t.close();
  }
});

Deno.test("pinning off compares nothing, and accepting is 409", async () => {
  const t = await start({ pinning: "off" });
  try {
    await connect(t);
    assert.equal((await connect(t, true)).drift, undefined);
    const accepted = await post(t, "/api/mcp/drift/pins/accept");
    assert.equal(accepted.status, 409);
    assert.equal(accepted.body.error.code, "conflict");
    assert.equal(t.service.events.history().some((e) => e.type === "mcp.drift"), false);
  } finally {
    await t.close();
  }
});

async function readJson(t: TestService, path: string): Promise<{ status: number; body: Json }> {
  const response = await t.call(path);
  return { status: response.status, body: await response.json() };
}
