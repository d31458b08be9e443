import assert from "node:assert/strict";
import { Router } from "../routes/router.ts";

const ok = (name: string) => () => new Response(name);
const router = new Router<object>({
  "/api/items": { GET: ok("list"), POST: ok("create") },
  "/api/items/:id": { GET: ok("get"), DELETE: ok("delete") },
  "/api/items/special": { GET: ok("special") },
});

Deno.test("router prefers a static path over a pattern that also matches", () => {
  const match = router.match("GET", "/api/items/special");
  assert.equal(match.kind, "found");
  assert.equal(match.kind === "found" && match.path, "/api/items/special");
});

Deno.test("router extracts decoded params from patterns", () => {
  const match = router.match("DELETE", "/api/items/a%20b");
  assert.equal(match.kind, "found");
  assert.deepEqual(match.kind === "found" && match.params, { id: "a b" });
});

Deno.test("router answers not-found for unknown paths and for extra segments", () => {
  assert.equal(router.match("GET", "/api/nothing").kind, "not-found");
  assert.equal(router.match("GET", "/api/items/a/b").kind, "not-found");
});

Deno.test("router answers method-not-allowed with the Allow list, HEAD included for GET", () => {
  assert.deepEqual(router.match("PUT", "/api/items"), {
    kind: "method-not-allowed",
    allow: "GET, POST, HEAD",
  });
});

Deno.test("router serves HEAD with the GET handler", async () => {
  const match = router.match("HEAD", "/api/items/x");
  assert.equal(match.kind, "found");
  if (match.kind === "found") {
    assert.equal(
      await (await match.handler(new Request("http://x"), { params: {} })).text(),
      "get",
    );
  }
});

Deno.test("router lists every route for table walks", () => {
  assert.deepEqual(router.routes.map((r) => `${r.method} ${r.path}`).sort(), [
    "DELETE /api/items/:id",
    "GET /api/items",
    "GET /api/items/:id",
    "GET /api/items/special",
    "POST /api/items",
  ]);
});
