/** Workspace export of a replay record: `lass replay <cassette>` over stdio, and the cassette's absolute path. */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configWithServers, type Json, post, startService } from "../../_helpers.ts";
import { exported } from "../../_export.ts";

const VERSIONED = new URL("../../fixtures/versioned_server.ts", import.meta.url).pathname;

Deno.test("an exported replay record runs as lass replay over stdio, allowed to read its cassette alone", async () => {
  const live = await startService({
    config: configWithServers([{
      id: "greeter",
      name: "Greeter",
      transport: "stdio",
      command: Deno.execPath(),
      args: ["run", "-A", VERSIONED],
    }]),
  });
  let recorded: Json;
  try {
    recorded = (await post(live, "/api/mcp/greeter/call", { tool: "greet", args: { name: "Ada" } }))
      .body.result;
    await mkdir(join(live.dir, "cassettes"));
    await writeFile(
      join(live.dir, "cassettes", "greeter.cassette.json"),
      await (await live.call("/api/mcp/greeter/cassette")).text(),
    );
  } finally {
    await live.service.close();
  }
  const replayConfig = configWithServers([{
    id: "greeter",
    name: "Greeter",
    transport: "replay",
    cassette: "cassettes/greeter.cassette.json",
    speed: 0,
  }]);
  (replayConfig.workspaces as Json[])[0].mcpServerIds = ["greeter"];
  const source = await startService({ dir: live.dir, config: replayConfig });
  const target = await startService({ config: configWithServers([]) });
  try {
    const absolute = join(live.dir, "cassettes", "greeter.cassette.json");
    const service = JSON.parse((await exported(source, "service", "w")).code);
    assert.equal(service.mcpServers[0].cassette, absolute, "the service export's path is absolute");

    const { code } = await exported(source, "mcp-json", "w");
    const imported = (await post(target, "/api/mcp/import", { json: code })).body.servers[0];
    assert.equal(imported.command, "deno");
    assert.deepEqual(imported.args.slice(-4), ["replay", "--speed", "0", absolute]);
    assert.ok(imported.args.includes(`--allow-read=${absolute}`), imported.args.join(" "));
    const config = configWithServers([{ ...imported, id: "greeter", name: "Greeter" }]);
    const put = await target.call("/api/config", { method: "PUT", json: config });
    assert.equal(put.status, 200, await put.text());
    const state = (await post(target, "/api/mcp/greeter/connect")).body;
    assert.equal(state.status, "connected", state.error);
    const result = (await post(target, "/api/mcp/greeter/call", {
      tool: "greet",
      args: { name: "Ada" },
    })).body.result;
    assert.deepEqual(result, recorded);
  } finally {
    await target.close();
    await source.close();
    await Deno.remove(live.dir, { recursive: true });
  }
});
