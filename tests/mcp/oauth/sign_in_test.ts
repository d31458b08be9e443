/** OAuth sign-in to tool servers against a loopback authorization server + protected MCP server. */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LassEvent } from "../../../wire/events.ts";
import { McpServerSchema } from "../../../wire/config/mcp_server_schema.ts";
import { nodeFileSystem } from "../../../core/files_node.ts";
import { PendingSignIns } from "../../../core/mcp/oauth/pending.ts";
import { OAuthSignIn } from "../../../core/mcp/oauth/sign_in.ts";
import { openService, type Service } from "../../../core/service.ts";
import { createHandler } from "../../../routes/app.ts";
import { configWithServers, type Json, readJsonResponse, TOKEN } from "../../_helpers.ts";
import {
  type OAuthFixture,
  type OAuthFixtureOptions,
  startOAuthFixture,
} from "../../fixtures/oauth_mcp_server.ts";
import { START_FLAGS } from "../../../scripts/permissions.ts";

/** The address the handler under test believes it listens on (its `publicOrigin`). */
const LASS_ORIGIN = "http://127.0.0.1:7420";
const CALLBACK = `${LASS_ORIGIN}/oauth/callback`;

interface Lass {
  dir: string;
  service: Service;
  events: LassEvent[];
  call(
    path: string,
    init?: RequestInit & { token?: string | null; json?: unknown },
  ): Promise<Response>;
  post(path: string, json?: unknown): Promise<{ status: number; body: Json }>;
  tokenFile(id: string): string;
  close(): Promise<void>;
}

/** A service on a temp dir whose handler knows its public origin, recording every event. */
async function startLass(
  servers: Record<string, unknown>[],
  env: Record<string, string> = {},
): Promise<Lass> {
  const dir = await mkdtemp(join(tmpdir(), "lass-oauth-"));
  const configPath = join(dir, "service.json");
  await writeFile(configPath, JSON.stringify(configWithServers(servers), null, 2));
  const service = await openService({
    configPath,
    dataDir: join(dir, "data"),
    env: (name) => env[name],
    watchConfig: false,
  });
  const events: LassEvent[] = [];
  service.events.subscribe((event) => events.push(event));
  const handler = createHandler({
    service,
    token: TOKEN,
    log: () => {},
    publicOrigin: LASS_ORIGIN,
  });
  const call: Lass["call"] = (path, init = {}) => {
    const { token = TOKEN, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token !== null) headers.set("x-service-token", token);
    const body = json === undefined ? rest.body : JSON.stringify(json);
    return handler(new Request(`${LASS_ORIGIN}${path}`, { ...rest, headers, body }));
  };
  return {
    dir,
    service,
    events,
    call,
    post: async (path, json) => await readJsonResponse(await call(path, { method: "POST", json })),
    tokenFile: (id) => join(dir, "data", "oauth", `${id}.json`),
    close: async () => {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Runs a test with a fixture and a Lass whose one server `secure` points at it. */
async function withSignIn(
  fixtureOptions: OAuthFixtureOptions,
  server: Record<string, unknown>,
  test: (lass: Lass, fixture: OAuthFixture) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const fixture = await startOAuthFixture(fixtureOptions);
  const lass = await startLass([{
    id: "secure",
    name: "Secure <tools>",
    transport: "http",
    url: fixture.url,
    ...server,
  }], env);
  try {
    await test(lass, fixture);
  } finally {
    await lass.close();
    await fixture.close();
  }
}

/** Plays the browser: opens the authorization URL without following its redirect. */
async function authorize(authUrl: string): Promise<URL> {
  const response = await fetch(authUrl, { redirect: "manual" });
  await response.body?.cancel();
  assert.equal(response.status, 302, `the authorization server redirects back`);
  return new URL(response.headers.get("location")!);
}

/** Follows the redirect to Lass's callback (no token, as a browser would). */
async function callback(
  lass: Lass,
  back: URL,
): Promise<{ status: number; html: string; headers: Headers }> {
  assert.equal(`${back.origin}${back.pathname}`, CALLBACK);
  const response = await lass.call(`${back.pathname}${back.search}`, { token: null });
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** Connects `secure`, expects `needs-auth`, signs in headlessly, and returns the new state. */
async function signIn(lass: Lass): Promise<Json> {
  const state = (await lass.post("/api/mcp/secure/connect")).body;
  assert.equal(state.status, "needs-auth", state.error);
  const page = await callback(lass, await authorize(state.authUrl));
  assert.equal(page.status, 200, page.html);
  return lass.service.mcp.state("secure");
}

async function callText(lass: Lass, tool: string, args: Record<string, unknown> = {}) {
  const { status, body } = await lass.post("/api/mcp/secure/call", { tool, args });
  return { status, body, text: body.result?.content?.[0]?.text as string | undefined };
}

async function readStored(lass: Lass): Promise<Json> {
  return JSON.parse(await readFile(lass.tokenFile("secure"), "utf8"));
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

Deno.test("full sign-in: needs-auth with authUrl, DCR, PKCE, callback page, 0600 file, tools work", async () => {
  await withSignIn({ scopesSupported: ["mcp:read"] }, {}, async (lass, fixture) => {
    const needs = await lass.post("/api/mcp/secure/connect");
    assert.equal(needs.status, 200);
    assert.equal(needs.body.status, "needs-auth", needs.body.error);
    const authUrl = new URL(needs.body.authUrl);
    assert.equal(`${authUrl.origin}${authUrl.pathname}`, `${fixture.issuer}/authorize`);
    const q = authUrl.searchParams;
    assert.equal(q.get("response_type"), "code");
    assert.equal(q.get("code_challenge_method"), "S256");
    assert.match(q.get("code_challenge")!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(q.get("redirect_uri"), CALLBACK);
    assert.equal(q.get("resource"), fixture.url, "RFC 8707 resource of the protected resource");
    assert.equal(q.get("scope"), "mcp:read", "scopes_supported of the resource metadata");
    assert.match(q.get("state")!, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(fixture.stats.registrations, 1, "dynamic client registration");
    assert.ok(fixture.stats.discovery.includes("/.well-known/oauth-authorization-server/tenant"));
    const event = lass.events.find((e) => e.type === "mcp.state" && e.data.status === "needs-auth");
    assert.equal(event?.data.authUrl, needs.body.authUrl);
    assert.equal(await exists(lass.tokenFile("secure")), true, "registration and discovery kept");
    const again = await lass.post("/api/mcp/secure/connect");
    assert.equal(again.body.authUrl, needs.body.authUrl, "the open flow's URL stays");
    const call = await lass.post("/api/mcp/secure/call", { tool: "whoami", args: {} });
    assert.deepEqual([call.status, call.body.error.code], [502, "upstream-error"]);
    assert.match(call.body.error.message, /needs sign-in/);
    assert.equal(lass.service.mcp.state("secure").authUrl, needs.body.authUrl);

    const page = await callback(lass, await authorize(needs.body.authUrl));
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type")!, /^text\/html/);
    assert.match(page.headers.get("content-security-policy")!, /default-src 'none'/);
    assert.match(page.headers.get("content-security-policy")!, /frame-ancestors 'none'/);
    assert.equal(page.headers.get("cache-control"), "no-store");
    assert.equal(page.headers.get("referrer-policy"), "no-referrer");
    assert.match(page.html, /signed in to Secure &lt;tools&gt;/);
    assert.match(page.html, /postMessage\(m,location\.origin\)/);
    assert.match(
      page.html,
      /"type":"lass.oauth","ok":true,"serverId":"secure","status":"connected"/,
    );
    assert.equal(fixture.stats.pkceVerified, 1, "the verifier matched the S256 challenge");
    assert.deepEqual(fixture.stats.clientAuth, ["none"]);
    assert.deepEqual(fixture.stats.tokenResources, [fixture.url]);

    const state = lass.service.mcp.state("secure");
    assert.equal(state.status, "connected", state.error);
    assert.ok(lass.events.some((e) => e.type === "mcp.state" && e.data.status === "connected"));
    const who = await callText(lass, "whoami");
    assert.equal(who.status, 200);
    assert.match(who.text!, /^client=client-\w+ scopes=mcp:read$/);

    const file = lass.tokenFile("secure");
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(join(lass.dir, "data", "oauth"))).mode & 0o777, 0o700);
    const stored = await readStored(lass);
    assert.equal(stored.serverUrl, fixture.url);
    assert.equal(stored.clientInformation.issuer, fixture.issuer, "stored as the SDK handed it");
    assert.deepEqual(stored.clientInformation.redirect_uris, [CALLBACK]);
    assert.equal(stored.tokens.issuer, fixture.issuer);
    assert.match(stored.tokens.access_token, /^at-/);
    assert.match(stored.tokens.refresh_token, /^rt-/);
    assert.equal(stored.discoveryState.authorizationServerUrl, fixture.issuer);

    // The same callback again: the state was spent.
    const replay = await callback(lass, await authorize(needs.body.authUrl));
    assert.equal(replay.status, 400);

    // Tokens stay in the data dir: not in events, the config, the state or the export.
    const secrets = [stored.tokens.access_token, stored.tokens.refresh_token];
    const config = await readFile(join(lass.dir, "service.json"), "utf8");
    const listed = await (await lass.call("/api/mcp")).text();
    const exported = await (await lass.call("/api/config/export")).text();
    for (const text of [JSON.stringify(lass.events), config, listed, exported]) {
      for (const secret of secrets) assert.ok(!text.includes(secret), "a token leaked");
    }
  });
});

Deno.test("pre-registered client with a secret: no registration, the advertised token-endpoint auth method", async () => {
  for (const method of ["client_secret_basic", "client_secret_post"]) {
    await withSignIn(
      {
        registration: false,
        clients: { "lass-pre": { secret: "pre-secret-value" } },
        authMethods: [method],
        metadata: method === "client_secret_post" ? "oidc" : "oauth",
      },
      {
        // Both protocol eras: the fixture serves 2026-07-28 and 2025 requests.
        protocolEra: method === "client_secret_post" ? "legacy" : "auto",
        oauth: { clientId: "lass-pre", clientSecret: "env:PRE_SECRET", scopes: ["mcp:read"] },
      },
      async (lass, fixture) => {
        const needs = (await lass.post("/api/mcp/secure/connect")).body;
        assert.equal(needs.status, "needs-auth", needs.error);
        const q = new URL(needs.authUrl).searchParams;
        assert.equal(q.get("client_id"), "lass-pre");
        assert.equal(
          q.get("scope"),
          "mcp:read",
          "the client's own scopes come last, and here alone",
        );
        assert.equal((await callback(lass, await authorize(needs.authUrl))).status, 200);
        const state = lass.service.mcp.state("secure");
        assert.equal(state.status, "connected", state.error);
        assert.equal(state.era, method === "client_secret_post" ? "legacy" : "modern");
        assert.equal(fixture.stats.registrations, 0);
        assert.deepEqual(fixture.stats.clientAuth, [method]);
        assert.match((await callText(lass, "whoami")).text!, /^client=lass-pre /);
        const text = await readFile(lass.tokenFile("secure"), "utf8");
        assert.ok(!text.includes("pre-secret-value"), "the client secret stays in the environment");
        assert.equal(JSON.parse(text).clientInformation, undefined);
        if (method === "client_secret_post") {
          assert.ok(fixture.stats.discovery.includes("/.well-known/openid-configuration/tenant"));
        }
      },
      { PRE_SECRET: "pre-secret-value" },
    );
  }
});

Deno.test("an expired access token is refreshed once and the call goes through", async () => {
  await withSignIn({}, {}, async (lass, fixture) => {
    await signIn(lass);
    const before = (await readStored(lass)).tokens;
    fixture.expireAccessTokens();
    const echo = await callText(lass, "echo", { text: "after expiry" });
    assert.equal(echo.status, 200, JSON.stringify(echo.body));
    assert.equal(echo.text, "after expiry");
    assert.equal(fixture.stats.refreshes, 1);
    const after = (await readStored(lass)).tokens;
    assert.notEqual(after.access_token, before.access_token);
    assert.notEqual(after.refresh_token, before.refresh_token, "the rotated refresh token is kept");
    assert.equal(lass.service.mcp.state("secure").status, "connected");
  });
});

Deno.test("a refresh the server refuses turns an open connection into needs-auth, leaking nothing", async () => {
  await withSignIn({}, {}, async (lass, fixture) => {
    await signIn(lass);
    const old = (await readStored(lass)).tokens;
    fixture.revokeRefreshTokens();
    fixture.expireAccessTokens();
    const call = await callText(lass, "echo", { text: "x" });
    assert.equal(call.status, 502);
    assert.match(call.body.error.message, /needs sign-in/);
    const state = lass.service.mcp.state("secure");
    assert.equal(state.status, "needs-auth");
    const event = lass.events.findLast((e) => e.type === "mcp.state");
    assert.deepEqual([event?.data.status, event?.data.authUrl], ["needs-auth", state.authUrl]);
    assert.equal((await readStored(lass)).tokens, undefined, "the refused tokens are dropped");
    const seen = JSON.stringify(lass.events) + JSON.stringify(call.body);
    for (const secret of [old.access_token, old.refresh_token]) assert.ok(!seen.includes(secret));
    assert.equal((await callback(lass, await authorize(state.authUrl!))).status, 200);
    assert.equal((await callText(lass, "echo", { text: "back" })).text, "back");
  });
});

Deno.test("two concurrent calls that need a refresh send one refresh request", async () => {
  await withSignIn({ refreshDelayMs: 150 }, {}, async (lass, fixture) => {
    await signIn(lass);
    fixture.expireAccessTokens();
    const results = await Promise.all(
      ["one", "two", "three"].map((text) => callText(lass, "echo", { text })),
    );
    assert.deepEqual(results.map((r) => [r.status, r.text]), [
      [200, "one"],
      [200, "two"],
      [200, "three"],
    ]);
    assert.equal(fixture.stats.refreshes, 1);
    assert.equal(fixture.liveRefreshTokens(), 1, "no refresh token was spent twice");
    assert.equal((await callText(lass, "echo", { text: "later" })).status, 200);
    assert.equal(fixture.stats.refreshes, 1);
  });
});

Deno.test("the callback rejects a wrong or missing state and an error answer, and stores nothing", async () => {
  await withSignIn({ registration: false, clients: { pub: {} } }, {
    oauth: { clientId: "pub" },
  }, async (lass, fixture) => {
    const needs = (await lass.post("/api/mcp/secure/connect")).body;
    assert.equal(needs.status, "needs-auth");
    const back = await authorize(needs.authUrl);
    const code = back.searchParams.get("code")!;

    const wrong = await lass.call(`/oauth/callback?code=${code}&state=forged`, { token: null });
    assert.equal(wrong.status, 400);
    assert.match(await wrong.text(), /unknown or has expired/);
    const missing = await lass.call(`/oauth/callback?code=${code}`, { token: null });
    assert.equal(missing.status, 400);
    await missing.body?.cancel();
    assert.equal(fixture.stats.codeExchanges, 0, "no code was exchanged");
    assert.equal(await exists(lass.tokenFile("secure")), true);
    assert.equal((await readStored(lass)).tokens, undefined, "no tokens stored");
    assert.equal(lass.service.mcp.state("secure").status, "needs-auth");

    fixture.denyNext();
    const denied = await authorize(lass.service.mcp.state("secure").authUrl!);
    assert.equal(denied.searchParams.get("error"), "access_denied");
    const page = await callback(lass, denied);
    assert.equal(page.status, 400);
    assert.match(page.html, /not completed/);
    assert.ok(!/pwned|<script>alert|access_denied/.test(page.html), "nothing of the AS echoed");
    assert.equal((await readStored(lass)).tokens, undefined);
    const logged = lass.events.filter((e) => e.type === "mcp.log").map((e) => e.data.message);
    assert.ok(logged.some((m) => /sign-in failed/.test(String(m))));
  });
});

Deno.test("a sign-in state expires and is good for one use only", () => {
  let now = 1_000;
  const pending = new PendingSignIns({ ttlMs: 60_000, now: () => now });
  const finish = () => Promise.resolve();
  const first = pending.create({ serverId: "a", finish });
  const second = pending.create({ serverId: "a", finish });
  assert.notEqual(first, second);
  assert.equal(pending.take(first)?.serverId, "a");
  assert.equal(pending.take(first), undefined, "spent");
  now += 60_001;
  assert.equal(pending.take(second), undefined, "expired");
  const third = pending.create({ serverId: "b", finish });
  pending.forget("b");
  assert.equal(pending.get(third), undefined, "forgotten at sign-out");
});

Deno.test("step-up: a 403 insufficient_scope asks for consent to the wider scope", async () => {
  await withSignIn(
    {
      challengeScope: "mcp:read",
      scopesSupported: ["mcp:read", "mcp:admin"],
      toolScopes: { admin: "mcp:admin" },
    },
    {},
    async (lass, fixture) => {
      const first = (await lass.post("/api/mcp/secure/connect")).body;
      assert.equal(
        new URL(first.authUrl).searchParams.get("scope"),
        "mcp:read",
        "the challenge's scope comes first",
      );
      await callback(lass, await authorize(first.authUrl));
      assert.equal(lass.service.mcp.state("secure").status, "connected");
      const denied = await callText(lass, "admin");
      assert.equal(denied.status, 502);
      assert.match(denied.body.error.message, /needs sign-in/);
      assert.equal(fixture.stats.forbidden, 1);
      assert.equal(fixture.stats.refreshes, 0, "a refresh cannot widen the scope");
      const state = lass.service.mcp.state("secure");
      assert.equal(state.status, "needs-auth");
      assert.equal(new URL(state.authUrl!).searchParams.get("scope"), "mcp:read mcp:admin");
      const page = await callback(lass, await authorize(state.authUrl!));
      assert.equal(page.status, 200);
      const admin = await callText(lass, "admin");
      assert.deepEqual([admin.status, admin.text], [200, "admin ok"]);
    },
  );
});

Deno.test("sign-out forgets the tokens (the file goes), revokes them, and asks for sign-in again", async () => {
  await withSignIn({}, {}, async (lass, fixture) => {
    await signIn(lass);
    const before = await readStored(lass);
    const out = await lass.post("/api/mcp/secure/signout");
    assert.equal(out.status, 200);
    assert.equal(out.body.status, "needs-auth");
    assert.ok(out.body.authUrl);
    assert.deepEqual(fixture.stats.revocations.sort(), ["access_token", "refresh_token"]);
    assert.equal(fixture.stats.registrations, 2, "the registration was forgotten too");
    // The reconnect's new sign-in registered again; of the old file nothing is left.
    const text = await readFile(lass.tokenFile("secure"), "utf8");
    for (const old of [before.tokens.access_token, before.tokens.refresh_token]) {
      assert.ok(!text.includes(old), "no old token on disk");
    }
    const stored = JSON.parse(text);
    assert.equal(stored.tokens, undefined, "no tokens on disk");
    assert.notEqual(stored.clientInformation.client_id, before.clientInformation.client_id);

    const unknown = await lass.post("/api/mcp/ghost/signout");
    assert.equal(unknown.status, 404);
  });
});

Deno.test("oauth: false: a 401 is a plain error, with no sign-in and nothing stored", async () => {
  await withSignIn({}, { oauth: false }, async (lass, fixture) => {
    const state = (await lass.post("/api/mcp/secure/connect")).body;
    assert.equal(state.status, "error");
    assert.equal(state.authUrl, undefined);
    assert.match(state.error, /401/);
    assert.equal(fixture.stats.unauthorized, 1);
    assert.deepEqual(fixture.stats.discovery, []);
    assert.equal(fixture.stats.registrations, 0);
    assert.equal(await exists(lass.tokenFile("secure")), false);
  });
});

Deno.test("POST /api/mcp/test on a draft that needs sign-in reports needs-auth with the URL", async () => {
  const fixture = await startOAuthFixture();
  const lass = await startLass([]);
  try {
    const draft = { id: "draft", name: "Draft", transport: "http", url: fixture.url };
    const tested = await lass.post("/api/mcp/test", { server: draft });
    assert.equal(tested.status, 200);
    assert.deepEqual([tested.body.ok, tested.body.status], [false, "needs-auth"]);
    assert.match(tested.body.authUrl, /\/tenant\/authorize\?/);
    assert.equal(lass.events.filter((e) => e.type === "mcp.state").length, 0, "a draft is quiet");
    // Signing in through it keeps the tokens for when the draft is saved.
    const page = await callback(lass, await authorize(tested.body.authUrl));
    assert.equal(page.status, 200);
    const again = await lass.post("/api/mcp/test", { server: draft });
    assert.equal(again.body.status, "connected", again.body.error);
  } finally {
    await lass.close();
    await fixture.close();
  }
});

Deno.test("a callback for a server removed from the config during its sign-in shows an error and stores no tokens", async () => {
  await withSignIn({}, {}, async (lass, fixture) => {
    const needs = (await lass.post("/api/mcp/secure/connect")).body;
    assert.equal(needs.status, "needs-auth", needs.error);
    const back = await authorize(needs.authUrl);
    await lass.service.config.update((stored) => ({ ...stored, mcpServers: [] }));
    const page = await callback(lass, back);
    assert.equal(page.status, 410, page.html);
    assert.match(page.html, /removed from Lass(&#39;|&#x27;|')s configuration during the sign-in/);
    assert.match(page.html, /"ok":false/);
    assert.equal(fixture.stats.codeExchanges, 0, "no code was exchanged");
    const stored = await exists(lass.tokenFile("secure")) ? await readStored(lass) : {};
    assert.equal(stored.tokens, undefined, "no tokens stored");
  });
});

Deno.test("a client ID metadata document URL is the client id where the server supports it", async () => {
  const documentUrl = "https://lass.example/oauth/client.json";
  await withSignIn(
    { clientIdMetadataDocuments: true },
    { oauth: { clientId: documentUrl } },
    async (lass, fixture) => {
      const state = await signIn(lass);
      assert.equal(state.status, "connected", state.error);
      assert.equal(fixture.stats.authorizations[0].get("client_id"), documentUrl);
      assert.equal(fixture.stats.registrations, 0);
      assert.match((await callText(lass, "whoami")).text!, /client=https:\/\/lass\.example\//);
    },
  );
});

Deno.test("main.ts builds the callback URL from its real listening address", async () => {
  const fixture = await startOAuthFixture();
  const dir = await mkdtemp(join(tmpdir(), "lass-oauth-main-"));
  const configPath = join(dir, "service.json");
  await writeFile(
    configPath,
    JSON.stringify(configWithServers([{
      id: "secure",
      name: "Secure",
      transport: "http",
      url: fixture.url,
    }])),
  );
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...START_FLAGS,
      new URL("../../../main.ts", import.meta.url).pathname,
      "--port",
      "0",
      "--config",
      configPath,
      "--data-dir",
      join(dir, "data"),
    ],
    env: { NO_COLOR: "1", LASS_TOKEN: TOKEN },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const output = child.stdout.pipeThrough(new TextDecoderStream());
  try {
    const reader = output.getReader();
    let text = "";
    while (!text.includes("\n")) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
    }
    reader.releaseLock();
    const port = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(text)?.[1];
    assert.ok(port, text);
    const origin = `http://127.0.0.1:${port}`;
    const connected = await fetch(`${origin}/api/mcp/secure/connect`, {
      method: "POST",
      headers: { "x-service-token": TOKEN },
    });
    const state = await connected.json();
    assert.equal(state.status, "needs-auth", state.error);
    assert.equal(
      new URL(state.authUrl).searchParams.get("redirect_uri"),
      `${origin}/oauth/callback`,
    );
    // The browser's way back: a real request to the real callback, without the token.
    const back = await authorize(state.authUrl);
    const page = await fetch(back);
    assert.equal(page.status, 200, await page.text());
    const after = await fetch(`${origin}/api/mcp`, { headers: { "x-service-token": TOKEN } });
    assert.equal((await after.json()).servers[0].status, "connected");
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await output.cancel().catch(() => {});
    await rm(dir, { recursive: true, force: true });
    await fixture.close();
  }
});

Deno.test("a registration made for another callback address is replaced by a new one", async () => {
  await withSignIn({}, {}, async (lass, fixture) => {
    await signIn(lass);
    assert.equal(fixture.stats.registrations, 1);
    // Lass restarted on another port: the registered redirect URI no longer matches.
    lass.service.mcp.setOAuthOrigin(() => "http://127.0.0.1:7421");
    fixture.revokeRefreshTokens();
    fixture.expireAccessTokens();
    const state = await lass.service.mcp.connect("secure", { force: true });
    assert.equal(state.status, "needs-auth", state.error);
    assert.equal(fixture.stats.registrations, 2);
    const q = new URL(state.authUrl!).searchParams;
    assert.equal(q.get("redirect_uri"), "http://127.0.0.1:7421/oauth/callback");
    assert.deepEqual((await readStored(lass)).clientInformation.redirect_uris, [
      "http://127.0.0.1:7421/oauth/callback",
    ]);
  });
});

Deno.test("OAuthSignIn.signOut deletes the server's file and drops late writes of old flows", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-oauth-store-"));
  try {
    const oauth = new OAuthSignIn({ fs: nodeFileSystem, dir, env: () => undefined });
    // The schema fills in the defaults, as the config store does.
    const record = McpServerSchema.parse({
      id: "remote",
      name: "Remote",
      transport: "http",
      url: "https://mcp.example.com/mcp",
      timeoutMs: 1000,
    });
    const url = record.url!;
    const epoch = oauth.store.epoch("remote");
    const tokens = {
      access_token: "at-secret-1",
      token_type: "Bearer",
      refresh_token: "rt-secret-1",
    };
    await oauth.store.update("remote", url, epoch, (parts) => ({ ...parts, tokens }));
    const file = join(dir, "remote.json");
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.deepEqual(oauth.secrets(record).sort(), ["at-secret-1", "rt-secret-1"]);
    await oauth.signOut(record);
    assert.equal(await exists(file), false, "the file is gone");
    // A refresh of the old session that finishes late must not bring the tokens back.
    await oauth.store.update("remote", url, epoch, (parts) => ({ ...parts, tokens }));
    assert.equal(await exists(file), false);
    assert.deepEqual(await oauth.store.read("remote", url), {});
    assert.ok(oauth.secrets(record).includes("rt-secret-1"), "still scrubbed from messages");
    // Credentials are bound to the URL they were obtained for.
    const fresh = oauth.store.epoch("remote");
    await oauth.store.update("remote", url, fresh, (parts) => ({ ...parts, tokens }));
    assert.deepEqual(await oauth.store.read("remote", "https://elsewhere.example/mcp"), {});
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
