/** The shared suite of model profiles: every provider kind against the fake vendor servers. */
import assert from "node:assert/strict";
import { isStepCount, streamText, tool } from "ai";
import { z } from "zod";
import type { LlmProfile } from "../wire/config/schema.ts";
import { LlmProfileSchema } from "../wire/config/llm_profile_schema.ts";
import { listModels } from "../core/llm/models.ts";
import { testProfile } from "../core/llm/probe.ts";
import { resolveModel } from "../core/llm/providers.ts";
import { type FakeVendor, KINDS, startFakeVendor } from "./fixtures/fake_vendors.ts";
import { type Json, readJsonResponse, startService } from "./_helpers.ts";

const ENV: Record<string, string> = { FAKE_KEY: "sk-test-key" };
const env = (name: string) => ENV[name];

function profileFor(kind: string, url: string, extra: Record<string, unknown> = {}): LlmProfile {
  return LlmProfileSchema.parse({
    id: "p",
    name: kind,
    model: "fake-large",
    apiKey: "env:FAKE_KEY",
    ...KINDS[kind](url),
    ...extra,
  });
}

async function withFake(run: (fake: FakeVendor) => Promise<void>): Promise<void> {
  const fake = await startFakeVendor();
  try {
    await run(fake);
  } finally {
    await fake.close();
  }
}

/** The stream parts of one `streamText` run, by type. */
async function collect(result: { stream: AsyncIterable<{ type: string }> }) {
  const parts: Json[] = [];
  for await (const part of result.stream) parts.push(part);
  return parts;
}

for (const kind of Object.keys(KINDS)) {
  Deno.test(`${kind}: streams text in deltas with usage`, async () => {
    await withFake(async (fake) => {
      fake.script([{ text: ["Hello", " from", " the fake"], usage: { input: 12, output: 7 } }]);
      const { model, settings } = resolveModel(profileFor(kind, fake.url), env);
      const result = streamText({
        ...settings,
        model,
        prompt: "Hi",
        maxRetries: 0,
        onError: () => {},
      });
      const parts = await collect(result);
      const deltas = parts.filter((p) => p.type === "text-delta").map((p) => p.text);
      assert.ok(deltas.length >= 2, `several deltas, got ${deltas.length}`);
      assert.equal(deltas.join(""), "Hello from the fake");
      const usage = await result.usage;
      assert.equal(usage.inputTokens, 12);
      assert.equal(usage.outputTokens, 7);
    });
  });

  Deno.test(`${kind}: a tool call round trip over two steps`, async () => {
    await withFake(async (fake) => {
      fake.script([
        { toolCalls: [{ name: "get_weather", args: { city: "Lisbon" } }] },
        { text: ["It is", " sunny"] },
      ]);
      const { model, settings } = resolveModel(profileFor(kind, fake.url), env);
      const seen: string[] = [];
      const result = streamText({
        ...settings,
        model,
        prompt: "Weather in Lisbon?",
        maxRetries: 0,
        onError: () => {},
        stopWhen: isStepCount(3),
        tools: {
          get_weather: tool({
            description: "Weather of a city",
            inputSchema: z.object({ city: z.string() }),
            execute: ({ city }) => {
              seen.push(city);
              return { city, sky: "sunny" };
            },
          }),
        },
      });
      await collect(result);
      assert.deepEqual(seen, ["Lisbon"]);
      assert.equal(await result.text, "It is sunny");
      const messages = await result.responseMessages;
      assert.deepEqual(messages.map((m) => m.role), ["assistant", "tool", "assistant"]);
      const second = JSON.stringify(fake.requests.filter((r) => r.method === "POST")[1].body);
      assert.match(second, /sunny/, "the second request carries the tool result");
    });
  });

  Deno.test(`${kind}: llm/test and llm/models succeed over HTTP`, async () => {
    await withFake(async (fake) => {
      fake.script([{ text: ["OK"] }]);
      const t = await startService({ env: ENV });
      try {
        const profile = profileFor(kind, fake.url);
        const tested = await readJsonResponse(
          await t.call("/api/llm/test", { method: "POST", json: { profile } }),
        );
        assert.equal(tested.status, 200);
        assert.equal(tested.body.ok, true, tested.body.error);
        assert.equal(tested.body.text, "OK");
        assert.ok(tested.body.latencyMs >= 0);
        const listed = await readJsonResponse(
          await t.call("/api/llm/models", { method: "POST", json: { profile } }),
        );
        assert.equal(listed.status, 200);
        assert.equal(listed.body.error, undefined);
        assert.deepEqual(listed.body.models.map((m: Json) => m.id), ["fake-large", "fake-small"]);
        const authorised = fake.requests.every((r) =>
          JSON.stringify(r.headers).includes("sk-test-key") || r.path.includes("/ollama/")
        );
        assert.ok(authorised, "every request carries the key from the env reference");
      } finally {
        await t.close();
      }
    });
  });

  Deno.test(`${kind}: a 401 and a 500 become sentences, never exceptions`, async () => {
    await withFake(async (fake) => {
      const profile = profileFor(kind, fake.url);
      fake.script([{ status: 401 }]);
      const rejected = await testProfile(profile, env);
      assert.equal(rejected.ok, false);
      if (kind !== "local-e") assert.match(rejected.error!, /rejected the API key \(401\)/);
      fake.script([{ status: 500, errorMessage: "the fake broke" }]);
      const failed = await testProfile(profile, env);
      assert.match(failed.error!, /failed \(500\)/);
      assert.match(failed.error!, /the fake broke/);
      fake.script([{ status: 401 }]);
      const list = await listModels(profile, env);
      assert.deepEqual(list.models, []);
      assert.match(list.error!, /\(401\)/);
    });
  });

  Deno.test(`${kind}: a stream can be aborted midway`, async () => {
    await withFake(async (fake) => {
      fake.script([{ text: ["one", " two", " three", " four", " five"], chunkDelayMs: 100 }]);
      const { model, settings } = resolveModel(profileFor(kind, fake.url), env);
      const abort = new AbortController();
      const result = streamText({
        ...settings,
        model,
        prompt: "Count",
        maxRetries: 0,
        onError: () => {},
        abortSignal: abort.signal,
      });
      const deltas: string[] = [];
      let aborted = false;
      for await (const part of result.stream) {
        if (part.type === "text-delta") {
          deltas.push(part.text);
          abort.abort();
        }
        if (part.type === "abort") aborted = true;
      }
      assert.equal(aborted, true);
      assert.ok(deltas.length < 5, `stopped early after ${deltas.length} deltas`);
    });
  });
}

Deno.test("local-e maps temperature and max tokens into Ollama's options", async () => {
  await withFake(async (fake) => {
    fake.script([{ text: ["OK"] }]);
    const profile = profileFor("local-e", fake.url, { temperature: 0.3, maxOutputTokens: 42 });
    assert.equal((await testProfile(profile, env)).ok, true);
    const body = fake.requests.find((r) => r.method === "POST")!.body as Json;
    assert.deepEqual(body.options, { temperature: 0.3, num_predict: 42 });
  });
});

Deno.test("an unset key reference is reported as a missing key, without a request", async () => {
  await withFake(async (fake) => {
    const profile = profileFor("hosted-a responses", fake.url, { apiKey: "env:NOT_SET_ANYWHERE" });
    const result = await testProfile(profile, env);
    assert.deepEqual(result, {
      ok: false,
      latencyMs: 0,
      error: "no API key: NOT_SET_ANYWHERE is not set",
    });
    const noKey = profileFor("hosted-b", fake.url, { apiKey: undefined });
    assert.match((await listModels(noKey, env)).error!, /ANTHROPIC_API_KEY is not set/);
    assert.equal(fake.requests.length, 0);
  });
});

Deno.test("an unreachable host and a silent one give clear errors", async () => {
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const ollama = profileFor("local-e", `http://127.0.0.1:${port}`);
  assert.match((await testProfile(ollama, env)).error!, /cannot reach .* - is Ollama running\?/);
  assert.match((await listModels(ollama, env)).error!, /is Ollama running\?/);

  let release = () => {};
  const gate = new Promise<void>((resolve) => release = resolve);
  const silent = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    await gate;
    return new Response("too late");
  });
  try {
    const profile = profileFor("compatible-api", `http://127.0.0.1:${silent.addr.port}`);
    const result = await testProfile(profile, env, { timeoutMs: 300 });
    assert.equal(result.ok, false);
    assert.match(
      result.error!,
      /^no answer from http:\/\/127\.0\.0\.1:\d+\/compatible\/v1 within 300 ms$/,
    );
  } finally {
    release();
    await silent.shutdown();
  }
});

Deno.test("a 200 answer the SDK rejects keeps its cause in llm/test and chat errors", async () => {
  await withFake(async (fake) => {
    fake.script([{ invalidBody: true }]);
    for (const kind of ["compatible-api", "hosted-a chat"]) {
      const profile = profileFor(kind, fake.url);
      const t = await startService({
        env: ENV,
        config: {
          llms: [profile],
          mcpServers: [],
          workspaces: [{ id: "w", name: "W", llmId: "p", mcpServerIds: [] }],
          activeWorkspaceId: "w",
        },
      });
      try {
        const tested = await readJsonResponse(
          await t.call("/api/llm/test", { method: "POST", json: { profile } }),
        );
        assert.equal(tested.body.ok, false, kind);
        assert.match(
          tested.body.error,
          /^the answer is not a valid Chat Completions response: created: .*expected number/,
          kind,
        );
        const response = await t.call("/api/chat", {
          method: "POST",
          json: { messages: [{ role: "user", content: "hi" }] },
        });
        const chunks = (await response.text()).trim().split("\n").map((line) => JSON.parse(line));
        const error = chunks.find((chunk) => chunk.type === "error");
        assert.match(error?.message ?? "", /not valid: created: .*expected number/, kind);
        assert.doesNotMatch(error.message, /status 200/);
      } finally {
        await t.close();
      }
    }
  });
});

Deno.test("POST /api/llm/test and /models reject bad profiles with 400 and details", async () => {
  const t = await startService();
  try {
    const cases: [unknown, string][] = [
      [{ profile: { id: "x", name: "X", provider: "hosted-z", model: "m" } }, "profile.provider"],
      [
        { profile: { id: "x", name: "X", provider: "compatible-api", model: "m" } },
        "profile.baseURL",
      ],
      [
        { profile: { id: "x", name: "X", provider: "hosted-a", model: "m", temperature: 5 } },
        "profile.temperature",
      ],
      [{}, "profile"],
    ];
    for (const path of ["/api/llm/test", "/api/llm/models"]) {
      for (const [body, detail] of cases) {
        const { status, body: error } = await readJsonResponse(
          await t.call(path, { method: "POST", json: body }),
        );
        assert.deepEqual([status, error.error.code], [400, "invalid-request"], `${path} ${detail}`);
        assert.ok(error.error.details.some((d: Json) => d.path === detail), JSON.stringify(error));
      }
    }
  } finally {
    await t.close();
  }
});

Deno.test("the demo profile answers llm/test and llm/models with no network and no key", async () => {
  const t = await startService();
  try {
    const profile = {
      id: "demo",
      name: "Demo",
      provider: "compatible-api",
      model: "demo",
      baseURL: "service:demo",
    };
    const tested = await readJsonResponse(
      await t.call("/api/llm/test", { method: "POST", json: { profile } }),
    );
    assert.equal(tested.body.ok, true);
    assert.ok(tested.body.text.length > 0);
    const listed = await readJsonResponse(
      await t.call("/api/llm/models", { method: "POST", json: { profile } }),
    );
    assert.deepEqual(listed.body.models.map((m: Json) => m.id), ["demo"]);
  } finally {
    await t.close();
  }
});

Deno.test("messages never show credentials; unset references and bad addresses are named", async () => {
  const vars: Record<string, string> = { SECRET_PART: "hunter2-SECRET" };
  const lookup = (name: string) => vars[name];
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (closed.addr as Deno.NetAddr).port;
  closed.close();
  const leaky = LlmProfileSchema.parse({
    id: "x",
    name: "X",
    provider: "compatible-api",
    model: "m",
    baseURL: `http://user:\${SECRET_PART}@127.0.0.1:${port}/v1?key=\${SECRET_PART}`,
  });
  const tested = await testProfile(leaky, lookup);
  const listed = await listModels(leaky, lookup);
  for (const message of [tested.error!, listed.error!]) {
    assert.match(message, /cannot reach/);
    assert.ok(!message.includes("hunter2"), message);
  }
  const unsetKey = LlmProfileSchema.parse({
    id: "x",
    name: "X",
    provider: "compatible-api",
    model: "m",
    baseURL: "http://127.0.0.1:1/v1",
    apiKey: "env:UNSET_KEY",
  });
  assert.equal((await testProfile(unsetKey, lookup)).error, "no API key: UNSET_KEY is not set");
  const unsetUrl = LlmProfileSchema.parse({
    id: "x",
    name: "X",
    provider: "compatible-api",
    model: "m",
    baseURL: "${UNSET_URL}",
  });
  assert.equal(
    (await listModels(unsetUrl, lookup)).error,
    "the base URL is empty: UNSET_URL is not set",
  );
  const ollama = LlmProfileSchema.parse({ id: "o", name: "O", provider: "local-e", model: "m" });
  const badHost = await listModels(
    ollama,
    (name) => name === "OLLAMA_HOST" ? "http://[::1" : undefined,
  );
  assert.match(badHost.error!, /^OLLAMA_HOST is not a valid address/);
});
