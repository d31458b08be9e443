/**
 * `lass check --conformance` as a user runs it: the MCP conformance suite's server scenarios
 * against server-everything over Streamable HTTP (directly) and over stdio (through the proxy
 * of a Lass the command starts itself, or of a running one with --url), and against a server
 * that breaks one scenario.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { cliHome, runLass } from "../_cli.ts";
import { everythingStdio, startEverything } from "../_everything.ts";
import { TOKEN, withServedService } from "../_helpers.ts";

const BREAKING = new URL("../fixtures/conformance_breaking_server.ts", import.meta.url).pathname;
const SCENARIOS = ["server-initialize", "tools-call-simple-text"]
  .flatMap((name) => ["--scenario", name]);

/** A workspace of server-everything over HTTP and the breaking fixture (stdio). */
function config(httpUrl: string) {
  return {
    mcpServers: [
      { id: "ev-http", name: "Everything (HTTP)", transport: "http", url: httpUrl },
      {
        id: "breaking",
        name: "Breaking",
        transport: "stdio",
        command: Deno.execPath(),
        args: ["run", "-A", BREAKING],
      },
    ],
    workspaces: [{ id: "w", name: "W", mcpServerIds: ["ev-http", "breaking"] }],
    activeWorkspaceId: "w",
  };
}

Deno.test("lass check --conformance: server-everything passes over HTTP (directly) and over stdio (through the proxy of a running Lass, --url); a broken scenario is named, in JUnit too, exit 1", async () => {
  const everything = await startEverything("streamableHttp");
  const home = await cliHome(config(everything.url));
  try {
    const junit = join(home.dir, "reports", "conformance.xml");
    const ran = await runLass([
      "check",
      "--conformance",
      ...home.args,
      ...SCENARIOS,
      "--junit",
      junit,
    ]);
    assert.equal(ran.code, 1, ran.stdout + ran.stderr);
    assert.match(ran.stdout, /^ev-http \(via direct\): 2 passed, 0 failed, 0 skipped$/m);
    assert.match(ran.stdout, /^breaking \(via proxy\): 1 passed, 1 failed, 0 skipped$/m);
    assert.match(ran.stdout, /^SCENARIO\s+RESULT\s+CHECKS\s+PROBLEM$/m);
    assert.match(
      ran.stdout,
      /^tools-call-simple-text\s+FAILED\s+0\/1\s+ToolsCallSimpleText: No text content found$/m,
    );
    assert.match(
      ran.stdout,
      /^error: server breaking: tools-call-simple-text: ToolsCallSimpleText: No text content found$/m,
    );
    assert.equal(ran.stdout.match(/^error:/gm)?.length, 1, ran.stdout);
    assert.match(
      ran.stdout,
      /2 servers: 1 server failed \(@modelcontextprotocol\/conformance@0\.1\.16\)/,
    );

    const xml = await readFile(junit, "utf8");
    const cases = [...xml.matchAll(/<testcase name="([^"]+)" classname="([^"]+)"[^>]*?(\/?)>/g)]
      .map((m) => `${m[2]} ${m[1]}${m[3] ? "" : " (has a child)"}`);
    assert.equal(cases.length, 4);
    assert.deepEqual(cases.filter((c) => c.endsWith("(has a child)")), [
      "lass.conformance.breaking tools-call-simple-text (has a child)",
    ]);
    assert.match(xml, /<failure message="ToolsCallSimpleText: No text content found">/);

    // Flags that only go with --conformance are refused without it.
    const stray = await runLass(["check", ...home.args, "--server", "ev-http"]);
    assert.equal(stray.code, 2);
    assert.match(stray.stderr, /--server goes with --conformance/);

    // A running Lass: the suite reaches server-everything over stdio through its proxy.
    await withServedService([everythingStdio({ id: "ev-stdio" })], async (_t, base) => {
      const remote = await runLass([
        "check",
        "--conformance",
        "--url",
        base,
        "--token",
        TOKEN,
        "--server",
        "ev-stdio",
        ...SCENARIOS,
      ]);
      assert.equal(remote.code, 0, remote.stdout + remote.stderr);
      assert.match(remote.stdout, /^ev-stdio \(via proxy\): 2 passed, 0 failed, 0 skipped$/m);
      assert.match(remote.stdout, /^server-initialize\s+passed\s+1\/1$/m);
      assert.match(remote.stdout, /1 server: no scenario failed/);
    });
  } finally {
    await home.close();
    await everything.stop();
  }
});
