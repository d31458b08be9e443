/**
 * `dist/mod.js` mounted in other programs, as docs/mounting.md shows: a Deno program with
 * `Deno.serve` and a Node 20+ program with `node:http`, each alone with the bundle in an empty
 * folder, serving the UI, the sandbox page and a chat that calls a demo tool.
 */
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { processTree, stillRunning, type TreeProcess } from "../core/mcp/session/process_tree.ts";
import { builtBundles, copyAlone, recipeFrom, START_PERMISSIONS } from "./_bundle.ts";
import {
  initializeOverStdio,
  runToEnd,
  type ServerProcess,
  startServer,
  stopServer,
} from "./_process.ts";
import { chatConfig, DEMO_SERVER, parseNdjson } from "./_chat.ts";
import type { Json } from "./_helpers.ts";

const DOC = new URL("../docs/mounting.md", import.meta.url);
const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** The bundle, built once for this file (the build is skipped when it is current). */
let bundles: ReturnType<typeof builtBundles> | undefined;
function modJs(): Promise<string> {
  bundles ??= builtBundles();
  return bundles.then((built) => built.modJs);
}

/** What every mount must serve: the app shell, the sandbox page, and a chat with a tool call. */
async function assertServes(server: ServerProcess): Promise<void> {
  const headers = { "x-service-token": server.token };
  const page = await fetch(`${server.base}/?token=${server.token}`, {
    headers: { accept: "text/html" },
  });
  assert.equal(page.status, 200, "the app shell from the embedded UI, not a 503");
  assert.match(await page.text(), /<script[^>]+src="\/assets\/app\.js\?token=/);

  const bootstrap = await (await fetch(`${server.base}/api/bootstrap`, { headers })).json();
  const sandbox = await fetch(`${bootstrap.sandbox.origin}/`);
  assert.equal(sandbox.status, 200, "the sandbox handler on its own port");
  assert.match(
    sandbox.headers.get("content-security-policy") ?? "",
    new RegExp(`frame-ancestors ${server.base}$`),
    "the sandbox page may be framed only by the app's origin",
  );
  await sandbox.body?.cancel();

  const chat = await fetch(`${server.base}/api/chat`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ messages: [{ role: "user", content: "Add 2 and 3 with a tool" }] }),
  });
  assert.equal(chat.status, 200);
  assert.equal(chat.headers.get("content-type"), "application/x-ndjson; charset=utf-8");
  const chunks: Json[] = parseNdjson(await chat.text());
  const call = chunks.find((chunk) => chunk.type === "tool-call");
  assert.deepEqual([call?.name, call?.input], ["demo__add", { a: 2, b: 3 }]);
  const result = chunks.find((chunk) => chunk.type === "tool-result");
  assert.deepEqual([result?.output, result?.isError], ["5", false]);
  assert.equal(chunks.at(-1).type, "finish");
}

Deno.test("the Deno.serve recipe mounts dist/mod.js from an empty folder and runs a chat", async () => {
  const { dir } = await copyAlone(await modJs(), "lass-mount-deno-");
  try {
    const program = join(dir, "serve_lass.js");
    await writeFile(program, await recipeFrom(DOC, "serve_lass.js"));
    // No config file: the default one is written, with the built-in demo tool server in process.
    const server = await startServer(Deno.execPath(), ["run", ...START_PERMISSIONS, program], {
      cwd: dir,
      env: {
        PORT: "0",
        LASS_CONFIG: join(dir, "service.json"),
        LASS_DATA_DIR: join(dir, "data"),
      },
    });
    await assertServes(server);

    // Code exported from the mounted Lass starts the demo tool server from the bundle.
    const exported = await fetch(`${server.base}/api/export`, {
      method: "POST",
      headers: { "x-service-token": server.token, "content-type": "application/json" },
      body: JSON.stringify({ target: "mcp-json" }),
    });
    const demo = JSON.parse((await exported.json()).code).mcpServers.demo;
    assert.equal(demo.command, "deno");
    assert.deepEqual(demo.args, [
      "run",
      "--quiet",
      "--no-prompt",
      join(dir, "mod.js"),
      "demo-server",
    ]);
    const answer = await initializeOverStdio(Deno.execPath(), demo.args, dir);
    assert.deepEqual(answer, { serverName: "lass-demo", code: 0 });
    assert.equal(await stopServer(server), 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("the node:http recipe mounts dist/mod.js under Node 20+, with a stdio tool server it stops", async () => {
  const version = await runToEnd("node", ["--version"], { cwd: "/" });
  assert.match(version.stdout, /^v(2\d|[3-9]\d)\./, "Node 20 or later");
  const { dir } = await copyAlone(await modJs(), "lass-mount-node-");
  try {
    const program = join(dir, "serve_lass.mjs");
    await writeFile(program, await recipeFrom(DOC, "serve_lass.mjs"));
    // The demo tool server as a stdio process: Node spawns it and stops it on close.
    const stdioDemo = {
      ...DEMO_SERVER,
      command: Deno.execPath(),
      args: ["run", MAIN, "demo-server"],
    };
    await writeFile(
      join(dir, "service.json"),
      JSON.stringify(chatConfig({ servers: [stdioDemo] })),
    );
    const server = await startServer("node", [program], {
      cwd: dir,
      env: { PORT: "0", LASS_DATA_DIR: join(dir, "data") },
    });
    await assertServes(server);
    const children: TreeProcess[] = (await processTree(server.process.pid)).slice(1);
    assert.ok(children.length > 0, "the stdio tool server runs under the Node program");
    assert.equal(await stopServer(server), 0);
    assert.deepEqual(await stillRunning(children), [], "closing Lass stopped the tool server");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
