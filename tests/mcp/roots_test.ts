/**
 * A tool-server record's `roots`: validated, served to servers that ask (2025 `roots/list`, 2026
 * input_required), and a change reaches a connected server without a reconnect.
 */
import assert from "node:assert/strict";
import type { LassEvent } from "../../wire/events.ts";
import { EVERYTHING, everythingStdio } from "../_everything.ts";
import {
  configWithServers,
  eventSeen,
  type Json,
  post,
  readJsonResponse,
  startService,
  type TestService,
} from "../_helpers.ts";
import { v2StdioRecord } from "../_v2_fixtures.ts";

const COUNT_STARTS = new URL("../fixtures/count_starts.ts", import.meta.url).pathname;
const ROOT_A = { uri: "file:///srv/project-a", name: "Project A" };
const ROOT_B = { uri: "file:///srv/project-b" };

async function putConfig(t: TestService, config: unknown) {
  return await readJsonResponse(await t.call("/api/config", { method: "PUT", json: config }));
}

/** How many times the server `id` started connecting. */
function connects(t: TestService, id: string): number {
  return t.service.events.history().filter((e) =>
    e.type === "mcp.state" && e.data.id === id && e.data.status === "connecting"
  ).length;
}

Deno.test("roots must be file URIs: PUT /api/config says which one is not, at its path", async () => {
  const t = await startService();
  try {
    const server = {
      id: "s",
      name: "S",
      transport: "stdio",
      command: "service:demo",
      roots: [ROOT_A, { uri: "https://example.com/repo" }],
    };
    const refused = await putConfig(t, configWithServers([server]));
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error.code, "invalid-config");
    assert.deepEqual(refused.body.error.details.map((d: Json) => d.path), [
      "mcpServers.0.roots.1.uri",
    ]);
    assert.match(refused.body.error.details[0].message, /file:\/\/ URI/);
    const saved = await putConfig(t, configWithServers([{ ...server, roots: [ROOT_A] }]));
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.deepEqual(saved.body.config.mcpServers[0].roots, [ROOT_A]);
  } finally {
    await t.close();
  }
});

Deno.test("server-everything (2025) gets the roots, and a change as roots/list_changed: no reconnect, no new process", async () => {
  const counter = await Deno.makeTempFile();
  const starts = async () => (await Deno.readTextFile(counter)).split("\n").filter(Boolean).length;
  const record = everythingStdio({
    args: ["run", "-A", COUNT_STARTS, counter, `${EVERYTHING}/dist/index.js`, "stdio"],
    timeoutMs: 20_000,
    protocolEra: "legacy",
    roots: [ROOT_A],
  });
  const t = await startService({ config: configWithServers([record]) });
  const rootsLog = (count: number) => (event: LassEvent) =>
    event.type === "mcp.log" && event.data.serverId === "everything" &&
    String(event.data.message).startsWith(`Roots updated: ${count} root(s)`);
  try {
    const state = (await post(t, "/api/mcp/everything/connect")).body;
    assert.equal(state.status, "connected", state.error);
    // server-everything asks for the roots right after the handshake and logs how many it got.
    await eventSeen(t, rootsLog(1), "server-everything's log of 1 root");
    const startsBefore = await starts();
    const connectsBefore = connects(t, "everything");

    const saved = await putConfig(t, configWithServers([{ ...record, roots: [ROOT_A, ROOT_B] }]));
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const announced = await eventSeen(
      t,
      (e) => e.type === "mcp.roots" && e.data.serverId === "everything",
      "mcp.roots for everything",
    );
    assert.deepEqual(announced.data, { serverId: "everything", roots: 2, notified: true });
    await eventSeen(t, rootsLog(2), "server-everything's log of 2 roots after list_changed");

    const listed = await post(t, "/api/mcp/everything/call", { tool: "get-roots-list", args: {} });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    const text = listed.body.result.content[0].text;
    assert.match(text, /Project A\s+URI: file:\/\/\/srv\/project-a/);
    assert.match(text, /URI: file:\/\/\/srv\/project-b/);
    assert.equal(connects(t, "everything"), connectsBefore, "no reconnect");
    assert.equal(await starts(), startsBefore, "no new process");
    assert.equal(t.service.mcp.state("everything").connectedAt, state.connectedAt);
  } finally {
    await t.close();
    await Deno.remove(counter);
  }
});

for (const era of ["modern", "legacy"] as const) {
  Deno.test(`v2 server (${era}): its roots tool sees the record's roots, and a change without a reconnect`, async () => {
    const record = v2StdioRecord(era, { roots: [ROOT_A] });
    const t = await startService({ config: configWithServers([record]) });
    const roots = async () => {
      const called = await post(t, "/api/mcp/v2/call", { tool: "roots", args: {} });
      assert.equal(called.status, 200, JSON.stringify(called.body));
      return called.body.result.structuredContent.roots;
    };
    try {
      const state = (await post(t, "/api/mcp/v2/connect")).body;
      assert.equal(state.status, "connected", state.error);
      assert.equal(state.era, era);
      assert.deepEqual(await roots(), [ROOT_A]);

      const saved = await putConfig(t, configWithServers([{ ...record, roots: [ROOT_B] }]));
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const announced = await eventSeen(
        t,
        (e) => e.type === "mcp.roots" && e.data.serverId === "v2",
        "mcp.roots for v2",
      );
      // 2026 has no roots notification: the server asks within each request that needs them.
      assert.equal(announced.data.notified, era === "legacy");
      assert.deepEqual(await roots(), [ROOT_B]);
      assert.equal(connects(t, "v2"), 1, "connected once");
      assert.equal(t.service.mcp.state("v2").connectedAt, state.connectedAt);
    } finally {
      await t.close();
    }
  });
}
