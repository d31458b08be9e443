/**
 * Machine-to-machine sign-in (`oauth.grantType: "client_credentials"`) through the HTTP API,
 * against the loopback authorization server + protected MCP server of the OAuth fixture.
 */
import assert from "node:assert/strict";
import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { exportJWK, exportPKCS8, generateKeyPair } from "jose";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  startService,
  type TestService,
  waitForEvent,
} from "../../_helpers.ts";
import {
  type OAuthFixture,
  type OAuthFixtureOptions,
  startOAuthFixture,
} from "../../fixtures/oauth_mcp_server.ts";

const ID = "robot";
const SECRET = "m2m-secret-value-1";

/** The config with one tool server `robot`, used by the active workspace so it connects. */
function configWith(record: Record<string, unknown>): Record<string, unknown> {
  const config = configWithServers([{ id: ID, name: "Robot", transport: "http", ...record }]);
  (config.workspaces as Json[])[0].mcpServerIds = [ID];
  return config;
}

/** Puts a config and waits for `robot` to settle (connected, error or needs-auth). */
async function putAndSettle(t: TestService, config: Record<string, unknown>): Promise<Json> {
  const settled = waitForEvent(
    t,
    (event) =>
      event.type === "mcp.state" && event.data.id === ID &&
      ["connected", "error", "needs-auth"].includes(String(event.data.status)),
    { what: `mcp.state of ${ID} connected, error or needs-auth` },
  );
  const put = await readJsonResponse(await t.call("/api/config", { method: "PUT", json: config }));
  assert.equal(put.status, 200, JSON.stringify(put.body));
  await settled;
  const listed = await readJsonResponse(await t.call("/api/mcp"));
  return listed.body.servers.find((server: Json) => server.id === ID);
}

async function callText(t: TestService, tool: string, args: Record<string, unknown> = {}) {
  const { status, body } = await post(t, `/api/mcp/${ID}/call`, { tool, args });
  return { status, body, text: body.result?.content?.[0]?.text as string | undefined };
}

async function stored(t: TestService): Promise<Json | undefined> {
  const file = join(t.dir, "data", "oauth", `${ID}.json`);
  return await readFile(file, "utf8").then(JSON.parse, () => undefined);
}

/** Runs a test with a fixture and an empty Lass that has `env`. */
async function withMachine(
  fixtureOptions: OAuthFixtureOptions,
  env: Record<string, string>,
  test: (t: TestService, fixture: OAuthFixture) => Promise<void>,
): Promise<void> {
  const fixture = await startOAuthFixture({ registration: false, ...fixtureOptions });
  const t = await startService({ config: configWithServers([]), env });
  try {
    await test(t, fixture);
  } finally {
    await t.close();
    await fixture.close();
  }
}

Deno.test("client_credentials with a client secret (basic, post): connected with no user, tools work, the token is stored for this client", async () => {
  for (const method of ["client_secret_basic", "client_secret_post"] as const) {
    await withMachine(
      {
        clients: { "lass-m2m": { secret: SECRET } },
        authMethods: ["client_secret_basic", "client_secret_post"],
        scopesSupported: ["mcp:read"],
      },
      { M2M_SECRET: SECRET },
      async (t, fixture) => {
        const state = await putAndSettle(
          t,
          configWith({
            url: fixture.url,
            // Both protocol eras: the fixture serves 2026-07-28 and 2025 requests.
            ...(method === "client_secret_post" && { protocolEra: "legacy" }),
            oauth: {
              grantType: "client_credentials",
              clientId: "lass-m2m",
              clientSecret: "env:M2M_SECRET",
              tokenEndpointAuthMethod: method,
            },
          }),
        );
        assert.equal(state.status, "connected", state.error);
        assert.equal(state.era, method === "client_secret_post" ? "legacy" : "modern");
        assert.equal(state.authUrl, undefined, "no browser step");
        assert.deepEqual(fixture.stats.clientAuth, [method], "the configured method");
        assert.equal(fixture.stats.clientCredentialsGrants, 1);
        assert.deepEqual(
          fixture.stats.grantScopes,
          ["mcp:read"],
          "scopes_supported of the resource",
        );
        assert.deepEqual(fixture.stats.tokenResources, [fixture.url], "RFC 8707 resource");
        assert.equal(fixture.stats.authorizations.length, 0);
        assert.equal(fixture.stats.registrations, 0);

        const who = await callText(t, "whoami");
        assert.deepEqual([who.status, who.text], [200, "client=lass-m2m scopes=mcp:read"]);

        const file = await stored(t);
        assert.equal(file.serverUrl, fixture.url);
        assert.equal(file.tokensClient, `${method} lass-m2m`);
        assert.equal(file.tokens.issuer, fixture.issuer, "stamped by the SDK");
        assert.equal(file.tokens.refresh_token, undefined);
        assert.equal(file.clientInformation, undefined, "the client lives in the config");
        assert.equal(file.discoveryState.authorizationServerUrl, fixture.issuer);
        const mode = (await stat(join(t.dir, "data", "oauth", `${ID}.json`))).mode & 0o777;
        assert.equal(mode, 0o600);
        const text = JSON.stringify(file);
        assert.ok(!text.includes(SECRET), "the secret stays in the environment");
        const seen = JSON.stringify(t.service.events.history()) +
          await (await t.call("/api/mcp")).text();
        assert.ok(!seen.includes(file.tokens.access_token), "the token leaked");
      },
    );
  }
});

Deno.test("client_credentials with a private-key JWT: the SDK signs an assertion the server verifies (PEM RS256 by default, JWK ES256)", async () => {
  const rsa = await generateKeyPair("RS256", { extractable: true });
  const ec = await generateKeyPair("ES256", { extractable: true });
  const cases = [
    { key: await exportPKCS8(rsa.privateKey), publicKey: rsa.publicKey, alg: undefined },
    {
      key: JSON.stringify(await exportJWK(ec.privateKey)),
      publicKey: ec.publicKey,
      alg: "ES256",
    },
  ];
  for (const { key, publicKey, alg } of cases) {
    await withMachine(
      {
        clients: { "lass-jwt": { publicKey } },
        authMethods: ["private_key_jwt"],
      },
      { M2M_KEY: key },
      async (t, fixture) => {
        const state = await putAndSettle(
          t,
          configWith({
            url: fixture.url,
            oauth: {
              grantType: "client_credentials",
              clientId: "lass-jwt",
              privateKey: "env:M2M_KEY",
              ...(alg && { signingAlgorithm: alg }),
              scopes: ["mcp:read"],
            },
          }),
        );
        assert.equal(state.status, "connected", state.error);
        assert.deepEqual(fixture.stats.clientAuth, ["private_key_jwt"]);
        const [claims] = fixture.stats.assertions;
        assert.equal(claims.alg, alg ?? "RS256");
        assert.deepEqual([claims.iss, claims.sub, claims.aud], [
          "lass-jwt",
          "lass-jwt",
          fixture.issuer,
        ]);
        assert.deepEqual(fixture.stats.grantScopes, ["mcp:read"], "the client's own scopes");
        assert.match((await callText(t, "whoami")).text!, /^client=lass-jwt /);
        assert.equal((await stored(t)).tokensClient, "private_key_jwt lass-jwt");

        // Sign-out: the token is revoked (the revocation signs its own assertion) and forgotten;
        // the reconnect runs the grant again, with no user.
        const before = (await stored(t)).tokens.access_token;
        const out = await post(t, `/api/mcp/${ID}/signout`);
        assert.equal(out.status, 200);
        assert.equal(out.body.status, "connected", out.body.error);
        assert.deepEqual(fixture.stats.revocations, ["access_token"]);
        assert.deepEqual(fixture.stats.revocationAuth, ["private_key_jwt"]);
        assert.equal(fixture.stats.clientCredentialsGrants, 2);
        const after = await stored(t);
        assert.notEqual(after.tokens.access_token, before);
        assert.ok(!JSON.stringify(after).includes(before), "no old token on disk");
      },
    );
  }
});

Deno.test("client_credentials: an expired token runs the grant again, once for concurrent calls", async () => {
  await withMachine(
    {
      clients: { "lass-m2m": { secret: SECRET } },
      grantDelayMs: 150,
    },
    { M2M_SECRET: SECRET },
    async (t, fixture) => {
      const state = await putAndSettle(
        t,
        configWith({
          url: fixture.url,
          oauth: { grantType: "client_credentials", clientId: "lass-m2m", clientSecret: SECRET },
        }),
      );
      assert.equal(state.status, "connected", state.error);
      assert.deepEqual(fixture.stats.clientAuth, ["client_secret_basic"], "the server's first");
      const first = (await stored(t)).tokens.access_token;
      fixture.expireAccessTokens();
      const results = await Promise.all(
        ["one", "two", "three"].map((text) => callText(t, "echo", { text })),
      );
      assert.deepEqual(results.map((r) => [r.status, r.text]), [
        [200, "one"],
        [200, "two"],
        [200, "three"],
      ]);
      assert.equal(fixture.stats.clientCredentialsGrants, 2, "one grant for the three calls");
      assert.notEqual((await stored(t)).tokens.access_token, first);
      assert.equal((await callText(t, "echo", { text: "later" })).status, 200);
      assert.equal(fixture.stats.clientCredentialsGrants, 2);
      assert.equal(t.service.mcp.state(ID).status, "connected");
    },
  );
});

Deno.test("client_credentials: a wrong secret is an error state naming the cause, with nothing stored or leaked", async () => {
  await withMachine(
    {
      clients: { "lass-m2m": { secret: SECRET } },
    },
    { M2M_SECRET: "not-the-secret" },
    async (t, fixture) => {
      const record = {
        url: fixture.url,
        oauth: {
          grantType: "client_credentials",
          clientId: "lass-m2m",
          clientSecret: "env:M2M_SECRET",
        },
      };
      const state = await putAndSettle(t, configWith(record));
      assert.equal(state.status, "error");
      assert.equal(state.authUrl, undefined);
      assert.match(state.error, /sign-in failed/);
      assert.match(state.error, /client authentication failed/, "the server's reason");
      assert.ok(!state.error.includes("not-the-secret"), "the secret is scrubbed");
      assert.equal(fixture.stats.clientCredentialsGrants, 0);
      assert.equal((await stored(t))?.tokens, undefined, "no token stored");

      // The key's variable is not set: the message names it.
      const keyed = await putAndSettle(
        t,
        configWith({
          ...record,
          oauth: {
            grantType: "client_credentials",
            clientId: "lass-m2m",
            privateKey: "env:NO_KEY",
          },
        }),
      );
      assert.equal(keyed.status, "error");
      assert.match(keyed.error, /oauth\.privateKey refers to the environment variable NO_KEY/);
    },
  );
});

Deno.test("client_credentials: a token of another client is not used; the new client runs its own grant", async () => {
  await withMachine(
    {
      clients: { first: { secret: SECRET }, second: { secret: "second-secret" } },
    },
    {},
    async (t, fixture) => {
      const record = (clientId: string, clientSecret: string) =>
        configWith({
          url: fixture.url,
          oauth: { grantType: "client_credentials", clientId, clientSecret },
        });
      assert.equal((await putAndSettle(t, record("first", SECRET))).status, "connected");
      assert.match((await callText(t, "whoami")).text!, /^client=first /);
      assert.equal((await putAndSettle(t, record("second", "second-secret"))).status, "connected");
      assert.equal(fixture.stats.clientCredentialsGrants, 2);
      assert.match((await callText(t, "whoami")).text!, /^client=second /);
    },
  );
});

Deno.test("client_credentials records are validated: client id, a secret or a key, env-only keys", async () => {
  const t = await startService({ config: configWithServers([]) });
  try {
    const url = "http://127.0.0.1:1/mcp";
    const cases: [Record<string, unknown>, string[]][] = [
      [{ grantType: "client_credentials", clientSecret: "s" }, ["clientId"]],
      [{ grantType: "client_credentials", clientId: "c" }, ["clientSecret"]],
      [
        {
          grantType: "client_credentials",
          clientId: "c",
          tokenEndpointAuthMethod: "private_key_jwt",
        },
        ["privateKey"],
      ],
      [
        {
          grantType: "client_credentials",
          clientId: "c",
          privateKey: "env:K",
          tokenEndpointAuthMethod: "client_secret_post",
        },
        ["clientSecret"],
      ],
      [
        {
          grantType: "client_credentials",
          clientId: "c",
          privateKey: "-----BEGIN PRIVATE KEY-----",
        },
        ["privateKey"],
      ],
      [{ clientId: "c", privateKey: "env:K" }, ["privateKey"]],
      [{ clientId: "c", tokenEndpointAuthMethod: "client_secret_post" }, [
        "tokenEndpointAuthMethod",
      ]],
      [{
        grantType: "client_credentials",
        clientId: "c",
        clientSecret: "s",
        signingAlgorithm: "ES256",
      }, [
        "signingAlgorithm",
      ]],
    ];
    for (const [oauth, fields] of cases) {
      const response = await readJsonResponse(
        await t.call("/api/config", { method: "PUT", json: configWith({ url, oauth }) }),
      );
      assert.equal(response.status, 400, JSON.stringify(oauth));
      assert.equal(response.body.error.code, "invalid-config");
      assert.deepEqual(
        response.body.error.details.map((detail: Json) => detail.path),
        fields.map((field) => `mcpServers.0.oauth.${field}`),
        JSON.stringify(oauth),
      );
    }
    const good = { grantType: "client_credentials", clientId: "c", privateKey: "env:K" };
    const accepted = await t.call("/api/config", {
      method: "PUT",
      json: configWith({ url, oauth: good, timeoutMs: 200 }),
    });
    assert.equal(accepted.status, 200);
    await accepted.body?.cancel();
  } finally {
    await t.close();
  }
});
