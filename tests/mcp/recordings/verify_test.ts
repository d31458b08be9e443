/**
 * Verify: a cassette's requests sent again to the live server. The same server passes; a server
 * whose answer changed fails with a readable diff (`lass verify` and `POST /api/mcp/:id/verify`).
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { configWithServers, type Json, post, startService } from "../../_helpers.ts";
import { cliHome, runLass } from "../../_cli.ts";
import { everythingStdio } from "../../_everything.ts";

const VERSIONED = new URL("../../fixtures/versioned_server.ts", import.meta.url).pathname;

/** The versioned fixture server as a record, answering as `version`. */
function versioned(version: string): Record<string, unknown> {
  return {
    id: "greeter",
    name: "Greeter",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", VERSIONED],
    env: { ANSWER_VERSION: version },
  };
}

Deno.test("POST /api/mcp/:id/verify: server-everything verified against its own cassette is the same", async () => {
  const t = await startService({ config: configWithServers([everythingStdio()]) });
  try {
    await post(t, "/api/mcp/everything/connect");
    await post(t, "/api/mcp/everything/call", { tool: "get-sum", args: { a: 2, b: 3 } });
    await post(t, "/api/mcp/everything/call", { tool: "echo", args: { message: "same" } });
    await post(t, "/api/mcp/everything/prompt", { name: "simple-prompt", args: {} });
    const cassette = await (await t.call("/api/mcp/everything/cassette")).json();
    const verified = await post(t, "/api/mcp/everything/verify", { cassette });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    const report = verified.body;
    const drifted = report.exchanges.filter((e: Json) =>
      e.outcome !== "same" && e.outcome !== "skipped"
    );
    assert.deepEqual(drifted, []);
    assert.equal(report.ok, true);
    assert.ok(report.same >= 4, `${report.same} same`);
    const calls = report.exchanges.filter((e: Json) => e.method === "tools/call");
    assert.deepEqual(calls.map((e: Json) => e.name), ["get-sum", "echo"]);

    const bad = await post(t, "/api/mcp/everything/verify", { cassette: { lassCassette: 2 } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, "invalid-request");
  } finally {
    await t.close();
  }
});

Deno.test("lass verify passes on the same server, and on a changed answer exits 1 with a diff of it", async () => {
  const home = await cliHome({ mcpServers: [versioned("1")] });
  try {
    const script = join(home.dir, "script.yaml");
    await writeFile(
      script,
      "calls:\n  - tool: greet\n    args: { name: Ada }\n  - tool: add\n    args: { a: 1, b: 2 }\n",
    );
    const cassette = join(home.dir, "greeter.cassette.json");
    const recorded = await runLass([
      "record",
      "greeter",
      "--out",
      cassette,
      "--script",
      script,
      ...home.args,
    ]);
    assert.equal(recorded.code, 0, recorded.stderr);

    const same = await runLass(["verify", cassette, ...home.args]);
    assert.equal(same.code, 0, same.stdout + same.stderr);
    assert.match(same.stdout, /greeter: \d+ exchanges, \d+ same, 0 drifted, 0 failed.*: ok/);

    // A new release of the server greets differently.
    const config = JSON.parse(await readFile(home.configPath, "utf8"));
    config.mcpServers[0] = versioned("2");
    await writeFile(home.configPath, JSON.stringify(config));
    const junit = join(home.dir, "verify.xml");
    const drift = await runLass(["verify", cassette, "--junit", junit, ...home.args]);
    assert.equal(drift.code, 1, drift.stdout + drift.stderr);
    assert.match(drift.stdout, /✗ #\d+ tools\/call greet: 1 difference/);
    assert.match(
      drift.stdout,
      /\/result\/content\/0\/text\n\s+recorded: "Hello, Ada!"\n\s+live: +"Hi, Ada!"/,
    );
    assert.doesNotMatch(drift.stdout, /tools\/call add/, "the unchanged answer is not shown");
    assert.match(drift.stdout, /1 drifted, 0 failed.*: drift/);
    const xml = await readFile(junit, "utf8");
    assert.match(xml, /<failure message="1 difference: \/result\/content\/0\/text"/);

    const ignored = await runLass([
      "verify",
      cassette,
      "--ignore",
      "/result/content/*/text",
      ...home.args,
    ]);
    assert.equal(ignored.code, 0, ignored.stdout);

    const usage = await runLass(["verify", cassette, "--ignore", "result", ...home.args]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--ignore takes a JSON pointer/);
  } finally {
    await home.close();
  }
});
