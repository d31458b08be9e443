/** The MCP Apps sandbox port: only its proxy page, a CSP from the query, no token, no API. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHandler } from "../routes/app.ts";
import { createSandboxHandler, parseSandboxCsp, sandboxCsp } from "../routes/sandbox.ts";
import { buildUi } from "../scripts/build_ui.ts";
import { startService, TOKEN } from "./_helpers.ts";

const SANDBOX = "http://127.0.0.1:7421";
const APP = "http://127.0.0.1:7420";

const handler = createSandboxHandler({
  appOrigin: (url) => `${url.protocol}//${url.hostname}:7420`,
});

function get(path: string, init: RequestInit = {}) {
  return handler(new Request(`${SANDBOX}${path}`, init));
}

/** The directives of a CSP header, by name. */
function directives(csp: string): Record<string, string> {
  return Object.fromEntries(
    csp.split(/;\s*/).map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values.join(" ")];
    }),
  );
}

Deno.test("GET / on the sandbox port answers the proxy page with the spec's default CSP", async () => {
  const response = await get("/");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("content-type"), "text/html; charset=utf-8");
  assert.equal(response.headers.get("cache-control"), "no-store");
  assert.equal(response.headers.get("referrer-policy"), "no-referrer");
  assert.equal(response.headers.get("x-frame-options"), null, "the app must be able to frame it");
  const csp = directives(response.headers.get("content-security-policy")!);
  assert.deepEqual(csp, {
    "default-src": "'none'",
    "script-src": "'self' 'unsafe-inline'",
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "media-src": "'self' data:",
    "connect-src": "'none'",
    "frame-src": "'none'",
    "base-uri": "'self'",
    "object-src": "'none'",
    "frame-ancestors": APP,
  });
  const html = await response.text();
  assert.match(html, /ui\/notifications\/sandbox-/);
  // The page knows which origin may give it a View, and nothing else.
  assert.ok(html.includes(JSON.stringify(APP)));
  // No token, and no way to the API: the page never names it or fetches anything.
  for (const absent of [TOKEN, "x-service-token", "/api/", "fetch(", "XMLHttpRequest"]) {
    assert.ok(!html.includes(absent), absent);
  }
});

Deno.test("the proxy page's CSP maps _meta.ui.csp from its query and drops what could loosen it", async () => {
  const csp = {
    connectDomains: ["https://api.example.com", "wss://live.example.com"],
    resourceDomains: ["https://cdn.example.com", "https://*.fonts.example"],
    frameDomains: ["https://player.example.com"],
    baseUriDomains: ["https://base.example.com"],
  };
  const response = await get(`/?csp=${encodeURIComponent(JSON.stringify(csp))}`);
  await response.body?.cancel();
  const got = directives(response.headers.get("content-security-policy")!);
  assert.equal(got["connect-src"], "https://api.example.com wss://live.example.com");
  const resources = "https://cdn.example.com https://*.fonts.example";
  assert.equal(got["script-src"], `'self' 'unsafe-inline' ${resources}`);
  assert.equal(got["style-src"], `'self' 'unsafe-inline' ${resources}`);
  assert.equal(got["img-src"], `'self' data: ${resources}`);
  assert.equal(got["font-src"], `'self' ${resources}`);
  assert.equal(got["media-src"], `'self' data: ${resources}`);
  assert.equal(got["frame-src"], "https://player.example.com");
  assert.equal(got["base-uri"], "https://base.example.com");
  assert.equal(got["object-src"], "'none'");

  const hostile = {
    connectDomains: ["*", "'unsafe-eval'", "https://a.example; script-src *", "data:", 42],
    resourceDomains: ["https://ok.example", "https://x.example 'unsafe-eval'", "javascript:"],
  };
  assert.deepEqual(parseSandboxCsp(JSON.stringify(hostile)), {
    connectDomains: [],
    resourceDomains: ["https://ok.example"],
    frameDomains: [],
    baseUriDomains: [],
  });
  const loose = await get(`/?csp=${encodeURIComponent(JSON.stringify(hostile))}`);
  await loose.body?.cancel();
  const policy = loose.headers.get("content-security-policy")!;
  assert.equal(directives(policy)["connect-src"], "'none'");
  assert.doesNotMatch(policy, /unsafe-eval|\*(?!\.)|javascript:/);
  // Not JSON: the default policy.
  assert.deepEqual(parseSandboxCsp("{nope"), parseSandboxCsp(null));
  assert.equal(sandboxCsp(parseSandboxCsp(null)).includes("frame-ancestors"), false);
});

Deno.test("the sandbox port answers 404 for everything but its page, 405 for other methods", async () => {
  for (
    const path of [
      "/api/health",
      `/api/bootstrap?token=${TOKEN}`,
      "/assets/app.js",
      "/favicon.ico",
      "/index.html",
    ]
  ) {
    const response = await get(path);
    assert.equal(response.status, 404, path);
    assert.equal((await response.json()).error.code, "not-found");
  }
  const post = await get("/", { method: "POST", body: "{}" });
  assert.equal(post.status, 405);
  assert.equal(post.headers.get("allow"), "GET, HEAD");
  await post.body?.cancel();
  const head = await get("/", { method: "HEAD" });
  assert.equal(head.status, 200);
  assert.equal(head.body, null);
  const foreign = await handler(
    new Request(`${SANDBOX}/`, { headers: { host: "evil.example:7421" } }),
  );
  assert.equal(foreign.status, 403);
  assert.equal((await foreign.json()).error.code, "forbidden-host");
});

Deno.test("with a sandbox origin the app frames only it, tells the UI, and refuses its requests", async () => {
  await buildUi({ ifStale: true });
  const t = await startService();
  try {
    const app = createHandler({
      service: t.service,
      token: TOKEN,
      log: () => {},
      sandboxOrigin: (url) => `${url.protocol}//${url.hostname}:7421`,
    });
    const call = (path: string, headers: Record<string, string> = {}) =>
      app(new Request(`${APP}${path}`, { headers: { "x-service-token": TOKEN, ...headers } }));

    const bootstrap = await call("/api/bootstrap");
    assert.equal(bootstrap.status, 200);
    assert.deepEqual((await bootstrap.json()).sandbox, { origin: SANDBOX });
    // The host name follows the request, so the page and its sandbox agree on it.
    const local = await app(
      new Request("http://localhost:7420/api/bootstrap", {
        headers: { "x-service-token": TOKEN },
      }),
    );
    assert.deepEqual((await local.json()).sandbox, { origin: "http://localhost:7421" });

    const page = await call("/", { accept: "text/html" });
    await page.body?.cancel();
    assert.equal(page.status, 200);
    const csp = directives(page.headers.get("content-security-policy")!);
    assert.equal(csp["frame-src"], SANDBOX);
    assert.equal(csp["frame-ancestors"], "'none'");

    // A View that reaches for the API from the sandbox origin is refused, token or not.
    for (const origin of [SANDBOX, "null"]) {
      const refused = await call("/api/bootstrap", { origin });
      assert.equal(refused.status, 403, origin);
      assert.equal((await refused.json()).error.code, "forbidden-origin");
    }

    // Without a sandbox origin there is none in the bootstrap and no frame-src.
    const plain = await t.call("/api/bootstrap");
    assert.equal((await plain.json()).sandbox, undefined);
    const plainPage = await t.call(`/?token=${TOKEN}`, { token: null });
    await plainPage.body?.cancel();
    assert.doesNotMatch(plainPage.headers.get("content-security-policy")!, /frame-src/);
  } finally {
    await t.close();
  }
});

Deno.test("main.ts listens on --sandbox-port, serves the proxy page there, and names it in the bootstrap", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-sandbox-"));
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const sandboxPort = (taken.addr as Deno.NetAddr).port;
  taken.close();
  const process = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      new URL("../main.ts", import.meta.url).pathname,
      "--port",
      "0",
      "--sandbox-port",
      String(sandboxPort),
      "--config",
      join(dir, "service.json"),
      "--data-dir",
      join(dir, "data"),
    ],
    env: { NO_COLOR: "1", LASS_TOKEN: TOKEN },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const lines = process.stdout.pipeThrough(new TextDecoderStream());
    const reader = lines.getReader();
    let line = "";
    while (!line.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      line += value;
    }
    await reader.cancel();
    const port = /:(\d+)\/\?token=/.exec(line)![1];
    const base = `http://127.0.0.1:${port}`;
    const bootstrap = await fetch(`${base}/api/bootstrap`, {
      headers: { "x-service-token": TOKEN },
    });
    const sandbox = `http://127.0.0.1:${sandboxPort}`;
    assert.deepEqual((await bootstrap.json()).sandbox, { origin: sandbox });
    const page = await fetch(`${sandbox}/`);
    assert.equal(page.status, 200);
    assert.match(
      page.headers.get("content-security-policy")!,
      new RegExp(`frame-ancestors ${base}$`),
    );
    assert.ok(!(await page.text()).includes(TOKEN));
    const health = await fetch(`${sandbox}/api/health`);
    assert.equal(health.status, 404);
    await health.body?.cancel();

    const bad = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        new URL("../main.ts", import.meta.url).pathname,
        "--sandbox-port",
        "x",
      ],
      env: { NO_COLOR: "1" },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(bad.code, 2);
    assert.match(new TextDecoder().decode(bad.stderr), /--sandbox-port must be a number/);
  } finally {
    process.kill("SIGTERM");
    await process.status;
    await rm(dir, { recursive: true, force: true });
  }
});
