import assert from "node:assert/strict";
import { cp, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { VERSION } from "../../core/version.ts";
import { buildUi } from "../../scripts/build_ui.ts";
import { START_FLAGS } from "../../scripts/permissions.ts";
import { configWithServers } from "../_helpers.ts";
import { initializeOverStdio, runToEnd, startServer, stopServer } from "../_process.ts";

const MAIN = new URL("../../main.ts", import.meta.url).pathname;
/** Runs `deno <args>` to its end and returns its exit code and output. */
function run(args: string[], env: Record<string, string> = {}) {
  return runToEnd(Deno.execPath(), args, { env });
}

/** Starts `entry` on a free port and waits for its ready line. */
function start(entry: string, args: string[], env: Record<string, string> = {}) {
  return startServer(
    Deno.execPath(),
    ["run", ...START_FLAGS, entry, "--port", "0", ...args],
    {
      env,
    },
  );
}

async function tempDir() {
  return await mkdtemp(join(tmpdir(), "lass-cli-"));
}

Deno.test("deno task start and deno task lass run with the permissions of scripts/permissions.ts", async () => {
  const { tasks } = JSON.parse(await readFile(new URL("../../deno.json", import.meta.url), "utf8"));
  for (const task of ["start", "lass"]) {
    assert.ok(
      tasks[task].endsWith(`deno run ${START_FLAGS.join(" ")} main.ts`),
      `deno task ${task}: ${tasks[task]}`,
    );
  }
});

Deno.test("deno task lass works in the folder it is called from: relative paths mean that folder", async () => {
  const dir = await tempDir();
  const name = `task-cwd-${crypto.randomUUID()}.json`;
  const inRepo = new URL(`../../${name}`, import.meta.url).pathname;
  try {
    // Its workspace `w` tells it from the default config (`playground`).
    await writeFile(join(dir, name), JSON.stringify(configWithServers([])));
    const deno = new URL("../../deno.json", import.meta.url).pathname;
    const ran = await runToEnd(Deno.execPath(), [
      "task",
      "--quiet",
      "--config",
      deno,
      "lass",
      "check",
      "--json",
      "--config",
      name,
      "--data-dir",
      "data",
    ], {
      cwd: dir,
      // As from a shell: `deno task test` set INIT_CWD, and deno task keeps an INIT_CWD it got.
      env: Object.fromEntries(
        Object.entries(Deno.env.toObject()).filter(([name]) => name !== "INIT_CWD"),
      ),
      clearEnv: true,
    });
    assert.equal(ran.code, 0, ran.stderr);
    assert.deepEqual(
      JSON.parse(ran.stdout).workspaces,
      ["w"],
      "the config of the calling folder",
    );
    await stat(join(dir, "data"));
    await assert.rejects(stat(inRepo), "nothing written beside deno.json");
  } finally {
    await rm(inRepo, { force: true });
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("a command that creates the config file says so on stderr, once", async () => {
  const dir = await tempDir();
  try {
    const config = join(dir, "sub", "service.json");
    const args = ["run", ...START_FLAGS, MAIN, "check", "--config", config];
    const first = await run([...args, "--data-dir", join(dir, "data")]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /^lass: created .*sub\/service\.json with the default config/m);
    await stat(config);
    const second = await run([...args, "--data-dir", join(dir, "data")]);
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /created/);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("--help and --version print and exit 0; bad flags exit 2", async () => {
  const help = await run(["run", ...START_FLAGS, MAIN, "--help"]);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /--data-dir/);
  const version = await run(["run", ...START_FLAGS, MAIN, "--version"]);
  assert.deepEqual([version.code, version.stdout.trim()], [0, VERSION]);
  const badPort = await run(["run", ...START_FLAGS, MAIN, "--port", "http"]);
  assert.equal(badPort.code, 2);
  assert.match(badPort.stderr, /--port must be a number/);
  const unknown = await run(["run", ...START_FLAGS, MAIN, "--frobnicate"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^lass: unknown option --frobnicate \(see lass serve --help\)$/m);
  const noValue = await run(["run", ...START_FLAGS, MAIN, "chat", "--model"]);
  assert.match(noValue.stderr, /^lass: --model needs a value \(see lass chat --help\)$/m);
  const short = await run(["run", ...START_FLAGS, MAIN, "-h"]);
  assert.deepEqual([short.code, short.stdout], [0, help.stdout], "-h is --help");
  const chatHelp = await run(["run", ...START_FLAGS, MAIN, "chat", "--help"]);
  const helpChat = await run(["run", ...START_FLAGS, MAIN, "help", "chat"]);
  assert.match(chatHelp.stdout, /^Usage: lass chat/);
  assert.deepEqual([helpChat.code, helpChat.stdout], [0, chatHelp.stdout], "help chat");
  const inherited = await run(["run", ...START_FLAGS, MAIN, "toString"]);
  assert.equal(inherited.code, 2);
  assert.match(inherited.stderr, /unknown command "toString"/);
});

Deno.test("an all-interfaces host is refused without the loud flag", async () => {
  const dir = await tempDir();
  try {
    const refused = await run([
      "run",
      ...START_FLAGS,
      MAIN,
      "--host",
      "0.0.0.0",
      "--config",
      join(dir, "s.json"),
    ]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--unsafe-expose-to-network/);
    const viaEnv = await run(["run", ...START_FLAGS, MAIN], { LASS_HOST: "::" });
    assert.equal(viaEnv.code, 2);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("with the loud flag an all-interfaces host starts, warns, and still checks Host", async () => {
  const dir = await tempDir();
  try {
    const server = await start(MAIN, [
      "--host",
      "0.0.0.0",
      "--unsafe-expose-to-network",
      "--config",
      join(dir, "service.json"),
    ]);
    const health = await fetch(`http://127.0.0.1:${server.port}/api/health`);
    assert.equal(health.status, 200);
    await health.body?.cancel();
    // fetch cannot set Host, so a raw request plays the DNS-rebinding page.
    const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.port });
    await conn.write(new TextEncoder().encode(
      "GET /api/health HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n",
    ));
    const reply = await new Response(conn.readable).text();
    assert.match(reply, /^HTTP\/1\.1 403/);
    assert.match(reply, /forbidden-host/);
    // The printed URL is one that works: not 0.0.0.0, which the Host check refuses.
    assert.doesNotMatch(server.url, /0\.0\.0\.0/);
    const page = await fetch(server.url);
    assert.notEqual(page.status, 403, `GET ${server.url}`);
    assert.match(page.headers.get("content-type") ?? "", /text\/html/);
    await page.body?.cancel();
    server.process.kill("SIGTERM");
    assert.equal((await server.process.status).code, 0);
    const stderr = await server.stderr;
    assert.match(stderr, /WARNING: Lass is reachable from the network/);
    assert.match(stderr, /Accepted host names: .*loopback \(localhost, 127\.0\.0\.1, ::1\)/);
    assert.ok(stderr.includes(new URL(server.url).hostname), "the printed host is accepted");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("the server starts with no setup, prints its URL, serves, and stops cleanly on SIGTERM", async () => {
  const dir = await tempDir();
  try {
    const server = await start(MAIN, [
      "--config",
      join(dir, "service.json"),
      "--data-dir",
      join(dir, "data"),
    ]);
    assert.equal(server.token.length, 43, "32 random bytes, base64url");
    const base = `http://127.0.0.1:${server.port}`;
    const health = await fetch(`${base}/api/health`);
    assert.deepEqual(await health.json(), { ok: true, version: VERSION });
    const denied = await fetch(`${base}/api/bootstrap`);
    assert.equal(denied.status, 401);
    await denied.body?.cancel();
    const bootstrap = await fetch(`${base}/api/bootstrap`, {
      headers: { "x-service-token": server.token },
    });
    assert.equal((await bootstrap.json()).configPath, join(dir, "service.json"));
    // An open event stream must not hold the shutdown.
    const events = await fetch(`${base}/api/events?token=${server.token}`);
    server.process.kill("SIGTERM");
    const status = await server.process.status;
    await events.body?.cancel().catch(() => {});
    assert.equal(status.code, 0, await server.stderr);
    JSON.parse(await readFile(join(dir, "service.json"), "utf8"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("tool servers used by a workspace connect in the background after the start", async () => {
  const dir = await tempDir();
  try {
    const server = await start(MAIN, [
      "--config",
      join(dir, "service.json"),
      "--data-dir",
      join(dir, "data"),
    ]);
    const headers = { "x-service-token": server.token };
    let status = "";
    for (let i = 0; i < 100 && status !== "connected"; i++) {
      const body = await (await fetch(`http://127.0.0.1:${server.port}/api/mcp`, { headers }))
        .json();
      status = body.servers[0].status;
      if (status !== "connected") await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(status, "connected", "the Playground's demo server is ready without a request");
    server.process.kill("SIGTERM");
    assert.equal((await server.process.status).code, 0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("`main.ts demo-server` serves the demo tool server over stdio", async () => {
  const answer = await initializeOverStdio(Deno.execPath(), [
    "run",
    ...START_FLAGS,
    MAIN,
    "demo-server",
  ]);
  assert.equal(answer.serverName, "lass-demo");
  assert.equal(answer.code, 0, "it exits when stdin closes");
});

Deno.test("LASS_TOKEN, LASS_CONFIG and LASS_DATA_DIR are honoured", async () => {
  const dir = await tempDir();
  try {
    const server = await start(MAIN, [], {
      LASS_TOKEN: "fixed-token",
      LASS_CONFIG: join(dir, "env.json"),
      LASS_DATA_DIR: join(dir, "data"),
    });
    assert.equal(server.token, "fixed-token");
    const response = await fetch(`http://127.0.0.1:${server.port}/api/sessions/s1`, {
      method: "PUT",
      headers: { "x-service-token": "fixed-token" },
      body: JSON.stringify({ workspaceId: "playground", messages: [] }),
    });
    assert.equal(response.status, 200);
    await response.body?.cancel();
    server.process.kill("SIGINT");
    assert.equal((await server.process.status).code, 0);
    await readFile(join(dir, "env.json"));
    await readFile(join(dir, "data", "sessions", "s1.json"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("a port in use stops the start with a clear message", async () => {
  const dir = await tempDir();
  const blocker = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const { port } = blocker.addr as Deno.NetAddr;
    const result = await run([
      "run",
      ...START_FLAGS,
      MAIN,
      "--port",
      String(port),
      "--config",
      join(dir, "service.json"),
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, new RegExp(`port ${port} is already in use`));
  } finally {
    blocker.close();
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("an invalid config file stops the start with its problems and stays untouched", async () => {
  const dir = await tempDir();
  try {
    const path = join(dir, "service.json");
    const text = '{"llms": [{"id": "a", "name": "A", "provider": "hosted-z", "model": "m"}]}';
    await writeFile(path, text);
    const result = await run(["run", ...START_FLAGS, MAIN, "--config", path, "--port", "0"]);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /the config is invalid:\n {2}llms\.0\.provider: /);
    assert.equal(result.stderr.match(/llms\.0\.provider/g)?.length, 1, "each problem once");
    assert.equal(await readFile(path, "utf8"), text);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("routes print no runtime warnings (POST /api/ui/generate, chat, llm/test, pages)", async () => {
  // The page needs the built UI (a clean checkout has none until a build).
  await buildUi({ ifStale: true });
  const dir = await tempDir();
  try {
    const server = await start(MAIN, [
      "--config",
      join(dir, "service.json"),
      "--data-dir",
      join(dir, "data"),
    ]);
    const base = `http://127.0.0.1:${server.port}`;
    const headers = { "x-service-token": server.token, "content-type": "application/json" };
    const calls: [string, string, unknown?][] = [
      ["POST", "/api/ui/generate", { prompt: "a small sign-up form" }],
      ["POST", "/api/chat", { messages: [{ role: "user", content: "add 2 and 3" }] }],
      ["POST", "/api/llm/test", {
        profile: {
          id: "demo",
          name: "Demo",
          provider: "compatible-api",
          model: "demo",
          baseURL: "service:demo",
        },
      }],
      ["GET", "/api/bootstrap"],
      ["GET", `/?token=${server.token}`],
    ];
    for (const [method, path, body] of calls) {
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      assert.ok(response.status < 500, `${method} ${path}: ${response.status}`);
      await response.text();
    }
    server.process.kill("SIGTERM");
    assert.equal((await server.process.status).code, 0);
    const stderr = await server.stderr;
    assert.doesNotMatch(stderr, /warn|deprecat|Deno\.serve/i, stderr);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** What `deno task start` needs: the server's sources and the web UI's, without a build. */
const START_SOURCES = [
  "deno.json",
  "deno.lock",
  "main.ts",
  "lass.ts",
  "cli",
  "core",
  "routes",
  "runtime",
  "wire",
  "islands",
  "static",
  "scripts",
  "schema",
];

Deno.test("a first `deno task start` builds the web UI inside the server once it listens: stdout is the ready line", async () => {
  const dir = await tempDir();
  try {
    const copy = join(dir, "lass");
    const root = new URL("../../", import.meta.url).pathname;
    for (const name of START_SOURCES) {
      await cp(join(root, name), join(copy, name), { recursive: true });
    }
    /** Starts the task, asks for the page (which waits for the build), and stops it. */
    const startAndOpen = async () => {
      const server = await startServer(Deno.execPath(), [
        "task",
        "start",
        "--port",
        "0",
        "--sandbox-port",
        "0",
      ], {
        cwd: copy,
        env: {
          LASS_CONFIG: join(dir, "service.json"),
          LASS_DATA_DIR: join(dir, "data"),
          LASS_TOKEN: "start-token",
        },
      });
      const page = await fetch(`${server.base}/?token=${server.token}`, {
        headers: { accept: "text/html" },
      });
      await page.body?.cancel();
      assert.equal(await stopServer(server), 0);
      return {
        status: page.status,
        stderr: await server.stderr,
        laterStdout: await server.laterStdout,
      };
    };
    // A build that fails says so on stderr; the API serves, the page says the UI is not built.
    const entry = join(copy, "islands", "app.tsx");
    const source = await readFile(entry, "utf8");
    await writeFile(entry, "export const broken = ;\n");
    const failed = await startAndOpen();
    assert.equal(failed.status, 503);
    assert.match(failed.stderr, /could not build the web UI/);
    // A build that works prints nothing, and the first page waits for it.
    await writeFile(entry, source);
    const built = await startAndOpen();
    assert.equal(built.status, 200, built.stderr);
    const said = built.stderr.split("\n").filter((line) => !/^Task |^$/.test(line));
    assert.deepEqual(said, [], "the build says nothing besides deno task's own line");
    assert.equal(built.laterStdout, "", "stdout is the ready line alone");
    assert.ok((await stat(join(copy, "build", "ui", "manifest.json"))).isFile());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
