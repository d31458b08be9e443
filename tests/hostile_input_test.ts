/** Hostile input is 4xx, never 500: malformed `Host`, no `Host`, deep JSON, and a fuzz sweep of every route. */
import assert from "node:assert/strict";
import { createHandler } from "../routes/app.ts";
import { ROUTES } from "../routes/table.ts";
import { checkJsonDepth, MAX_JSON_DEPTH } from "../routes/body.ts";
import { Router } from "../routes/router.ts";
import { createSandboxHandler } from "../routes/sandbox.ts";
import { readJsonResponse, startService, TOKEN } from "./_helpers.ts";
import { startFakeRegistry } from "./fixtures/fake_registry.ts";
import { DEFAULT_REGISTRY_URL } from "../wire/config/field_defaults.ts";

/** Sends one raw HTTP/1.1 request head and reads the answer until the server closes. */
async function raw(port: number, head: string): Promise<{ status: number; body: string }> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  await conn.write(new TextEncoder().encode(`${head}Connection: close\r\n\r\n`));
  const chunks: Uint8Array[] = [];
  const buffer = new Uint8Array(16 * 1024);
  for (;;) {
    const n = await conn.read(buffer);
    if (n === null) break;
    chunks.push(buffer.slice(0, n));
  }
  conn.close();
  const text = new TextDecoder().decode(new Uint8Array(chunks.flatMap((chunk) => [...chunk])));
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
}

/** Arrays nested `levels` deep. */
const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
/** Objects nested `levels` deep, `{"a":{"a":...1}}`. */
const deepObject = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);

Deno.test("over the network, a malformed or empty Host is 403 and a missing Host is 400", async () => {
  const t = await startService();
  const logged: string[] = [];
  const handler = createHandler({
    service: t.service,
    token: TOKEN,
    requireHostHeader: true,
    log: (line) => logged.push(line),
  });
  const app = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const sandbox = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    createSandboxHandler({ requireHostHeader: true }),
  );
  try {
    for (const server of [app, sandbox]) {
      const { port } = server.addr;
      const get = (host: string | null) =>
        raw(port, `GET /api/health HTTP/1.1\r\n${host === null ? "" : `Host: ${host}\r\n`}`);
      for (const host of ["[evil.com]", "", "[::1", "a b", "evil.com@127.0.0.1", "[zz]:1"]) {
        const { status, body } = await get(host);
        assert.equal(status, 403, `Host ${JSON.stringify(host)} on port ${port}`);
        assert.equal(JSON.parse(body).error.code, "forbidden-host");
      }
      const missing = await get(null);
      assert.equal(missing.status, 400, "no Host");
      assert.equal(JSON.parse(missing.body).error.code, "invalid-request");
      assert.match(JSON.parse(missing.body).error.message, /no Host header/);
      // A request that names the loopback address still gets in.
      assert.notEqual((await get(`127.0.0.1:${port}`)).status, 403);
      assert.notEqual((await get(`[::1]:${port}`)).status, 403);
    }
    assert.deepEqual(logged, [], "nothing reached the 500 boundary");
  } finally {
    await app.shutdown();
    await sandbox.shutdown();
    await t.close();
  }
});

Deno.test("in process, a Request without Host is checked by its URL's host", async () => {
  const t = await startService();
  try {
    assert.equal((await t.call("/api/health")).status, 200);
    const foreign = await t.handler(new Request("http://evil.example.com/api/health"));
    assert.equal((await readJsonResponse(foreign)).body.error.code, "forbidden-host");
    const strict = createHandler({ service: t.service, token: TOKEN, requireHostHeader: true });
    const refused = await strict(new Request("http://127.0.0.1:7420/api/health"));
    assert.equal(refused.status, 400);
    await refused.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("JSON nested deeper than 64 levels is 400 invalid-json on every JSON route", async () => {
  const t = await startService();
  try {
    const bodies = [
      deep(6000),
      deepObject(6000),
      `{"workspaceId": "main", "messages": [{"role": "user", "content": ${deep(6000)}}]}`,
    ];
    for (
      const [method, path] of [["PUT", "/api/config"], ["PUT", "/api/sessions/s1"], [
        "POST",
        "/api/chat",
      ]]
    ) {
      for (const body of bodies) {
        const { status, body: error } = await readJsonResponse(
          await t.call(path, { method, body }),
        );
        assert.deepEqual([status, error.error.code], [400, "invalid-json"], `${method} ${path}`);
        assert.match(error.error.message, /more than 64 levels deep/);
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("the depth check counts brackets outside strings only", () => {
  checkJsonDepth(deep(MAX_JSON_DEPTH));
  assert.throws(() => checkJsonDepth(deep(MAX_JSON_DEPTH + 1)), /more than 64 levels/);
  checkJsonDepth(JSON.stringify({ text: "[".repeat(1000) + '\\"{{{' }));
  checkJsonDepth(`["\\\\", ${deep(MAX_JSON_DEPTH - 1)}]`);
  assert.throws(() => checkJsonDepth(`["\\\\", ${deep(MAX_JSON_DEPTH)}]`), /64 levels/);
});

type Body = string | Uint8Array<ArrayBuffer> | undefined;

/** Bodies a careless or hostile client sends: wrong types, huge strings, deep nesting, bad bytes. */
function corpus(): Body[] {
  const huge = "x".repeat(1024 * 1024);
  const bytes = (...values: number[]) => new Uint8Array(values);
  return [
    "null",
    "[]",
    '"text"',
    "-1e999",
    "true",
    "{}",
    '{"id": 5, "name": [], "messages": "x", "version": "one", "url": {}}',
    '{"messages": [{"role": 5, "content": {}}], "workspaceId": [], "sessionId": 7}',
    '{"messages": [null], "llmId": {"a": 1}, "response": []}',
    '{"llms": {}, "mcpServers": "x", "workspaces": [1], "activeWorkspaceId": null}',
    JSON.stringify({ content: huge, id: huge, url: `http://${huge}` }),
    JSON.stringify({ messages: [{ role: "user", content: huge }], workspaceId: huge }),
    deep(6000),
    deepObject(6000),
    deepObject(65),
    `{"workspaceId": "main", "messages": [{"role": "user", "content": ${deep(6000)}}]}`,
    `{"messages": [{"role": "user", "content": "hi"}], "workspaceId": ${deepObject(3000)}}`,
    bytes(0xff, 0xfe, 0xfd),
    new Uint8Array([...new TextEncoder().encode('{"id": "'), 0xc3, 0x28, 0xff, 0x22, 0x7d]),
    '{"id": "a", "id": "b", "name": "x", "name": 1}',
    '{"version": 1, "version": "2", "llms": [], "llms": {}}',
    '{"__proto__": {"polluted": true}, "constructor": {"prototype": {}}}',
    '{"id": "\\ud800", "name": "\\u0000"}',
  ];
}

Deno.test("a fuzz sweep of every route of the table answers no 500", async () => {
  // The registry routes ask a fake registry on loopback, never the internet (the sweep's
  // `PUT /api/config` puts back the default registryUrl).
  const registry = startFakeRegistry();
  const t = await startService({
    registry: {
      fetch: (input, init) =>
        fetch(String(input).replace(DEFAULT_REGISTRY_URL, registry.url), init),
    },
  });
  const logged: string[] = [];
  const handler = createHandler({
    service: t.service,
    token: TOKEN,
    llmTimeoutMs: 2_000,
    log: (line) => logged.push(line),
  });
  const routes = new Router(ROUTES).routes;
  const query = `?since=%ff&limit=-1&csp=%7B&redact=[]&cursor=${"9".repeat(400)}&token=%00`;
  const failures: string[] = [];
  try {
    assert.ok(routes.length >= 40, "the sweep sees the whole table");
    for (const { method, path } of routes) {
      const concrete = path.replace(/:(\w+)/g, "fuzz-id");
      // The corpus with a plain URL, and one more request with hostile query values.
      const noBody = method === "GET" || method === "DELETE";
      const cases: [string, Body][] = [
        ...(noBody ? [undefined] : corpus()).map((body): [string, Body] => ["", body]),
        [query, noBody ? undefined : "{}"],
      ];
      for (const [search, body] of cases) {
        const response = await handler(
          new Request(`http://127.0.0.1:7420${concrete}${search}`, {
            method,
            body,
            headers: { "x-service-token": TOKEN, "content-type": "application/json" },
          }),
        );
        const status = response.status;
        await response.body?.cancel();
        if (status >= 500 && status !== 502 && status !== 504) {
          const shown = typeof body === "string" ? body.slice(0, 60) : String(body);
          failures.push(`${method} ${path}${search} ${shown}: ${status}`);
        }
      }
    }
    assert.deepEqual(failures, [], "requests that answered 5xx");
    assert.deepEqual(logged, [], "nothing reached the 500 boundary");
  } finally {
    await t.close();
    await registry.close();
  }
});
