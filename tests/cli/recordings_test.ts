/**
 * `lass record`, `lass replay` and `lass eval --replay` as a user runs them: server-everything
 * recorded by script, then replayed to the MCP SDK client over stdio and Streamable HTTP, and an
 * eval that passes with no live server.
 */
import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { DEMO_LLM } from "../_chat.ts";
import { type CliHome, cliHome, runLass, spawnLass } from "../_cli.ts";
import { everythingStdio } from "../_everything.ts";
import { START_FLAGS } from "../../scripts/permissions.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;

const SCRIPT = `calls:
  - tool: get-sum
    args: { a: 2, b: 3 }
  - tool: echo
    args: { message: recorded }
  - prompt: simple-prompt
  - tool: trigger-elicitation-request
`;

/** A folder with a config on server-everything and its recording in `cassettes/`. */
async function recorded(): Promise<CliHome & { cassette: string }> {
  const home = await cliHome({
    llms: [DEMO_LLM],
    mcpServers: [everythingStdio()],
    workspaces: [{ id: "ws", name: "WS", llmId: "demo", mcpServerIds: ["everything"] }],
    activeWorkspaceId: "ws",
  });
  await writeFile(join(home.dir, "script.yaml"), SCRIPT);
  const cassette = join(home.dir, "cassettes", "everything.cassette.json");
  const ran = await runLass([
    "record",
    "everything",
    "--out",
    cassette,
    "--script",
    join(home.dir, "script.yaml"),
    ...home.args,
  ]);
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(ran.stderr, /recorded \d+ exchanges of everything to /);
  // No one can answer at a command line: the server's question is declined, and recorded so.
  assert.match(ran.stderr, /declined the server's elicitation request/);
  return { ...home, cassette };
}

/** Lists the tools and calls get-sum through an SDK client on `transport`. */
async function useReplay(transport: StdioClientTransport | StreamableHTTPClientTransport) {
  const client = new Client({ name: "sdk-client", version: "1.0.0" });
  await client.connect(transport);
  try {
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
    let unmatched = "";
    try {
      await client.callTool({ name: "get-sum", arguments: { a: 2, b: 4 } });
    } catch (error) {
      unmatched = (error as Error).message;
    }
    return { server: client.getServerVersion()?.name, tools, sum, unmatched };
  } finally {
    await client.close();
  }
}

Deno.test("lass record writes a cassette by script; lass replay serves it to the SDK client over stdio and Streamable HTTP", async () => {
  const home = await recorded();
  try {
    const cassette = JSON.parse(await readFile(home.cassette, "utf8"));
    const methods = cassette.exchanges.map((e: { request: { method: string } }) =>
      e.request.method
    );
    for (const method of ["tools/list", "prompts/list", "tools/call", "prompts/get"]) {
      assert.ok(methods.includes(method), `${method} in ${methods}`);
    }
    const asked = cassette.exchanges.find((e: { request: { params?: { name?: string } } }) =>
      e.request.params?.name === "trigger-elicitation-request"
    );
    // server-everything also logs every 5 s: a log line may land inside the call too.
    const elicited = asked.events.find((e: { message: { method?: string } }) =>
      e.message.method === "elicitation/create"
    );
    assert.ok(elicited, `an elicitation among ${JSON.stringify(asked.events).slice(0, 400)}`);
    assert.deepEqual(elicited.reply.result, { action: "decline" });

    const overStdio = await useReplay(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", ...START_FLAGS, MAIN, "replay", "--speed", "0", home.cassette],
        stderr: "pipe",
      }),
    );
    assert.equal(overStdio.server, "mcp-servers/everything");
    assert.ok(overStdio.tools.includes("get-sum"));
    assert.match(JSON.stringify(overStdio.sum.content), /The sum of 2 and 3 is 5/);
    assert.match(overStdio.unmatched, /closest recorded request is tools\/call/);

    const child = spawnLass(["replay", "--port", "0", "--speed", "0", home.cassette]);
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let line = "";
      while (!line.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) break;
        line += value;
      }
      reader.releaseLock();
      const url = /http:\S+\/mcp/.exec(line)?.[0];
      assert.ok(url, line);
      const overHttp = await useReplay(new StreamableHTTPClientTransport(new URL(url)));
      assert.deepEqual(overHttp, overStdio);
      const rebound = await fetch(url, {
        method: "POST",
        headers: { origin: "http://evil.example", "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
      });
      await rebound.body?.cancel();
      assert.equal(rebound.status, 403, "another origin is refused");
    } finally {
      child.kill("SIGTERM");
      await child.status;
      await child.stdout.cancel().catch(() => {});
      await child.stderr.cancel();
    }
  } finally {
    await home.close();
  }
});

Deno.test("lass eval --replay passes with no live server: each server answers from <dir>/<id>.cassette.json", async () => {
  const home = await recorded();
  try {
    // The live server can no longer start: only the cassette can answer.
    const config = JSON.parse(await readFile(home.configPath, "utf8"));
    config.mcpServers[0].command = "/nonexistent/server-everything";
    await writeFile(home.configPath, JSON.stringify(config));
    await writeFile(
      join(home.dir, "sum.eval.yaml"),
      `cases:
  - name: sums
    prompt: Use get-sum with 2 and 3
    expect:
      calls: [{ tool: everything__get-sum, args: { a: 2, b: 3 } }]
      text: { contains: ["The sum of 2 and 3 is 5"] }
`,
    );
    const evalFile = join(home.dir, "sum.eval.yaml");
    const replayed = await runLass([
      "eval",
      evalFile,
      "--replay",
      join(home.dir, "cassettes"),
      ...home.args,
    ]);
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
    assert.match(replayed.stdout, /1 run, 1 passed/);

    const live = await runLass(["eval", evalFile, ...home.args]);
    assert.equal(live.code, 1, "without --replay the server is missing");

    const missing = await runLass([
      "eval",
      evalFile,
      "--replay",
      home.dir,
      ...home.args,
    ]);
    assert.equal(missing.code, 2);
    assert.match(
      missing.stderr,
      /--replay: no cassette for everything \(.*everything\.cassette\.json\)/,
    );
  } finally {
    await home.close();
  }
});
