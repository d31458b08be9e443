/**
 * `dist/lass.js` (`deno task build`) is one self-contained file: copied alone into an empty folder
 * it serves the web UI (embedded as data), the API and the sandbox port, and runs every subcommand.
 */
/// <reference lib="dom" />
import assert from "node:assert/strict";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium, skipBrowser, watchForProblems } from "./_browser.ts";
import { builtBundles, copyAlone, START_RUN } from "./_bundle.ts";
import { initializeOverStdio, runToEnd, startServer, stopServer } from "./_process.ts";
import { parseNdjson } from "./_chat.ts";
import type { Json } from "./_helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const DENO = Deno.execPath();

/** The bundle, built once for this file (the build is skipped when it is current). */
let bundles: ReturnType<typeof builtBundles> | undefined;
function lassJs(): Promise<string> {
  bundles ??= builtBundles();
  return bundles.then((built) => built.lassJs);
}

/** `lass serve` from a copied bundle on a free port, with its config and data in `dir`. */
function serveCopy(copy: string, dir: string, env: Record<string, string> = {}) {
  return startServer(DENO, [
    "run",
    ...START_RUN,
    copy,
    "serve",
    "--port",
    "0",
    "--config",
    join(dir, "service.json"),
    "--data-dir",
    join(dir, "data"),
  ], { cwd: dir, env });
}

Deno.test({
  name: "dist/lass.js alone in an empty folder serves the web UI, a chat and the sandbox page",
  ignore: skipBrowser,
  fn: async () => {
    const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
    const home = await mkdtemp(join(tmpdir(), "lass-bundle-chromium-"));
    try {
      assert.deepEqual(await readdir(dir), ["lass.js"], "nothing but the bundle in its folder");
      const server = await serveCopy(copy, dir);
      const browser = await launchChromium(home);
      try {
        const page = await browser.newPage();
        const problems: string[] = [];
        watchForProblems(page, problems);
        const response = await page.goto(`${server.base}/?token=${server.token}`);
        assert.equal(response?.status(), 200, "the app shell, not the 503 of a missing UI");
        // The default config's Playground: the chat page of the app, sent through the demo model.
        await page.getByLabel("Message", { exact: true }).fill("Add 2 and 3 with a tool");
        await page.getByRole("button", { name: "Send" }).click();
        await page.getByRole("region", { name: "Tool call add on demo" }).waitFor();
        await page.locator(".turn-done").waitFor();
        assert.match(await page.locator(".turn").innerText(), /demo__add`? returned 5\./);
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }

      const headers = { "x-service-token": server.token };
      const asset = await fetch(`${server.base}/assets/app.js`, { headers });
      assert.equal(asset.status, 200);
      assert.equal(asset.headers.get("content-type"), "text/javascript; charset=utf-8");
      assert.match(asset.headers.get("etag") ?? "", /^"[0-9a-f]{16}"$/);
      await asset.body?.cancel();

      const bootstrap = await (await fetch(`${server.base}/api/bootstrap`, { headers })).json();
      const sandbox = await fetch(`${bootstrap.sandbox.origin}/`);
      assert.equal(sandbox.status, 200, "the sandbox port serves its page");
      assert.match(sandbox.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(sandbox.headers.get("content-security-policy") ?? "", /frame-ancestors http/);
      await sandbox.body?.cancel();

      const chat = await fetch(`${server.base}/api/chat`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content: "Add 2 and 3 with a tool" }] }),
      });
      assert.equal(chat.status, 200);
      const chunks: Json[] = parseNdjson(await chat.text());
      assert.deepEqual(
        chunks.filter((chunk) => chunk.type === "tool-result").map((chunk) => chunk.output),
        ["5"],
      );
      assert.equal(chunks.at(-1).type, "finish");
      assert.equal(await stopServer(server), 0);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(home, { recursive: true, force: true });
    }
  },
});

Deno.test("dist/lass.js lists the same commands as main.ts, and each answers --help", async () => {
  const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
  try {
    const run = (entry: string, args: string[]) =>
      runToEnd(DENO, ["run", ...START_RUN, entry, ...args], { cwd: dir });
    const [bundled, source] = await Promise.all([run(copy, ["help"]), run(MAIN, ["help"])]);
    assert.equal(bundled.code, 0, bundled.stderr);
    assert.equal(bundled.stdout, source.stdout);
    const commands = [
      ...bundled.stdout.split("Commands:\n")[1].split("\n\n")[0].matchAll(
        /^ {2}(\S+) /gm,
      ),
    ].map((match) => match[1]);
    assert.ok(commands.includes("serve") && commands.includes("demo-server"), `${commands}`);
    const helps = await Promise.all(commands.map((command) => run(copy, [command, "--help"])));
    for (const [i, help] of helps.entries()) {
      assert.equal(help.code, 0, `${commands[i]} --help: ${help.stderr}`);
      assert.match(help.stdout, /Usage: lass/, `${commands[i]} --help prints its usage`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("dist/lass.js chat runs a turn with a tool call in process, text and --json", async () => {
  const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
  try {
    const chat = (args: string[]) =>
      runToEnd(DENO, [
        "run",
        ...START_RUN,
        copy,
        "chat",
        "Add 2 and 3 with a tool",
        "--config",
        join(dir, "service.json"),
        "--data-dir",
        join(dir, "data"),
        ...args,
      ], { cwd: dir });
    const text = await chat([]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /demo__add`? returned 5\./);
    assert.match(text.stderr, /→ demo\.add \{"a":2,"b":3\}/);
    const json = await chat(["--json"]);
    assert.equal(json.code, 0, json.stderr);
    const chunks: Json[] = parseNdjson(json.stdout);
    assert.deepEqual(
      chunks.filter((chunk) => chunk.type === "tool-call").map((chunk) => chunk.name),
      ["demo__add"],
    );
    assert.equal(chunks.at(-1).type, "finish");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("dist/lass.js demo-server answers an MCP initialize over stdio", async () => {
  const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
  try {
    const answer = await initializeOverStdio(
      DENO,
      ["run", ...START_RUN, copy, "demo-server"],
      dir,
    );
    assert.deepEqual(answer, { serverName: "lass-demo", code: 0 }, "it exits when stdin closes");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** `lass help` from a copied bundle that unpacks into `cache`. */
function helpWithCache(copy: string, dir: string, cache: string) {
  return runToEnd(DENO, ["run", ...START_RUN, copy, "help"], {
    cwd: dir,
    env: { LASS_CACHE_DIR: cache },
  });
}

/** The folders in a cache folder of unpacked bundles. */
async function unpackedIn(cache: string): Promise<string[]> {
  return (await readdir(cache)).sort();
}

Deno.test("dist/lass.js unpacks its modules once into LASS_CACHE_DIR; concurrent first runs agree; a command loads only the chunks it runs", async () => {
  const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
  const cache = join(dir, "cache");
  try {
    const run = () => helpWithCache(copy, dir, cache);
    const firsts = await Promise.all([run(), run(), run()]);
    for (const first of firsts) assert.equal(first.code, 0, first.stderr);
    assert.equal(new Set(firsts.map((first) => first.stdout)).size, 1, "the same help each time");
    const folders = await unpackedIn(cache);
    assert.equal(folders.length, 1, `one unpacked folder and no temp folders left: ${folders}`);
    assert.match(folders[0], /^[0-9a-f]{16}$/);
    const entry = join(cache, folders[0], "lass.js");
    const unpackedAt = (await Deno.stat(entry)).mtime?.getTime();
    const again = await run();
    assert.equal(again.code, 0, again.stderr);
    assert.equal((await Deno.stat(entry)).mtime?.getTime(), unpackedAt, "not unpacked again");
    // Deno loads every module that a literal `import()` names before anything runs; the build's
    // own chunks are named otherwise, so a command loads only the chunks it runs.
    const chunks = (await readdir(join(cache, folders[0]))).filter((name) => name.endsWith(".js"));
    const eager: string[] = [];
    const lazy: string[] = [];
    for (const name of chunks) {
      const code = await readFile(join(cache, folders[0], name), "utf8");
      if (/import\("\.\/[\w.-]+\.js"\)/.test(code)) eager.push(name);
      if (code.includes('import(String("./')) lazy.push(name);
    }
    assert.deepEqual(eager, [], "chunks with a literal import() of another chunk");
    assert.ok(lazy.length > 10, `the chunks that import others when run: ${lazy.length}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("dist/lass.js says how to fix a cache folder it cannot write", async () => {
  const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
  try {
    const ran = await runToEnd(DENO, ["run", ...START_RUN, copy, "help"], {
      cwd: dir,
      // A folder inside a file cannot be made.
      env: { LASS_CACHE_DIR: join(copy, "cache") },
    });
    assert.equal(ran.code, 1);
    assert.match(ran.stderr, /^lass: cannot unpack this bundle's modules: .*\n.*LASS_CACHE_DIR/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("the demo server that dist/lass.js exports runs with only the permissions it needs", async () => {
  const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
  const env = { LASS_CACHE_DIR: join(dir, "cache") };
  try {
    const server = await serveCopy(copy, dir, env);
    let exported: { command: string; args: string[] };
    try {
      const response = await fetch(`${server.base}/api/export`, {
        method: "POST",
        headers: { "x-service-token": server.token, "content-type": "application/json" },
        body: JSON.stringify({ target: "mcp-json" }),
      });
      assert.equal(response.status, 200, await response.clone().text());
      exported = JSON.parse((await response.json()).code).mcpServers.demo;
    } finally {
      await stopServer(server);
    }
    assert.equal(exported.command, "deno");
    assert.ok(exported.args.includes(copy), `it runs the bundle: ${exported.args}`);
    assert.ok(!exported.args.includes("--allow-all") && !exported.args.includes("-A"));
    assert.deepEqual(
      await initializeOverStdio(exported.command, exported.args, dir, env),
      { serverName: "lass-demo", code: 0 },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("a damaged unpacked folder is named in the error, and unpacked again once removed", async () => {
  const { dir, copy } = await copyAlone(await lassJs(), "lass-bundle-");
  const cache = join(dir, "cache");
  try {
    const run = () => helpWithCache(copy, dir, cache);
    assert.equal((await run()).code, 0);
    const [folder] = await unpackedIn(cache);
    await Deno.writeTextFile(join(cache, folder, "lass.js"), "export {");
    const damaged = await run();
    assert.equal(damaged.code, 1);
    assert.ok(
      damaged.stderr.includes(`Remove ${join(cache, folder)} to have it unpacked again.`),
      damaged.stderr,
    );
    await rm(join(cache, folder), { recursive: true });
    const again = await run();
    assert.equal(again.code, 0, again.stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
