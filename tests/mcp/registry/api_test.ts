/**
 * The MCP Registry against a fake registry on loopback: search and pages, versions, the cache,
 * failures to reach it, and `POST /api/registry/add` for each package type and remotes.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import {
  type Json,
  post,
  readJsonResponse,
  startService,
  type TestService,
} from "../../_helpers.ts";
import { freePort } from "../../_everything.ts";
import {
  EVERYTHING_VERSION,
  type FakeRegistry,
  startFakeRegistry,
} from "../../fixtures/fake_registry.ts";

const EVERYTHING_NAME = "io.github.modelcontextprotocol/server-everything";

/** A service whose config points at `registryUrl`, with a clock the test moves. */
async function withRegistry(
  registryUrl: string,
  run: (t: TestService, clock: { ms: number }) => Promise<void>,
): Promise<void> {
  const clock = { ms: 1_000_000 };
  const t = await startService({
    config: { version: 1, registryUrl, mcpServers: [] },
    registry: { now: () => clock.ms, timeoutMs: 10_000 },
  });
  try {
    await run(t, clock);
  } finally {
    await t.close();
  }
}

async function withFake(
  run: (t: TestService, fake: FakeRegistry, clock: { ms: number }) => Promise<void>,
) {
  const fake = startFakeRegistry();
  try {
    await withRegistry(fake.url, (t, clock) => run(t, fake, clock));
  } finally {
    await fake.close();
  }
}

async function get(t: TestService, path: string): Promise<{ status: number; body: Json }> {
  return await readJsonResponse(await t.call(path));
}

Deno.test("GET /api/registry/servers pages through the latest versions and searches descriptions", async () => {
  await withFake(async (t) => {
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const query = `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const { status, body } = await get(t, `/api/registry/servers?${query}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.ok(body.servers.length <= 2);
      names.push(...body.servers.map((entry: Json) => entry.server.name));
      cursor = body.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    assert.equal(pages, 3);
    assert.deepEqual(names, [
      "com.example/remote-api",
      "io.github.example/database",
      "io.github.example/sample-nuget",
      "io.github.example/text-editor",
      "io.github.example/weather",
      EVERYTHING_NAME,
    ]);
    const all = await get(t, "/api/registry/servers?version=all&limit=100");
    assert.equal(all.body.servers.length, 7, "both versions of server-everything");
    const { body } = await get(t, "/api/registry/servers?search=FORECASTS");
    assert.deepEqual(body.servers.map((entry: Json) => entry.server.name), [
      "io.github.example/weather",
    ]);
    const weather = body.servers[0];
    assert.deepEqual(weather.server.futureField, { kept: true }, "unknown fields are kept");
    assert.equal(weather.official.isLatest, true);
    assert.equal(weather.official.publishedAt, "2025-11-02T09:00:00Z");
    assert.equal(body.registryUrl, t.service.config.config.registryUrl);
  });
});

Deno.test("GET /api/registry/versions lists a server's versions newest first; an unknown one is 404", async () => {
  await withFake(async (t) => {
    const { status, body } = await get(
      t,
      `/api/registry/versions?name=${encodeURIComponent(EVERYTHING_NAME)}`,
    );
    assert.equal(status, 200);
    assert.deepEqual(
      body.versions.map((entry: Json) => [entry.server.version, entry.official.isLatest]),
      [[EVERYTHING_VERSION, true], ["2025.9.25", false]],
    );
    assert.equal(body.versions[0].server.packages[0].registryType, "npm");
    const missing = await get(t, "/api/registry/versions?name=io.example%2Fnope");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, "not-found");
    assert.match(
      missing.body.error.message,
      /has no the server io\.example\/nope|io\.example\/nope/,
    );
  });
});

Deno.test("registry answers are cached for 5 minutes: a second search within them does not reach the registry", async () => {
  await withFake(async (t, fake, clock) => {
    const path = "/api/registry/servers?search=weather";
    assert.equal((await get(t, path)).status, 200);
    assert.equal(fake.requests.length, 1);
    clock.ms += 4 * 60_000;
    assert.equal((await get(t, path)).status, 200);
    assert.equal(fake.requests.length, 1, "the second call was answered from the cache");
    assert.equal((await get(t, "/api/registry/servers?search=other")).status, 200);
    assert.equal(fake.requests.length, 2, "another query asks the registry");
    clock.ms += 61_000;
    assert.equal((await get(t, path)).status, 200);
    assert.equal(fake.requests.length, 3, "after 5 minutes the registry is asked again");
    assert.deepEqual(fake.requests.map((request) => request.split("?")[0]), [
      "/v0.1/servers",
      "/v0.1/servers",
      "/v0.1/servers",
    ]);
  });
});

Deno.test("a registry answering 5xx or not reachable is a 502 naming the URL and the cause; failures are not cached", async () => {
  await withFake(async (t, fake) => {
    fake.failWith = 503;
    const failed = await get(t, "/api/registry/servers");
    assert.equal(failed.status, 502);
    assert.equal(failed.body.error.code, "upstream-error");
    assert.match(failed.body.error.message, new RegExp(`registry at ${fake.url} answered 503`));
    assert.match(failed.body.error.message, /Service Unavailable/);
    fake.failWith = null;
    assert.equal((await get(t, "/api/registry/servers")).status, 200, "the 503 was not cached");
  });
  const closed = `http://127.0.0.1:${freePort()}`;
  await withRegistry(closed, async (t) => {
    const { status, body } = await get(t, "/api/registry/servers?search=x");
    assert.equal(status, 502);
    assert.equal(body.error.code, "upstream-error");
    assert.match(body.error.message, new RegExp(`registry at ${closed} cannot be reached \\(`));
    assert.match(body.error.message, /proxy/);
    const add = await post(t, "/api/registry/add", { name: "a/b", version: "1", package: 0 });
    assert.equal(add.status, 502);
  });
});

Deno.test("a registry URL that answers something else (a proxy's page) is a 502 saying so", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      new Response("<html>Sign in to the proxy</html>", {
        headers: { "content-type": "text/html" },
      }),
  );
  try {
    await withRegistry(`http://127.0.0.1:${server.addr.port}`, async (t) => {
      const { status, body } = await get(t, "/api/registry/servers");
      assert.equal(status, 502);
      assert.match(body.error.message, /not the registry API \(not JSON\)/);
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("POST /api/registry/add makes npm, pypi, oci and nuget packages into stdio records", async () => {
  await withFake(async (t) => {
    const add = (name: string, extra: Record<string, unknown> = {}) =>
      post(t, "/api/registry/add", {
        name,
        version: "latest",
        package: 0,
        preview: true,
        ...extra,
      });
    const npm = await add(EVERYTHING_NAME);
    assert.equal(npm.status, 200, JSON.stringify(npm.body));
    assert.deepEqual(npm.body.server, {
      id: "server-everything",
      name: "Everything",
      transport: "stdio",
      command: "npx",
      args: ["-y", `@modelcontextprotocol/server-everything@${EVERYTHING_VERSION}`],
    });
    assert.equal(npm.body.saved, false);
    assert.deepEqual(npm.body.envVariables, []);

    const pypi = await add("io.github.example/weather");
    assert.deepEqual(pypi.body.server, {
      id: "weather",
      name: "weather",
      transport: "stdio",
      command: "uvx",
      args: ["weather-mcp-server==0.5.0"],
      env: { WEATHER_API_KEY: "env:WEATHER_API_KEY", WEATHER_UNITS: "celsius" },
    });
    assert.deepEqual(pypi.body.envVariables, ["WEATHER_API_KEY"]);
    assert.deepEqual(pypi.body.inputs[0], {
      key: "env.WEATHER_API_KEY",
      label: "env WEATHER_API_KEY",
      description: "API key",
      isRequired: true,
      isSecret: true,
      variable: "WEATHER_API_KEY",
    });

    const oci = await add("io.github.example/database", {
      inputs: { "runtimeArguments.0.source_path": "/srv/data", "packageArguments.1": "5432" },
    });
    assert.deepEqual(oci.body.server.args, [
      "run",
      "-i",
      "--rm",
      "--mount",
      "type=bind,src=/srv/data,dst=/project",
      "-e",
      "DB_PASSWORD",
      "-e",
      "SSL_MODE",
      "docker.io/example/database-mcp:3.1.0",
      "--host",
      "localhost",
      "--port",
      "5432",
      "env:DATABASE_NAME",
    ]);
    assert.equal(oci.body.server.command, "docker");
    assert.deepEqual(oci.body.server.env, { DB_PASSWORD: "env:DB_PASSWORD", SSL_MODE: "prefer" });
    assert.deepEqual(oci.body.envVariables, ["DB_PASSWORD", "DATABASE_NAME"]);
    const withoutPort = await add("io.github.example/database");
    assert.ok(withoutPort.body.notes.includes("optional argument --port was left out"));
    assert.ok(
      withoutPort.body.server.args.includes("type=bind,src=${DATABASE_SOURCE_PATH},dst=/project"),
    );

    const nuget = await add("io.github.example/sample-nuget", {
      inputs: { "env.WEATHER_CHOICES": "sunny,rainy" },
    });
    assert.deepEqual(nuget.body.server, {
      id: "sample-nuget",
      name: "sample-nuget",
      transport: "stdio",
      command: "dnx",
      args: ["Knapcode.SampleMcpServer@0.5.0", "--yes", "--", "mcp", "start"],
      env: { WEATHER_CHOICES: "sunny,rainy" },
    });
  });
});

Deno.test("POST /api/registry/add refuses an mcpb bundle, a secret's value and a bad choice clearly", async () => {
  await withFake(async (t) => {
    const mcpb = await post(t, "/api/registry/add", {
      name: "io.github.example/text-editor",
      version: "1.0.2",
      package: 0,
    });
    assert.equal(mcpb.status, 400);
    assert.match(
      mcpb.body.error.message,
      /MCP bundle \(mcpb\), which Lass does not install or run/,
    );
    assert.match(mcpb.body.error.message, /SHA-256 fe333e59/);
    const secret = await post(t, "/api/registry/add", {
      name: "io.github.example/weather",
      version: "0.5.0",
      package: 0,
      inputs: { "env.WEATHER_API_KEY": "sk-literal" },
    });
    assert.equal(secret.status, 400);
    assert.deepEqual(secret.body.error.details, [
      { path: "inputs.env.WEATHER_API_KEY", message: "is a secret; leave it out" },
    ]);
    const choice = await post(t, "/api/registry/add", {
      name: "io.github.example/database",
      version: "3.1.0",
      package: 0,
      inputs: { "env.SSL_MODE": "sometimes" },
    });
    assert.equal(choice.status, 400);
    assert.match(choice.body.error.details[0].message, /disable, prefer, require/);
    const both = await post(t, "/api/registry/add", {
      name: "io.github.example/database",
      version: "3.1.0",
      package: 0,
      remote: 0,
    });
    assert.equal(both.status, 400);
    const unknownVersion = await post(t, "/api/registry/add", {
      name: EVERYTHING_NAME,
      version: "9.9.9",
      package: 0,
    });
    assert.equal(unknownVersion.status, 404);
    assert.equal(
      JSON.parse(await readFile(t.configPath, "utf8")).mcpServers.length,
      0,
      "nothing was written",
    );
  });
});

Deno.test("POST /api/registry/add saves remotes as http and sse records with secret headers as env references", async () => {
  await withFake(async (t) => {
    const http = await post(t, "/api/registry/add", {
      name: "com.example/remote-api",
      version: "2.0.0",
      remote: 0,
      inputs: { "url.tenant": "acme", "headers.X-Region": "eu-west-1" },
    });
    assert.equal(http.status, 200, JSON.stringify(http.body));
    assert.deepEqual(http.body.server, {
      id: "remote-api",
      name: "Example Remote",
      transport: "http",
      url: "https://acme.mcp.example.com/mcp",
      headers: { Authorization: "Bearer ${REMOTE_API_TOKEN}", "X-Region": "eu-west-1" },
    });
    assert.deepEqual(http.body.envVariables, ["REMOTE_API_TOKEN"]);
    assert.equal(http.body.saved, true);
    const sse = await post(t, "/api/registry/add", {
      name: "com.example/remote-api",
      version: "latest",
      remote: 1,
    });
    assert.deepEqual(sse.body.server, {
      id: "remote-api-2",
      name: "Example Remote",
      transport: "sse",
      url: "https://mcp.example.com/sse",
      headers: { "X-API-Key": "env:REMOTE_API_X_API_KEY" },
    });
    const stored = JSON.parse(await readFile(t.configPath, "utf8"));
    assert.deepEqual(stored.mcpServers, [http.body.server, sse.body.server]);
    assert.deepEqual(t.service.config.config.mcpServers.map((server) => server.id), [
      "remote-api",
      "remote-api-2",
    ]);
    const taken = await post(t, "/api/registry/add", {
      name: "com.example/remote-api",
      version: "2.0.0",
      remote: 1,
      id: "remote-api",
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.code, "conflict");
  });
});

/**
 * A stand-in `npx` on PATH that runs `npx -y <package>@<version> [args]` from Deno's npm cache,
 * so the record the registry added runs unchanged without the network.
 */
async function npxFromDenoCache(): Promise<{ dir: string; restore: () => Promise<void> }> {
  const dir = await Deno.makeTempDir({ prefix: "lass-npx-" });
  await Deno.writeTextFile(
    `${dir}/npx`,
    `#!/bin/sh\n[ "$1" = "-y" ] && shift\nspec="$1"\nshift\n` +
      `exec "${Deno.execPath()}" run -A "npm:$spec" "$@"\n`,
    { mode: 0o755 },
  );
  const path = Deno.env.get("PATH") ?? "";
  Deno.env.set("PATH", `${dir}:${path}`);
  return {
    dir,
    restore: async () => {
      Deno.env.set("PATH", path);
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("the record added for server-everything from the registry connects and lists its tools", async () => {
  const npx = await npxFromDenoCache();
  try {
    await withFake(async (t) => {
      const added = await post(t, "/api/registry/add", {
        name: EVERYTHING_NAME,
        version: EVERYTHING_VERSION,
        package: 0,
      });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      assert.equal(added.body.server.command, "npx");
      const { status, body } = await post(t, `/api/mcp/${added.body.server.id}/connect`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.status, "connected", body.error);
      assert.match(body.serverInfo.name, /everything/);
      const tools = body.tools.map((tool: Json) => tool.name);
      assert.ok(tools.includes("echo"), `tools: ${tools.join(", ")}`);
    });
  } finally {
    await npx.restore();
  }
});

Deno.test("a malformed server in a registry page is left out; the others are listed", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () =>
      Response.json({
        servers: [
          { server: { description: "no name" } },
          { server: { name: "io.example/fine", version: "1.0.0", remotes: [{ type: "sse" }] } },
        ],
        metadata: { count: 2, nextCursor: "" },
      }),
  );
  try {
    await withRegistry(`http://127.0.0.1:${server.addr.port}`, async (t) => {
      const { status, body } = await get(t, "/api/registry/servers");
      assert.equal(status, 200);
      assert.deepEqual(body.servers.map((entry: Json) => entry.server.name), ["io.example/fine"]);
      assert.equal(body.nextCursor, undefined, "an empty cursor means the last page");
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("the registry routes refuse bad queries and bodies with their paths, before asking the registry", async () => {
  await withFake(async (t, fake) => {
    const limit = await get(t, "/api/registry/servers?limit=0");
    assert.equal(limit.status, 400);
    assert.deepEqual(limit.body.error.details, [
      { path: "limit", message: "must be an integer from 1 to 100" },
    ]);
    const noName = await get(t, "/api/registry/versions");
    assert.equal(noName.status, 400);
    assert.equal(noName.body.error.details[0].path, "name");
    const neither = await post(t, "/api/registry/add", { name: "a/b", version: "1" });
    assert.equal(neither.status, 400);
    assert.deepEqual(neither.body.error.details, [
      { path: "package", message: "name exactly one of package and remote" },
    ]);
    const unknown = await post(t, "/api/registry/add", {
      name: "a/b",
      version: "1",
      remote: 0,
      headers: {},
    });
    assert.equal(unknown.status, 400);
    assert.deepEqual(fake.requests, [], "the registry was not asked");
    const noSuchRemote = await post(t, "/api/registry/add", {
      name: "io.github.example/weather",
      version: "0.5.0",
      remote: 0,
    });
    assert.equal(noSuchRemote.status, 400);
    assert.deepEqual(noSuchRemote.body.error.details, [
      { path: "remote", message: "this version has no remotes" },
    ]);
  });
});

Deno.test("a registryUrl whose env reference is not set is a 400 invalid-config naming the field", async () => {
  await withRegistry("env:LASS_TEST_REGISTRY_UNSET", async (t) => {
    const { status, body } = await get(t, "/api/registry/servers");
    assert.equal(status, 400);
    assert.equal(body.error.code, "invalid-config");
    assert.deepEqual(body.error.details[0].path, "registryUrl");
  });
});
