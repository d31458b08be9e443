/** Bad input on every route of the table: malformed JSON, oversized bodies, wrong methods. */
import assert from "node:assert/strict";
import { LassError } from "../core/errors.ts";
import { ROUTES } from "../routes/table.ts";
import { responseForError } from "../routes/http.ts";
import { Router } from "../routes/router.ts";
import { readJsonResponse, startService } from "./_helpers.ts";

const router = new Router(ROUTES);
const bodyRoutes = router.routes.filter((r) => r.method === "POST" || r.method === "PUT");

/** Routes that accept an empty body (`curl -X POST` without data). */
const OPTIONAL_BODY = new Set([
  "/api/mcp/:id/connect",
  "/api/mcp/:id/disconnect",
  "/api/mcp/:id/signout",
  "/api/mcp/:id/ping",
  "/api/mcp/:id/refresh",
  "/api/mcp/:id/pins/accept",
  "/api/mcp/:id/tasks/:taskId/cancel",
  "/api/chat/runs/:runId/tool-calls/:callId/cancel",
  "/api/mcp/:id/calls/:callId/cancel",
  "/api/mcp/:id/conformance",
]);

/**
 * The MCP proxy speaks JSON-RPC, not the API's error body: malformed JSON is 400 with a JSON-RPC
 * parse error (-32700), as the Streamable HTTP transport says (tested below).
 */
const MCP_WIRE = new Set(["/mcp/:id"]);

/** A concrete path for a route: ids of things that exist where the route checks the id first. */
function concrete(path: string, t: Awaited<ReturnType<typeof startService>>): string {
  if (path === "/api/interactions/:id") {
    const { interaction, response } = t.service.interactions.create({
      kind: "approval",
      tool: "t",
      input: {},
    });
    response.catch(() => {});
    return `/api/interactions/${interaction.id}`;
  }
  return path.replace(/:(\w+)/g, "some-id");
}

Deno.test("every route that takes a body answers malformed JSON with 400 invalid-json", async () => {
  const t = await startService();
  try {
    assert.ok(bodyRoutes.length >= 4);
    for (const { method, path } of bodyRoutes.filter((r) => !MCP_WIRE.has(r.path))) {
      // Routes whose body is optional take an empty body as `{}`.
      const optional = OPTIONAL_BODY.has(path);
      for (const body of ["{", "not json", '{"a": 1,}', ...(optional ? [] : [""])]) {
        const { status, body: error } = await readJsonResponse(
          await t.call(concrete(path, t), { method, body }),
        );
        assert.deepEqual(
          [status, error.error.code],
          [400, "invalid-json"],
          `${method} ${path} ${body}`,
        );
        assert.match(error.error.message, /not valid JSON/);
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("the MCP proxy answers malformed JSON with 400 and a JSON-RPC parse error", async () => {
  const t = await startService({
    config: {
      mcpServers: [{ id: "demo", name: "Demo", transport: "stdio", command: "service:demo" }],
    },
  });
  try {
    for (const body of ["{", "not json", '{"a": 1,}', "", "[]", "42"]) {
      const { status, body: error } = await readJsonResponse(
        await t.call("/mcp/demo", { method: "POST", body }),
      );
      assert.deepEqual([status, error.error.code, error.id], [400, -32700, null], body);
    }
  } finally {
    await t.close();
  }
});

Deno.test("every route that takes a body refuses more than 10 MiB with 413 too-large", async () => {
  const t = await startService();
  try {
    const big = JSON.stringify({ padding: "x".repeat(10 * 1024 * 1024 + 10) });
    for (const { method, path } of bodyRoutes) {
      const { status, body } = await readJsonResponse(
        await t.call(concrete(path, t), { method, body: big }),
      );
      assert.deepEqual([status, body.error.code], [413, "too-large"], `${method} ${path}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("every path answers a method it does not have with 405 and an Allow header", async () => {
  const t = await startService();
  try {
    const byPath = new Map<string, string[]>();
    for (const { method, path } of router.routes) {
      byPath.set(path, [...byPath.get(path) ?? [], method]);
    }
    for (const [path, methods] of byPath) {
      const missing = ["GET", "POST", "PUT", "DELETE", "PATCH"].find((m) => !methods.includes(m))!;
      const response = await t.call(concrete(path, t), {
        method: missing,
        body: missing === "GET" ? undefined : "{}",
      });
      const { status, body } = await readJsonResponse(response);
      assert.deepEqual(
        [status, body.error.code],
        [405, "method-not-allowed"],
        `${missing} ${path}`,
      );
      const allow = response.headers.get("allow")!.split(", ");
      for (const method of methods) assert.ok(allow.includes(method), `${path} allows ${method}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("routes with an id answer an unknown id with 404 not-found", async () => {
  const t = await startService();
  try {
    const cases: [string, string, unknown?][] = [
      ["GET", "/api/sessions/unknown"],
      ["DELETE", "/api/sessions/unknown"],
      ["POST", "/api/interactions/unknown", { response: { approved: true } }],
      ["POST", "/api/interactions/unknown", { wrong: "shape" }],
    ];
    for (const [method, path, json] of cases) {
      const { status, body } = await readJsonResponse(await t.call(path, { method, json }));
      assert.deepEqual([status, body.error.code], [404, "not-found"], `${method} ${path}`);
    }
  } finally {
    await t.close();
  }
});

Deno.test("the error boundary turns an unexpected error into 500 internal without a stack", async () => {
  const logged: string[] = [];
  const error = new Error("disk on fire");
  const response = responseForError(error, (line) => logged.push(line));
  const { status, body } = await readJsonResponse(response);
  assert.deepEqual([status, body], [500, {
    error: { code: "internal", message: "unexpected error: disk on fire" },
  }]);
  assert.ok(logged[0].includes(error.stack!), "the stack goes to the log only");
  const expected = responseForError(
    new LassError("not-found", "gone"),
    (line) => logged.push(line),
  );
  assert.equal(expected.status, 404);
  await expected.body?.cancel();
  assert.equal(logged.length, 1, "4xx are not logged");
});
