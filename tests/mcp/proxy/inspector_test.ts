/**
 * The MCP Inspector's CLI (a real third-party client, on Node 22 through npx) reaches a tool
 * server through Lass's proxy, `/mcp/:id` over Streamable HTTP with the token as a bearer header.
 * `.ci/run` fetches the pinned Inspector before the tests; here it comes from npx's cache.
 */
import assert from "node:assert/strict";
import { configWithServers, serveOverHttp, startService, TOKEN } from "../../_helpers.ts";

/** The pinned Inspector and the Node it needs (the same words as in `.ci/run`). */
const INSPECTOR = ["-y", "-p", "node@22", "-p", "@modelcontextprotocol/inspector@2.12.0"];

/** Runs `mcp-inspector --cli <args>` and parses its stdout as JSON. */
async function inspector(args: string[]): Promise<unknown> {
  const output = await new Deno.Command("npx", {
    args: [...INSPECTOR, "mcp-inspector", "--cli", ...args],
    env: { NO_COLOR: "1", npm_config_loglevel: "error" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, `the Inspector CLI failed:\n${stderr}\n${stdout}`);
  return JSON.parse(stdout);
}

Deno.test("the MCP Inspector CLI lists and calls tools through /mcp/:id", async () => {
  const t = await startService({
    config: configWithServers([{
      id: "demo",
      name: "Demo",
      transport: "stdio",
      command: "service:demo",
    }]),
  });
  const served = serveOverHttp(t);
  try {
    const common = [
      `${served.url}/mcp/demo`,
      "--transport",
      "http",
      "--header",
      `Authorization: Bearer ${TOKEN}`,
    ];
    const listed = await inspector([...common, "--method", "tools/list"]) as {
      tools: { name: string }[];
    };
    assert.ok(listed.tools.some((tool) => tool.name === "echo"), "the demo's tools are listed");
    const called = await inspector([
      ...common,
      "--method",
      "tools/call",
      "--tool-name",
      "echo",
      "--tool-arg",
      "text=through Lass",
    ]) as { content: { text: string }[] };
    assert.equal(called.content[0].text, "through Lass");
    const { url } = await (await t.call("/api/mcp/demo/proxy")).json();
    assert.equal(url, "http://127.0.0.1:7420/mcp/demo");
    const trace = await (await t.call("/api/mcp/demo/trace?limit=2000")).json();
    const inspectorNames = new Set(
      trace.messages.filter((m: { via?: string }) => m.via === "proxy")
        .map((m: { client?: { name: string } }) => m.client?.name),
    );
    assert.ok(
      inspectorNames.size > 0 && !inspectorNames.has(undefined),
      "the Inspector named itself",
    );
  } finally {
    await served.close();
    await t.close();
  }
});
