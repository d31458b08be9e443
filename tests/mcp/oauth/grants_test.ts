/**
 * The sign-in pieces behind DPoP, workload identity and enterprise-managed authorization, in
 * process: the config's `oauth` fields, token sources, the DPoP key in the token store, the
 * 2025-03-26 discovery and the refused-token signal. The whole flows run in
 * tests/mcp/conformance/suite_test.ts against the official suite's servers.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpServerSchema } from "../../../wire/config/mcp_server_schema.ts";
import { redactConfig } from "../../../core/config/redact.ts";
import { nodeFileSystem } from "../../../core/files_node.ts";
import { OAuthStore } from "../../../core/mcp/oauth/store.ts";
import { MachineAuthProvider } from "../../../core/mcp/oauth/machine.ts";
import { StoredParts } from "../../../core/mcp/oauth/_stored_parts.ts";
import { DpopKeys } from "../../../core/mcp/oauth/dpop.ts";
import { tokenReader } from "../../../core/mcp/oauth/token_source.ts";
import { LegacyDiscovery } from "../../../core/mcp/oauth/legacy_discovery.ts";
import { createAuthFetch, RefreshCoalescer } from "../../../core/mcp/oauth/fetch.ts";

const URL_ = "http://127.0.0.1:9/mcp";

/** The issues of a record with this `oauth`, as `path: message`. */
function issuesOf(oauth: unknown): string[] {
  const parsed = McpServerSchema.safeParse({
    id: "s",
    name: "S",
    transport: "http",
    url: URL_,
    oauth,
  });
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

Deno.test("oauth config: jwt-bearer, enterprise-managed and dpop are checked per grant", () => {
  assert.deepEqual(
    issuesOf({ grantType: "jwt-bearer", clientId: "w", assertion: { file: "/run/token" } }),
    [],
  );
  assert.deepEqual(
    issuesOf({ grantType: "jwt-bearer", clientId: "w", assertion: { command: "gcloud" } }),
    [],
  );
  assert.deepEqual(issuesOf({ grantType: "jwt-bearer", assertion: "env:TOKEN", dpop: true }), [
    "oauth.clientId: is required for grantType jwt-bearer",
  ]);
  assert.deepEqual(issuesOf({ grantType: "jwt-bearer", clientId: "w" }), [
    "oauth.assertion: is required for grantType jwt-bearer",
  ]);
  // A literal token is refused: it would sit in the config.
  assert.equal(
    issuesOf({ grantType: "jwt-bearer", clientId: "w", assertion: "eyJ.x.y" }).length,
    1,
  );
  const idp = {
    issuer: "https://idp.example.com",
    clientId: "lass",
    idToken: "env:ID_TOKEN",
  };
  assert.deepEqual(
    issuesOf({
      grantType: "enterprise-managed",
      clientId: "c",
      clientSecret: "env:S",
      identityProvider: idp,
    }),
    [],
  );
  assert.deepEqual(
    issuesOf({ grantType: "enterprise-managed", clientId: "c", clientSecret: "x" }),
    [
      "oauth.identityProvider: is required for grantType enterprise-managed",
    ],
  );
  assert.deepEqual(issuesOf({ identityProvider: idp, assertion: "env:T" }), [
    "oauth.assertion: applies only to grantType jwt-bearer",
    "oauth.identityProvider: applies only to grantType enterprise-managed",
  ]);
  assert.deepEqual(issuesOf({ dpop: false }), []);
  assert.equal(issuesOf({ dpop: "yes" }).length, 1);
});

Deno.test("token sources: env, a file re-read on each use, a command's output", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-token-source-"));
  try {
    const env = (name: string) => ({ ID_TOKEN: " id-token\n" } as Record<string, string>)[name];
    assert.equal(await tokenReader("env:ID_TOKEN", "idToken", env)(), "id-token");
    const file = join(dir, "token");
    await writeFile(file, "first\n");
    const read = tokenReader({ file }, "oauth.assertion", env);
    assert.equal(await read(), "first");
    await writeFile(file, "rotated\n");
    assert.equal(await read(), "rotated");
    const command = {
      command: Deno.execPath(),
      args: ["eval", "console.log('from-command')"],
    };
    assert.equal(await tokenReader(command, "oauth.assertion", env)(), "from-command");
    await assert.rejects(
      tokenReader("env:MISSING", "oauth.assertion", env)(),
      /oauth\.assertion gave no token \(env:MISSING\)/,
    );
    await assert.rejects(
      tokenReader({ file: join(dir, "none") }, "oauth.assertion", env)(),
      /cannot read oauth\.assertion from/,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

Deno.test("DPoP: one key per server in the token store, kept across connections, gone at sign-out", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-dpop-"));
  try {
    const store = new OAuthStore(nodeFileSystem, dir);
    const server = { serverId: "s", serverUrl: URL_ };
    const parts = () => new StoredParts(store, server);
    // Unset: none while the authorization server offers no DPoP; `false`: never.
    assert.equal(await new DpopKeys(parts(), undefined).session(), undefined);
    await parts().saveDiscoveryState({
      authorizationServerUrl: "http://127.0.0.1:9/",
      authorizationServerMetadata: {
        issuer: "http://127.0.0.1:9/",
        authorization_endpoint: "http://127.0.0.1:9/authorize",
        token_endpoint: "http://127.0.0.1:9/token",
        response_types_supported: ["code"],
        dpop_signing_alg_values_supported: ["ES256"],
      },
    });
    assert.equal(await new DpopKeys(parts(), false).session(), undefined);
    const first = await new DpopKeys(parts(), undefined).session();
    assert.ok(first);
    assert.equal(first.alg, "ES256");
    const stored = (await store.read("s", URL_)).dpopKey;
    assert.equal(stored?.alg, "ES256");
    assert.ok(typeof stored?.jwk.d === "string", "the private key is kept");
    assert.ok(store.secrets("s").includes(stored.jwk.d as string), "and scrubbed from messages");
    const again = await new DpopKeys(parts(), true).session();
    assert.equal(again?.thumbprint, first.thumbprint);
    const proof = await again!.buildProof({ htm: "post", htu: `${URL_}?x=1`, accessToken: "t" });
    const [header, payload] = proof.split(".").slice(0, 2).map((part) =>
      JSON.parse(new TextDecoder().decode(Uint8Array.from(
        atob(
          part.replaceAll("-", "+").replaceAll("_", "/"),
        ),
        (c) => c.charCodeAt(0),
      )))
    );
    assert.equal(header.typ, "dpop+jwt");
    assert.equal(header.jwk.d, undefined, "the proof carries the public key only");
    assert.deepEqual([payload.htm, payload.htu], ["POST", URL_]);
    assert.ok(payload.ath && payload.jti);
    await store.remove("s");
    const after = await new DpopKeys(parts(), true).session();
    assert.notEqual(after?.thumbprint, first.thumbprint);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** A loopback server answering JSON by path (404 elsewhere); records the paths asked for. */
function serve(routes: (origin: string) => Record<string, unknown>) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const url = new URL(req.url);
    seen.push(url.pathname);
    const answers = routes(url.origin);
    return url.pathname in answers
      ? Response.json(answers[url.pathname])
      : new Response("no", { status: 404 });
  });
  return { server, seen, origin: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("2025-03-26 discovery: no protected-resource metadata, the origin's metadata is used as it is", async () => {
  const legacy = serve((origin) => ({
    "/.well-known/oauth-authorization-server": {
      issuer: `${origin}/oauth`,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      response_types_supported: ["code"],
    },
  }));
  try {
    const state = await new LegacyDiscovery(`${legacy.origin}/mcp`).state();
    assert.equal(state?.authorizationServerUrl, `${legacy.origin}/`);
    assert.equal(
      (state?.authorizationServerMetadata as { issuer: string }).issuer,
      `${legacy.origin}/oauth`,
      "an issuer other than the origin is kept (2025-03-26 asks no match)",
    );
  } finally {
    await legacy.server.shutdown();
  }
  const modern = serve(() => ({
    "/.well-known/oauth-protected-resource/mcp": {
      resource: "x",
      authorization_servers: ["https://as.example"],
    },
  }));
  try {
    assert.equal(await new LegacyDiscovery(`${modern.origin}/mcp`).state(), undefined);
    const named = new LegacyDiscovery(`${modern.origin}/mcp`);
    named.challenge('Bearer resource_metadata="https://x/.well-known/oauth-protected-resource"');
    const before = modern.seen.length;
    assert.equal(await named.state(), undefined);
    assert.equal(modern.seen.length, before, "a 401 that names its metadata needs no probe");
  } finally {
    await modern.server.shutdown();
  }
});

Deno.test("auth fetch: a refused token (Bearer or DPoP) asks for a fresh discovery", async () => {
  const answers = [401, 401, 200];
  let rejected = 0;
  const challenges: (string | null)[] = [];
  const fetch = createAuthFetch({
    currentToken: () => Promise.resolve("t"),
    insufficientScope: () => {},
    tokenRejected: () => rejected++,
    challenge: (header) => challenges.push(header),
    refreshes: new RefreshCoalescer(),
    base: () =>
      Promise.resolve(
        new Response(null, {
          status: answers.shift()!,
          headers: { "www-authenticate": 'DPoP error="invalid_token"' },
        }),
      ),
  });
  await fetch(URL_, { method: "POST", headers: { authorization: "DPoP t" }, body: "{}" });
  await fetch(URL_, { method: "POST", body: "{}" });
  await fetch(URL_, { method: "POST", headers: { authorization: "Bearer t" }, body: "{}" });
  assert.equal(rejected, 1, "only the 401 to a request that carried a token");
  assert.deepEqual(challenges, ['DPoP error="invalid_token"', 'DPoP error="invalid_token"']);
});

Deno.test("oauth config export: the identity provider's literal secret is redacted, references stay", () => {
  const redacted = redactConfig({
    mcpServers: [{
      id: "crm",
      oauth: {
        grantType: "enterprise-managed",
        clientSecret: "literal-secret",
        identityProvider: { clientSecret: "idp-literal", idToken: "env:ID_TOKEN" },
      },
    }, { id: "w", oauth: { grantType: "jwt-bearer", assertion: "env:WORKLOAD" } }],
  }) as { mcpServers: { oauth: Record<string, unknown> }[] };
  assert.deepEqual(redacted.mcpServers[0].oauth, {
    grantType: "enterprise-managed",
    clientSecret: "<redacted>",
    identityProvider: { clientSecret: "<redacted>", idToken: "env:ID_TOKEN" },
  });
  assert.deepEqual(redacted.mcpServers[1].oauth, {
    grantType: "jwt-bearer",
    assertion: "env:WORKLOAD",
  });
});

Deno.test("jwt-bearer and enterprise-managed grants: the assertion is read, or exchanged, for each grant", async () => {
  const dir = await mkdtemp(join(tmpdir(), "lass-grants-"));
  try {
    const store = new OAuthStore(nodeFileSystem, dir);
    const deps = { store, refreshes: new RefreshCoalescer() };
    let reads = 0;
    const workload = new MachineAuthProvider({
      serverId: "w",
      serverUrl: URL_,
      grant: "jwt-bearer",
      clientId: "workload",
      assertion: () => Promise.resolve(`jwt-${++reads}`),
    }, deps);
    assert.deepEqual(workload.clientInformation(), { client_id: "workload" });
    const first = await workload.prepareTokenRequest("mcp");
    assert.deepEqual(Object.fromEntries(first), {
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: "jwt-1",
      scope: "mcp",
    });
    // The next grant (the token expired) reads the workload's token again.
    assert.equal((await workload.prepareTokenRequest()).get("assertion"), "jwt-2");

    const exchanges: URLSearchParams[] = [];
    const enterprise = new MachineAuthProvider({
      serverId: "e",
      serverUrl: URL_,
      grant: "enterprise-managed",
      clientId: "lass-at-crm",
      clientSecret: "crm-secret",
      identityProvider: {
        issuer: "http://127.0.0.1:9",
        tokenEndpoint: "http://127.0.0.1:9/token",
        clientId: "lass",
        clientSecret: "idp-secret",
        idToken: () => Promise.resolve("the-id-token"),
      },
    }, {
      ...deps,
      fetch: (_url, init) => {
        exchanges.push(new URLSearchParams(String(init?.body)));
        return Promise.resolve(Response.json({
          access_token: `id-jag-${exchanges.length}`,
          issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
          token_type: "N_A",
        }));
      },
    });
    enterprise.saveAuthorizationServerUrl("https://as.example.com");
    enterprise.saveResourceUrl("https://crm.example.com/mcp");
    const grant = await enterprise.prepareTokenRequest("crm.read");
    assert.deepEqual(Object.fromEntries(grant), {
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: "id-jag-1",
      scope: "crm.read",
    });
    assert.deepEqual(Object.fromEntries(exchanges[0]), {
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: "https://as.example.com",
      resource: "https://crm.example.com/mcp",
      subject_token: "the-id-token",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      client_id: "lass",
      client_secret: "idp-secret",
      scope: "crm.read",
    });
    assert.deepEqual(enterprise.clientInformation(), {
      client_id: "lass-at-crm",
      client_secret: "crm-secret",
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
