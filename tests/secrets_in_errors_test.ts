/** Secrets a provider or a tool server echoes back never reach a response, a chunk or an event. */
import assert from "node:assert/strict";
import { scrubSecrets, secretValues } from "../core/config/secrets.ts";
import { chat, chatConfig, fakeLlm, user } from "./_chat.ts";
import { type Json, post, startService, type TestService, waitForEvent } from "./_helpers.ts";
import { echoKeyScript, KINDS, startFakeVendor } from "./fixtures/fake_vendors.ts";

const ENV_KEY = "sk-echoed-env-key-0123456789abcdef";
const LITERAL_KEY = "sk-echoed-literal-key-9876543210";
const HEADER_TOKEN = "header-token-5555aaaa";
const ENV = { ECHO_KEY: ENV_KEY, ECHO_HEADER: HEADER_TOKEN };

/** Fails when any of the secrets is in `text`, naming where. */
function assertClean(text: string, secrets: string[], where: string): void {
  for (const secret of secrets) {
    assert.ok(!text.includes(secret), `${where} shows the secret ${secret}: ${text}`);
  }
}

/** Every event so far, as one text. */
function eventsText(t: TestService): string {
  return JSON.stringify(t.service.events.history());
}

/** The profiles under test: each provider kind with an `env:` key and a literal key. */
function profiles(url: string): Record<string, unknown>[] {
  const all: Record<string, unknown>[] = [];
  for (const [kind, make] of Object.entries(KINDS)) {
    if (kind === "local-e") continue;
    for (const apiKey of ["env:ECHO_KEY", LITERAL_KEY]) {
      all.push({ id: "p", name: kind, model: "fake-large", ...make(url), apiKey });
    }
  }
  // Ollama sends no key: a header with a literal value, and one with an interpolated reference.
  const ollama = KINDS["local-e"](url);
  all.push({
    id: "p",
    name: "ollama",
    model: "fake-large",
    ...ollama,
    headers: {
      authorization: `Bearer ${LITERAL_KEY}`,
    },
  });
  all.push({
    id: "p",
    name: "ollama ref",
    model: "fake-large",
    ...ollama,
    headers: {
      authorization: "Bearer ${ECHO_HEADER}",
    },
  });
  return all;
}

Deno.test("a provider that echoes the key in a 401: llm/test and llm/models never show it", async () => {
  const fake = await startFakeVendor();
  fake.script(echoKeyScript());
  const t = await startService({ env: ENV });
  const secrets = [ENV_KEY, LITERAL_KEY, HEADER_TOKEN];
  try {
    for (const profile of profiles(fake.url)) {
      const where = String(profile.name);
      const before = fake.requests.length;
      const tested = await post(t, "/api/llm/test", { profile });
      assert.equal(tested.status, 200, where);
      assert.equal(tested.body.ok, false, where);
      assert.match(tested.body.error, /\(401\).*<redacted>/, `${where}: ${tested.body.error}`);
      assertClean(JSON.stringify(tested.body), secrets, `llm/test of ${where}`);
      const listed = await post(t, "/api/llm/models", { profile });
      assert.equal(listed.status, 200, where);
      assert.match(listed.body.error, /\(401\).*<redacted>/, `${where}: ${listed.body.error}`);
      assertClean(JSON.stringify(listed.body), secrets, `llm/models of ${where}`);
      // The fake did get a secret and quoted it: the test would see a leak.
      const sent = JSON.stringify(fake.requests.slice(before));
      assert.ok(secrets.some((secret) => sent.includes(secret)), `${where} sent no secret`);
    }
    assertClean(eventsText(t), secrets, "the events");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a provider that echoes the key in a 401: the chat's error chunk and chat.error never show it", async () => {
  const fake = await startFakeVendor();
  fake.script(echoKeyScript());
  const t = await startService({
    env: ENV,
    config: chatConfig({
      servers: [],
      llms: [
        fakeLlm(fake.url, "env", { apiKey: "env:ECHO_KEY" }),
        fakeLlm(fake.url, "literal", { apiKey: LITERAL_KEY }),
      ],
    }),
  });
  const secrets = [ENV_KEY, LITERAL_KEY];
  try {
    for (const llmId of ["env", "literal"]) {
      const errored = waitForEvent(t, (e) => e.type === "chat.error", { what: "chat.error" });
      const { chunks } = await chat(t, { llmId, messages: [user("hi")] });
      const error = chunks.find((chunk: Json) => chunk.type === "error");
      assert.ok(error, `no error chunk for ${llmId}: ${JSON.stringify(chunks)}`);
      assert.match(error.message, /\(401\).*<redacted>/, error.message);
      assertClean(JSON.stringify(chunks), secrets, `the chat with ${llmId}`);
      assertClean(JSON.stringify((await errored).data), secrets, "chat.error");
    }
    assertClean(eventsText(t), secrets, "the events");
    assertClean(await (await t.call("/api/sessions")).text(), secrets, "the sessions");
  } finally {
    await t.close();
    await fake.close();
  }
});

/** An HTTP "tool server" that answers every request with `status`, quoting its Authorization. */
function echoingServer(status: number) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const message = `bad credentials: ${req.headers.get("authorization") ?? "(none)"}`;
    return new Response(JSON.stringify({ error: message }), {
      status,
      headers: { "content-type": "application/json" },
    });
  });
}

Deno.test("a tool server that echoes a literal header or URL credentials: GET /api/mcp and events never show them", async () => {
  const server = echoingServer(500);
  const port = server.addr.port;
  const headerSecret = "mcp-literal-header-secret-4242";
  const urlPassword = "mcp-url-password-7777";
  // Deno sends a URL's user info as Basic authentication, which the server quotes back.
  const basic = btoa(`lass:${urlPassword}`);
  const t = await startService({
    config: chatConfig({
      servers: [
        {
          id: "header",
          name: "Header",
          transport: "http",
          url: `http://127.0.0.1:${port}/mcp`,
          headers: { authorization: `Bearer ${headerSecret}` },
        },
        {
          id: "userinfo",
          name: "User info",
          transport: "http",
          url: `http://lass:${urlPassword}@127.0.0.1:${port}/mcp`,
        },
      ],
    }),
  });
  const secrets = [headerSecret, urlPassword, basic];
  try {
    for (const id of ["header", "userinfo"]) {
      const connected = await post(t, `/api/mcp/${id}/connect`);
      const shown = JSON.stringify(connected.body);
      assert.ok(["error", "needs-auth"].includes(connected.body.status), shown);
      assertClean(shown, secrets, `connecting ${id}`);
    }
    const listed = await (await t.call("/api/mcp")).text();
    assert.match(listed, /<redacted>/, listed);
    assertClean(listed, secrets, "GET /api/mcp");
    assertClean(eventsText(t), secrets, "the events");
  } finally {
    await t.close();
    await server.shutdown();
  }
});

Deno.test("secretValues finds keys, header credentials and URL credentials; scrubSecrets hides them", () => {
  const env = (name: string) => ({ KEY: "sk-from-env-1234", PASS: "pw-from-env" })[name];
  const secrets = secretValues({
    references: ["https://host/${KEY}"],
    values: ["Bearer literal-token-1", "env:KEY", "abc"],
    urls: ["https://me:${PASS}@host/x?api_key=query-secret&page=10", "not a url"],
  }, env);
  for (const secret of ["sk-from-env-1234", "literal-token-1", "pw-from-env", "query-secret"]) {
    assert.ok(secrets.includes(secret), `${secret} in ${secrets}`);
  }
  assert.ok(secrets.includes(btoa("me:pw-from-env")), "the Basic form of the user info");
  assert.ok(!secrets.includes("abc"), "too short to scrub");
  assert.ok(!secrets.includes("10"), "a query value with an ordinary name");
  assert.equal(
    scrubSecrets("key sk-from-env-1234 and sk-from-…", ["sk-from-env-1234"]),
    "key <redacted> and <redacted>…",
  );
  assert.equal(scrubSecrets("nothing here", ["sk-from-env-1234"]), "nothing here");
});
