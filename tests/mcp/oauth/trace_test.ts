/**
 * The sign-in debugger's data, `GET /api/mcp/:id/oauth/trace`: Lass's real sign-in against the
 * OAuth fixture server, good and with one broken step each, every failure named at its step with
 * its rule, and no secret in the trace.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openService, type Service } from "../../../core/service.ts";
import { createHandler } from "../../../routes/app.ts";
import type { SignInStep, SignInStepName, SignInTrace } from "../../../wire/oauth_trace.ts";
import { configWithServers, type Json, TOKEN } from "../../_helpers.ts";
import {
  type OAuthFixture,
  type OAuthFixtureOptions,
  startOAuthFixture,
} from "../../fixtures/oauth_mcp_server.ts";

const LASS_ORIGIN = "http://127.0.0.1:7420";

interface Lass {
  service: Service;
  dir: string;
  call(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  post(path: string, body?: unknown): Promise<Json>;
  trace(id?: string): Promise<SignInTrace>;
}

/** A Lass whose server `secure` points at a fixture started with `options`. */
async function withFixture(
  options: OAuthFixtureOptions,
  server: Record<string, unknown>,
  test: (lass: Lass, fixture: OAuthFixture) => Promise<void>,
  env: Record<string, string> = {},
): Promise<void> {
  const fixture = await startOAuthFixture(options);
  const dir = await mkdtemp(join(tmpdir(), "lass-oauth-trace-"));
  const configPath = join(dir, "service.json");
  const servers = [
    { id: "secure", name: "Secure", transport: "http", url: fixture.url, ...server },
    { id: "local", name: "Local", transport: "stdio", command: "true" },
  ];
  await writeFile(configPath, JSON.stringify(configWithServers(servers)));
  const service = await openService({
    configPath,
    dataDir: join(dir, "data"),
    env: (name) => env[name],
    watchConfig: false,
  });
  const handler = createHandler({
    service,
    token: TOKEN,
    log: () => {},
    publicOrigin: LASS_ORIGIN,
  });
  const call: Lass["call"] = (path, init = {}) => {
    const { token = TOKEN, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (token !== null) headers.set("x-service-token", token);
    return handler(new Request(`${LASS_ORIGIN}${path}`, { ...rest, headers }));
  };
  const lass: Lass = {
    service,
    dir,
    call,
    post: async (path, body = {}) =>
      await (await call(path, { method: "POST", body: JSON.stringify(body) })).json(),
    trace: async (id = "secure") => {
      const response = await call(`/api/mcp/${id}/oauth/trace`);
      assert.equal(response.status, 200);
      return await response.json();
    },
  };
  try {
    await test(lass, fixture);
  } finally {
    await service.close();
    await fixture.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Plays the browser: the authorization server's redirect back to Lass. */
async function authorize(authUrl: string): Promise<URL> {
  const response = await fetch(authUrl, { redirect: "manual" });
  await response.body?.cancel();
  assert.equal(response.status, 302, "the authorization server redirects back");
  return new URL(response.headers.get("location")!);
}

/** Comes back to Lass's callback as the browser would; answers the page's status. */
async function callback(lass: Lass, back: URL): Promise<number> {
  const response = await lass.call(`${back.pathname}${back.search}`, { token: null });
  await response.body?.cancel();
  return response.status;
}

/** The steps' statuses by name. */
function statuses(trace: SignInTrace): Record<string, string> {
  return Object.fromEntries(trace.steps.map((step) => [step.step, step.status]));
}

function step(trace: SignInTrace, name: SignInStepName): SignInStep {
  const found = trace.steps.find((candidate) => candidate.step === name);
  assert.ok(found, `the trace has the step ${name}`);
  return found;
}

/** Asserts a failed step with its rule; no step after it ran to a failure or waits. */
function assertFailedAt(trace: SignInTrace, name: SignInStepName, rule: RegExp): SignInStep {
  const failed = step(trace, name);
  assert.equal(failed.status, "failed", JSON.stringify(trace.steps, null, 1));
  assert.match(failed.rule ?? "", rule);
  assert.ok(failed.fix && failed.fix.length > 20, "a failed step says what to change");
  assert.deepEqual(trace.steps.filter((s) => s.status === "failed").map((s) => s.step), [name]);
  const after = trace.steps.slice(trace.steps.indexOf(failed) + 1);
  for (const later of after) assert.ok(["skipped", "ok"].includes(later.status), later.step);
  assert.equal(after.at(-1)?.status, "skipped", "the end is not reached");
  return failed;
}

Deno.test("a good sign-in: every step ok with its exchanges, then a refresh; no secret in the trace", async () => {
  await withFixture({ scopesSupported: ["mcp:read"] }, {}, async (lass, fixture) => {
    const empty = await lass.trace();
    assert.deepEqual(empty, { serverId: "secure", steps: [] }, "no attempt before a connect");

    const needs = await lass.post("/api/mcp/secure/connect");
    assert.equal(needs.status, "needs-auth", needs.error);
    const waiting = await lass.trace();
    assert.deepEqual(statuses(waiting), {
      "protected-resource-metadata": "ok",
      "authorization-server-metadata": "ok",
      registration: "ok",
      authorization: "pending",
      callback: "pending",
      token: "pending",
      "authorized-request": "pending",
      refresh: "pending",
    });
    const prm = step(waiting, "protected-resource-metadata");
    assert.equal(prm.exchanges[0].response?.status, 401, "the challenge comes first");
    assert.match(prm.exchanges[0].response!.headers["www-authenticate"], /resource_metadata=/);
    assert.ok(
      prm.exchanges.some((e) => e.url.endsWith("/.well-known/oauth-protected-resource/mcp")),
    );
    const as = step(waiting, "authorization-server-metadata");
    assert.ok(as.exchanges.some((e) => e.response?.status === 200 && e.method === "GET"));
    assert.match(as.detail!, new RegExp(`issuer ${fixture.issuer}`));
    const registration = step(waiting, "registration");
    assert.equal(registration.exchanges[0].method, "POST");
    assert.equal(registration.exchanges[0].response?.status, 201);
    assert.match(registration.detail!, /dynamic registration: client_id client-/);
    const authorization = step(waiting, "authorization");
    assert.equal(authorization.exchanges[0].by, "browser");
    assert.match(authorization.exchanges[0].url, /code_challenge_method=S256/);
    assert.match(authorization.exchanges[0].url, /state=%5Bmasked\+%23[0-9a-f]{4}%5D/);
    assert.ok(
      waiting.steps.every((s) => s.expected.length > 20),
      "every step says what it expects",
    );

    const back = await authorize(needs.authUrl);
    const code = back.searchParams.get("code")!;
    const state = back.searchParams.get("state")!;
    assert.equal(await callback(lass, back), 200);
    assert.equal(lass.service.mcp.state("secure").status, "connected");
    const done = await lass.trace();
    assert.deepEqual(statuses(done), {
      "protected-resource-metadata": "ok",
      "authorization-server-metadata": "ok",
      registration: "ok",
      authorization: "ok",
      callback: "ok",
      token: "ok",
      "authorized-request": "ok",
      refresh: "skipped",
    });
    const token = step(done, "token");
    assert.match(token.exchanges[0].request.body!, /grant_type=authorization_code/);
    assert.match(token.exchanges[0].request.body!, /code_verifier=%5Bmasked/);
    assert.match(token.detail!, /token_type Bearer; expires_in 3600 s; with a refresh token/);
    const first = step(done, "authorized-request");
    assert.equal(first.exchanges[0].response?.status, 200);
    assert.match(
      first.exchanges[0].request.headers.authorization,
      /^Bearer \[masked #[0-9a-f]{4}\]$/,
    );

    fixture.expireAccessTokens();
    const echo = await lass.post("/api/mcp/secure/call", { tool: "echo", args: { text: "hi" } });
    assert.equal(echo.result?.content?.[0]?.text, "hi", JSON.stringify(echo));
    const refreshed = await lass.trace();
    const refresh = step(refreshed, "refresh");
    assert.equal(refresh.status, "ok", JSON.stringify(refresh));
    assert.deepEqual(refresh.exchanges.map((e) => e.response?.status), [401, 200, 200]);
    assert.match(refresh.exchanges[1].request.body!, /grant_type=refresh_token/);
    assert.equal(statuses(refreshed)["authorized-request"], "ok", "the attempt is the same one");

    const stored = JSON.parse(
      await readFile(join(lass.dir, "data", "oauth", "secure.json"), "utf8"),
    );
    const text = JSON.stringify(refreshed);
    const secrets = [code, state, stored.tokens.access_token, stored.tokens.refresh_token];
    for (const secret of secrets) {
      assert.ok(
        secret.length > 10 && !text.includes(secret),
        `a secret is in the trace: ${secret}`,
      );
    }
  });
});

Deno.test("a wrong issuer in the authorization server metadata fails that step by RFC 8414 §3.3", async () => {
  const claimedIssuer = "https://login.example.com/tenant";
  await withFixture({ claimedIssuer }, {}, async (lass, fixture) => {
    const state = await lass.post("/api/mcp/secure/connect");
    assert.equal(state.status, "error");
    const trace = await lass.trace();
    assert.equal(step(trace, "protected-resource-metadata").status, "ok");
    const failed = assertFailedAt(trace, "authorization-server-metadata", /^RFC 8414 §3\.3/);
    assert.ok(failed.fix!.includes(`"issuer": "${fixture.issuer}"`), failed.fix);
    assert.ok(failed.fix!.includes(claimedIssuer), failed.fix);
    assert.match(trace.error ?? "", /OAuth sign-in failed/);
  });
});

Deno.test("a protected-resource metadata for another resource fails by RFC 9728 §3.3", async () => {
  await withFixture({ claimedResource: "https://elsewhere.example/mcp" }, {}, async (lass) => {
    assert.equal((await lass.post("/api/mcp/secure/connect")).status, "error");
    const failed = assertFailedAt(
      await lass.trace(),
      "protected-resource-metadata",
      /^RFC 9728 §3\.3/,
    );
    assert.match(failed.fix!, /elsewhere\.example/);
  });
});

Deno.test("a redirect URI the token endpoint does not match fails the token request by RFC 6749 §4.1.3", async () => {
  const options = { tokenRedirectUri: "http://localhost:7420/oauth/callback" };
  await withFixture(options, {}, async (lass) => {
    const needs = await lass.post("/api/mcp/secure/connect");
    assert.equal(await callback(lass, await authorize(needs.authUrl)), 502);
    const trace = await lass.trace();
    assert.equal(step(trace, "callback").status, "ok");
    const failed = assertFailedAt(trace, "token", /^RFC 6749 §4\.1\.3/);
    assert.match(failed.fix!, /http:\/\/127\.0\.0\.1:7420\/oauth\/callback/);
    assert.equal(failed.exchanges[0].response?.status, 400);
    assert.match(failed.exchanges[0].response!.body!, /invalid_grant/);
  });
});

Deno.test("an expired code fails the token request with invalid_grant by RFC 6749 §5.2", async () => {
  await withFixture({ codeTtlMs: 0 }, {}, async (lass) => {
    const needs = await lass.post("/api/mcp/secure/connect");
    const back = await authorize(needs.authUrl);
    const code = back.searchParams.get("code")!;
    assert.equal(await callback(lass, back), 502);
    const trace = await lass.trace();
    const failed = assertFailedAt(trace, "token", /^RFC 6749 §5\.2: invalid_grant/);
    assert.match(failed.detail!, /expired/);
    assert.ok(!JSON.stringify(trace).includes(code), "the code is masked");
  });
});

Deno.test("a refused authorization fails the callback by RFC 6749 §4.1.2.1", async () => {
  await withFixture({}, {}, async (lass, fixture) => {
    const needs = await lass.post("/api/mcp/secure/connect");
    fixture.denyNext();
    assert.equal(await callback(lass, await authorize(needs.authUrl)), 400);
    const failed = assertFailedAt(
      await lass.trace(),
      "callback",
      /^RFC 6749 §4\.1\.2\.1: .*access_denied/,
    );
    assert.match(failed.exchanges[0].url, /^http:\/\/127\.0\.0\.1:7420\/oauth\/callback\?/);
  });
});

Deno.test("a pre-registered client: no registration request, and its secret never in the trace", async () => {
  const fixtureOptions = {
    registration: false,
    clients: { "lass-pre": { secret: "pre-secret-4242" } },
  };
  const server = { oauth: { clientId: "lass-pre", clientSecret: "env:PRE_SECRET" } };
  await withFixture(fixtureOptions, server, async (lass) => {
    const needs = await lass.post("/api/mcp/secure/connect");
    assert.equal(await callback(lass, await authorize(needs.authUrl)), 200);
    const trace = await lass.trace();
    const registration = step(trace, "registration");
    assert.deepEqual([registration.status, registration.exchanges], ["ok", []]);
    assert.match(registration.detail!, /pre-registered client lass-pre/);
    assert.equal(statuses(trace)["authorized-request"], "ok");
    const header = step(trace, "token").exchanges[0].request.headers.authorization;
    assert.match(header, /^Basic \[masked #[0-9a-f]{4}\]$/);
    assert.ok(!JSON.stringify(trace).includes("pre-secret-4242"));
    assert.ok(!JSON.stringify(trace).includes(btoa("lass-pre:pre-secret-4242")));
  }, { PRE_SECRET: "pre-secret-4242" });
});

Deno.test("the trace route: 404 for an unknown server, 400 for stdio, a fresh attempt after sign-out", async () => {
  await withFixture({}, {}, async (lass) => {
    assert.equal((await lass.call("/api/mcp/nope/oauth/trace")).status, 404);
    const stdio = await lass.call("/api/mcp/local/oauth/trace");
    assert.equal(stdio.status, 400);
    assert.equal((await stdio.json()).error.code, "invalid-request");
    assert.equal((await lass.call("/api/mcp/secure/oauth/trace", { token: null })).status, 401);
    const needs = await lass.post("/api/mcp/secure/connect");
    await callback(lass, await authorize(needs.authUrl));
    assert.equal(statuses(await lass.trace())["authorized-request"], "ok");
    const after = await lass.post("/api/mcp/secure/signout");
    assert.equal(after.status, "needs-auth");
    const fresh = await lass.trace();
    assert.equal(statuses(fresh)["authorized-request"], "pending", "a new attempt began");
    assert.equal(step(fresh, "registration").exchanges.length, 1, "registered again from scratch");
  });
});

Deno.test("a machine-to-machine sign-in: no browser steps, the client_credentials grant ok", async () => {
  const fixtureOptions = { clients: { "lass-ci": { secret: "ci-secret-98765" } } };
  const server = {
    oauth: { grantType: "client_credentials", clientId: "lass-ci", clientSecret: "env:CI_SECRET" },
  };
  await withFixture(fixtureOptions, server, async (lass) => {
    const state = await lass.post("/api/mcp/secure/connect");
    assert.equal(state.status, "connected", state.error);
    const trace = await lass.trace();
    assert.deepEqual(statuses(trace), {
      "protected-resource-metadata": "ok",
      "authorization-server-metadata": "ok",
      registration: "skipped",
      authorization: "skipped",
      callback: "skipped",
      token: "ok",
      "authorized-request": "ok",
      refresh: "skipped",
    });
    assert.match(step(trace, "token").exchanges[0].request.body!, /grant_type=client_credentials/);
    assert.ok(!JSON.stringify(trace).includes("ci-secret-98765"));
  }, { CI_SECRET: "ci-secret-98765" });
});

Deno.test("a PKCE verifier the server checks wrongly fails the token request by RFC 7636 §4.6", async () => {
  await withFixture({ brokenPkce: true }, {}, async (lass) => {
    const needs = await lass.post("/api/mcp/secure/connect");
    assert.equal(await callback(lass, await authorize(needs.authUrl)), 502);
    const failed = assertFailedAt(await lass.trace(), "token", /^RFC 7636 §4\.6/);
    assert.match(failed.fix!, /BASE64URL\(SHA-256\(code_verifier\)\)/);
  });
});

Deno.test("a client ID metadata document is named at the registration step", async () => {
  const clientId = "https://lass.example.com/oauth/client.json";
  await withFixture({ clientIdMetadataDocuments: true }, { oauth: { clientId } }, async (lass) => {
    await lass.post("/api/mcp/secure/connect");
    const registration = step(await lass.trace(), "registration");
    assert.deepEqual([registration.status, registration.exchanges], ["ok", []]);
    assert.equal(
      registration.detail,
      `client ID metadata document: the client_id is the URL ${clientId}`,
    );
  });
});
