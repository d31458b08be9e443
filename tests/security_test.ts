import assert from "node:assert/strict";
import { isLoopbackName } from "../core/host_names.ts";
import { ROUTES } from "../routes/table.ts";
import { Router } from "../routes/router.ts";
import { OPEN_ROUTES, tokensMatch } from "../routes/security.ts";
import { readJsonResponse, startService, TOKEN } from "./_helpers.ts";

Deno.test("every route except health and the OAuth callback answers 401 without the token", async () => {
  const t = await startService();
  try {
    const routes = new Router(ROUTES).routes;
    assert.ok(routes.length >= 12, "the route table is walked, not an empty list");
    for (const { method, path } of routes) {
      if (OPEN_ROUTES.has(`${method} ${path}`)) continue;
      const concrete = path.replace(/:(\w+)/g, "x");
      for (const token of [null, "wrong-token", ""]) {
        const response = await t.call(concrete, {
          method,
          token,
          body: ["GET", "HEAD"].includes(method) ? undefined : "{}",
        });
        const { status, body } = await readJsonResponse(response);
        assert.equal(status, 401, `${method} ${concrete} with token ${token} → ${status}`);
        assert.equal(body.error.code, "unauthorized");
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("the token is accepted in the header and in the query", async () => {
  const t = await startService();
  try {
    assert.equal((await t.call("/api/bootstrap")).status, 200);
    const viaQuery = await t.call(`/api/bootstrap?token=${TOKEN}`, { token: null });
    assert.equal(viaQuery.status, 200);
    await viaQuery.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("unknown paths need the token too, then answer 404", async () => {
  const t = await startService();
  try {
    assert.equal((await readJsonResponse(await t.call("/api/nope", { token: null }))).status, 401);
    const { status, body } = await readJsonResponse(await t.call("/api/nope"));
    assert.equal(status, 404);
    assert.equal(body.error.code, "not-found");
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/health needs no token", async () => {
  const t = await startService();
  try {
    const { status, body } = await readJsonResponse(await t.call("/api/health", { token: null }));
    assert.equal(status, 200);
    assert.equal(body.ok, true);
    assert.match(body.version, /^\d+\.\d+\.\d+/);
  } finally {
    await t.close();
  }
});

Deno.test("a non-loopback Host is refused with 403 forbidden-host, even with the token", async () => {
  const t = await startService();
  try {
    for (
      const host of ["evil.example.com", "evil.example.com:7420", "192.168.1.5:7420", "", ":7420"]
    ) {
      const { status, body } = await readJsonResponse(
        await t.call("/api/health", { headers: { host } }),
      );
      assert.equal(status, 403, host);
      assert.equal(body.error.code, "forbidden-host");
    }
    for (const host of ["localhost:7420", "127.0.0.1:7420", "[::1]:7420", "app.localhost"]) {
      const response = await t.call("/api/health", { headers: { host } });
      assert.equal(response.status, 200, host);
      await response.body?.cancel();
    }
  } finally {
    await t.close();
  }
});

Deno.test("a foreign Origin is refused with 403 forbidden-origin; the own origin is fine", async () => {
  const t = await startService();
  try {
    for (const origin of ["http://evil.example.com", "null", "http://127.0.0.1:9999"]) {
      const { status, body } = await readJsonResponse(
        await t.call("/api/bootstrap", { headers: { origin } }),
      );
      assert.equal(status, 403, origin);
      assert.equal(body.error.code, "forbidden-origin");
    }
    const own = await t.call("/api/bootstrap", { headers: { origin: "http://127.0.0.1:7420" } });
    assert.equal(own.status, 200);
    await own.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("API responses say nosniff; pages also forbid framing, referrers and caching", async () => {
  const t = await startService();
  try {
    const api = await t.call("/api/bootstrap");
    await api.body?.cancel();
    assert.equal(api.headers.get("x-content-type-options"), "nosniff");
    const error = await t.call("/api/nothing");
    await error.body?.cancel();
    assert.equal(error.headers.get("x-content-type-options"), "nosniff");
    const page = await t.call("/");
    await page.body?.cancel();
    assert.equal(page.headers.get("content-type"), "text/html; charset=utf-8");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    assert.equal(page.headers.get("x-frame-options"), "DENY");
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.match(page.headers.get("content-security-policy")!, /default-src 'none'/);
  } finally {
    await t.close();
  }
});

Deno.test("HEAD answers like GET without a body", async () => {
  const t = await startService();
  try {
    const response = await t.call("/api/bootstrap", { method: "HEAD" });
    assert.equal(response.status, 200);
    assert.equal(response.body, null);
  } finally {
    await t.close();
  }
});

Deno.test("tokensMatch compares whole tokens", async () => {
  assert.equal(await tokensMatch("abc", "abc"), true);
  assert.equal(await tokensMatch("abc", "abd"), false);
  assert.equal(await tokensMatch("ab", "abc"), false);
  assert.equal(await tokensMatch("", "abc"), false);
  assert.equal(await tokensMatch("abcd", "abc"), false, "a longer guess with the right prefix");
  assert.equal(await tokensMatch("", ""), true);
  assert.equal(await tokensMatch("é", "e\u0301"), false, "bytes, not what they look like");
  const token = "x".repeat(64);
  assert.equal(await tokensMatch(token, token.slice()), true);
  assert.equal(await tokensMatch(`${token}y`, token), false);
});

Deno.test("the token compare is the one docs/security.md describes: SHA-256 and timingSafeEqual", async () => {
  const source = await Deno.readTextFile(new URL("../routes/security.ts", import.meta.url));
  const docs = await Deno.readTextFile(new URL("../docs/security.md", import.meta.url));
  assert.match(docs, /hashed with SHA-256 and the digests compared\s+with `timingSafeEqual`/);
  assert.match(
    source,
    /\{ createHash, timingSafeEqual \} = await \(loadedCrypto \?\?= import\("node:crypto"\)\)/,
  );
  assert.match(source, /createHash\("sha256"\)/);
});

Deno.test("isLoopbackName knows loopback names and nothing else", () => {
  for (const name of ["localhost", "127.0.0.1", "127.1.2.3", "::1", "x.localhost"]) {
    assert.equal(isLoopbackName(name), true, name);
  }
  for (const name of ["0.0.0.0", "10.0.0.1", "localhost.evil.com", "127.0.0.1.nip.io", ""]) {
    assert.equal(isLoopbackName(name), false, name);
  }
});

Deno.test("paths are normalised before routing, so no spelling reaches a route without the token", async () => {
  const t = await startService();
  try {
    for (
      const path of [
        "/api/x/../bootstrap",
        "/api/health/../bootstrap",
        "/api/%62ootstrap",
        "//api/bootstrap",
      ]
    ) {
      const { status } = await readJsonResponse(await t.call(path, { token: null }));
      assert.ok(status === 401 || status === 404, `${path} → ${status}`);
      assert.notEqual(status, 200);
    }
    const normalised = await t.call("/api/x/../bootstrap");
    assert.equal(normalised.status, 200, "with the token the normalised path is served");
    await normalised.body?.cancel();
  } finally {
    await t.close();
  }
});
