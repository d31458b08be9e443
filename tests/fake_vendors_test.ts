/** Drives the real AI SDK providers against the fake vendor server in tests/fixtures/fake_vendors.ts. */
import assert from "node:assert/strict";
import { z } from "zod";
import {
  APICallError,
  generateText,
  isStepCount,
  type LanguageModel,
  streamText,
  type TextStreamPart,
  tool,
  type ToolSet,
} from "ai";
import { createOpenAI } from "@ai-sdk/openai";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogle } from "@ai-sdk/google";
import { createAzure } from "@ai-sdk/azure";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createOllama } from "ollama-ai-provider-v2";
import { type RecordedRequest, startFakeVendor, VENDOR_PREFIXES } from "./fixtures/fake_vendors.ts";

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

/** One provider setup under test. */
interface Setup {
  name: string;
  model(url: string): LanguageModel;
  /** Path (and query) of the streaming and of the non-streaming request. */
  streamPath: string;
  generatePath: string;
  streamSearch?: string;
  generateSearch?: string;
  /** Auth header the SDK sends, lower-case name; undefined: none checked. */
  auth?: [string, string];
  /** Whether the provider turns the vendor's reasoning into reasoning parts. */
  reasoning: boolean;
  /** Appears in the second request once the tool result is sent back. */
  toolResultMarker: string;
}

const A = VENDOR_PREFIXES;
const DEPLOYMENT = "my-deployment";

const SETUPS: Setup[] = [
  {
    name: "openai responses",
    model: (url) => createOpenAI({ baseURL: url + A.openai, apiKey: "sk-openai" })("fake-large"),
    streamPath: `${A.openai}/responses`,
    generatePath: `${A.openai}/responses`,
    auth: ["authorization", "Bearer sk-openai"],
    reasoning: true,
    toolResultMarker: '"type":"function_call_output"',
  },
  {
    name: "openai chat",
    model: (url) =>
      createOpenAI({ baseURL: url + A.openai, apiKey: "sk-openai" }).chat("fake-large"),
    streamPath: `${A.openai}/chat/completions`,
    generatePath: `${A.openai}/chat/completions`,
    auth: ["authorization", "Bearer sk-openai"],
    reasoning: false,
    toolResultMarker: '"role":"tool"',
  },
  {
    name: "anthropic",
    model: (url) => createAnthropic({ baseURL: url + A.anthropic, apiKey: "sk-ant" })("fake-large"),
    streamPath: `${A.anthropic}/messages`,
    generatePath: `${A.anthropic}/messages`,
    auth: ["x-api-key", "sk-ant"],
    reasoning: true,
    toolResultMarker: '"type":"tool_result"',
  },
  {
    name: "google",
    model: (url) => createGoogle({ baseURL: url + A.gemini, apiKey: "g-key" })("fake-large"),
    streamPath: `${A.gemini}/models/fake-large:streamGenerateContent`,
    streamSearch: "?alt=sse",
    generatePath: `${A.gemini}/models/fake-large:generateContent`,
    auth: ["x-goog-api-key", "g-key"],
    reasoning: true,
    toolResultMarker: '"functionResponse"',
  },
  {
    name: "azure responses",
    model: (url) =>
      createAzure({ baseURL: url + A.azure + "/openai", apiKey: "az-key" })(DEPLOYMENT),
    streamPath: `${A.azure}/openai/responses`,
    generatePath: `${A.azure}/openai/responses`,
    streamSearch: "",
    generateSearch: "",
    auth: ["api-key", "az-key"],
    reasoning: true,
    toolResultMarker: '"type":"function_call_output"',
  },
  {
    name: "azure chat",
    model: (url) =>
      createAzure({ baseURL: url + A.azure + "/openai", apiKey: "az-key" }).chat(DEPLOYMENT),
    streamPath: `${A.azure}/openai/chat/completions`,
    generatePath: `${A.azure}/openai/chat/completions`,
    streamSearch: "",
    generateSearch: "",
    auth: ["api-key", "az-key"],
    reasoning: false,
    toolResultMarker: '"role":"tool"',
  },
  {
    name: "azure deployment chat",
    model: (url) =>
      createAzure({
        baseURL: url + A.azure + "/openai",
        apiKey: "az-key",
        apiVersion: "2024-10-21",
        useDeploymentBasedUrls: true,
      }).chat(DEPLOYMENT),
    streamPath: `${A.azure}/openai/deployments/${DEPLOYMENT}/chat/completions`,
    generatePath: `${A.azure}/openai/deployments/${DEPLOYMENT}/chat/completions`,
    streamSearch: "?api-version=2024-10-21",
    generateSearch: "?api-version=2024-10-21",
    auth: ["api-key", "az-key"],
    reasoning: false,
    toolResultMarker: '"role":"tool"',
  },
  {
    name: "ollama",
    model: (url) =>
      createOllama({ baseURL: url + A.ollama, headers: { Authorization: "Bearer ol-key" } })(
        "fake-large",
      ),
    streamPath: `${A.ollama}/chat`,
    generatePath: `${A.ollama}/chat`,
    auth: ["authorization", "Bearer ol-key"],
    reasoning: true,
    toolResultMarker: '"role":"tool"',
  },
  {
    name: "openai-compatible",
    model: (url) =>
      createOpenAICompatible({
        name: "x",
        baseURL: url + A.compatible,
        apiKey: "c-key",
        includeUsage: true,
      })("fake-large"),
    streamPath: `${A.compatible}/chat/completions`,
    generatePath: `${A.compatible}/chat/completions`,
    auth: ["authorization", "Bearer c-key"],
    reasoning: true,
    toolResultMarker: '"role":"tool"',
  },
];

/** The weather tool of the round-trip tests; records its inputs. */
function weatherTools(calls: unknown[]): ToolSet {
  return {
    get_weather: tool({
      description: "Weather in a city",
      inputSchema: z.object({ city: z.string() }),
      execute: ({ city }) => {
        calls.push({ city });
        return Promise.resolve({ city, temperature: 21 });
      },
    }),
  };
}

/** Reads a whole stream into its parts. */
async function collect<T extends ToolSet>(
  stream: AsyncIterable<TextStreamPart<T>>,
): Promise<TextStreamPart<T>[]> {
  const parts: TextStreamPart<T>[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}

/** Non-empty deltas of one kind. */
function deltas<T extends ToolSet>(
  parts: TextStreamPart<T>[],
  type: "text-delta" | "reasoning-delta",
): string[] {
  const out: string[] = [];
  for (const part of parts) {
    if ((part.type === "text-delta" || part.type === "reasoning-delta") && part.type === type) {
      if (part.text !== "") out.push(part.text);
    }
  }
  return out;
}

/** The request body as text with JSON-in-JSON escapes removed. */
function flatBody(request: RecordedRequest): string {
  return JSON.stringify(request.body).replaceAll("\\", "");
}

/** Checks where a request went and that it carried the auth header. */
function assertRequest(setup: Setup, request: RecordedRequest, path: string, search?: string) {
  assert.equal(request.method, "POST");
  assert.equal(request.path, path);
  if (search !== undefined) assert.equal(request.search, search);
  if (setup.auth) assert.equal(request.headers[setup.auth[0]], setup.auth[1]);
}

for (const setup of SETUPS) {
  Deno.test(`fake vendor + ${setup.name}`, async (t) => {
    const fake = await startFakeVendor();
    const model = setup.model(fake.url);
    try {
      await t.step("streams text and reasoning deltas with usage", async () => {
        fake.requests.length = 0;
        fake.script([{
          reasoning: ["Let me ", "think."],
          text: ["Hel", "lo ", "world"],
          usage: { input: 42, output: 7 },
        }]);
        const result = streamText({ model, prompt: "Hi", maxRetries: 0, onError: () => {} });
        const parts = await collect(result.stream);
        assert.deepEqual(deltas(parts, "text-delta"), ["Hel", "lo ", "world"]);
        assert.deepEqual(
          deltas(parts, "reasoning-delta"),
          setup.reasoning ? ["Let me ", "think."] : [],
        );
        assert.equal(await result.text, "Hello world");
        assert.equal(await result.finishReason, "stop");
        const usage = await result.usage;
        assert.equal(usage.inputTokens, 42);
        assert.equal(usage.outputTokens, 7);
        assert.equal(fake.requests.length, 1);
        assertRequest(setup, fake.requests[0], setup.streamPath, setup.streamSearch);
      });

      await t.step("two-step tool round trip", async () => {
        fake.requests.length = 0;
        fake.script([
          {
            reasoning: ["Need weather."],
            toolCalls: [{ name: "get_weather", args: { city: "Paris" } }],
          },
          { text: ["It is ", "sunny ", "in Paris."] },
        ]);
        const calls: unknown[] = [];
        const result = streamText({
          model,
          prompt: "Weather in Paris?",
          tools: weatherTools(calls),
          stopWhen: isStepCount(3),
          maxRetries: 0,
          onError: () => {},
        });
        const parts = await collect(result.stream);
        assert.equal(await result.text, "It is sunny in Paris.");
        assert.deepEqual(calls, [{ city: "Paris" }]);
        assert.ok(parts.some((p) => p.type === "tool-result"));
        assert.equal((await result.steps).length, 2);
        assert.equal(fake.requests.length, 2);
        const second = flatBody(fake.requests[1]);
        assert.ok(second.includes(setup.toolResultMarker), second);
        assert.ok(second.includes('"temperature":21'), second);
        const usage = await result.usage;
        assert.equal(usage.inputTokens, 20);
        assert.equal(usage.outputTokens, 10);
      });

      await t.step("generateText uses the non-streaming request", async () => {
        fake.requests.length = 0;
        fake.script([
          { reasoning: ["Hmm."], text: ["Plain ", "answer."], usage: { input: 3, output: 4 } },
          { toolCalls: [{ name: "get_weather", args: { city: "Oslo" } }] },
          { text: ["Cold in Oslo."] },
        ]);
        const plain = await generateText({ model, prompt: "Hi", maxRetries: 0 });
        assert.equal(plain.text, "Plain answer.");
        assert.equal(plain.reasoningText, setup.reasoning ? "Hmm." : undefined);
        assert.equal(plain.finishReason, "stop");
        assert.equal(plain.usage.inputTokens, 3);
        assert.equal(plain.usage.outputTokens, 4);

        const calls: unknown[] = [];
        const withTool = await generateText({
          model,
          prompt: "Weather in Oslo?",
          tools: weatherTools(calls),
          stopWhen: isStepCount(3),
          maxRetries: 0,
        });
        assert.equal(withTool.text, "Cold in Oslo.");
        assert.deepEqual(calls, [{ city: "Oslo" }]);
        assert.equal(fake.requests.length, 3);
        for (const request of fake.requests) {
          assertRequest(setup, request, setup.generatePath, setup.generateSearch);
          assert.notEqual((request.body as { stream?: unknown }).stream, true);
        }
        assert.ok(flatBody(fake.requests[2]).includes(setup.toolResultMarker));
      });

      await t.step("a scripted 401 surfaces as APICallError", async () => {
        fake.script([{ status: 401 }]);
        const result = streamText({ model, prompt: "Hi", maxRetries: 0, onError: () => {} });
        const parts = await collect(result.stream);
        const errorPart = parts.find((p) => p.type === "error");
        assert.ok(errorPart?.type === "error");
        const error = errorPart.error;
        assert.ok(APICallError.isInstance(error), String(error));
        assert.equal(error.statusCode, 401);
        // Ollama's provider expects {error:{message}}, real Ollama sends {error:"…"}: message falls back to the status text.
        const message = setup.name === "ollama" ? "Unauthorized" : "Incorrect API key provided";
        assert.equal(error.message, message);

        await assert.rejects(
          () => generateText({ model, prompt: "Hi", maxRetries: 0 }),
          (e: unknown) => APICallError.isInstance(e) && e.statusCode === 401,
        );
      });

      await t.step("a slow stream can be aborted mid-way", async () => {
        fake.script([{
          text: Array.from({ length: 30 }, (_, i) => `tick${i} `),
          chunkDelayMs: 20,
        }]);
        const controller = new AbortController();
        const started = Date.now();
        const result = streamText({
          model,
          prompt: "Count",
          abortSignal: controller.signal,
          maxRetries: 0,
          onError: () => {},
        });
        let seen = 0;
        const types: string[] = [];
        for await (const part of result.stream) {
          types.push(part.type);
          if (part.type === "text-delta" && part.text !== "" && ++seen === 2) {
            controller.abort(new Error("user cancelled"));
          }
        }
        assert.ok(types.includes("abort"), types.join(","));
        assert.ok(seen >= 2 && seen < 30, `saw ${seen} deltas`);
        assert.ok(Date.now() - started < 500, "abort did not wait for the whole stream");
        await assert.rejects(async () => await result.text);
      });
    } finally {
      await fake.close();
    }
  });
}

Deno.test("fake vendor: model-list endpoints and their scripted errors", async () => {
  const fake = await startFakeVendor();
  const get = async (path: string) => {
    const res = await fetch(fake.url + path);
    return { status: res.status, body: await res.json() };
  };
  try {
    fake.models = ["alpha", "beta"];
    for (const prefix of [A.openai, A.compatible, `${A.azure}/openai`]) {
      const { status, body } = await get(`${prefix}/models`);
      assert.equal(status, 200);
      assert.equal(body.object, "list");
      assert.deepEqual(body.data.map((m: { id: string }) => m.id), ["alpha", "beta"]);
      assert.equal(body.data[0].object, "model");
    }
    const deployments = await get(`${A.azure}/openai/deployments`);
    assert.deepEqual(deployments.body.data[1], {
      ...deployments.body.data[1],
      id: "beta",
      model: "beta",
      object: "deployment",
      status: "succeeded",
    });
    const anthropic = await get(`${A.anthropic}/models`);
    assert.equal(anthropic.body.has_more, false);
    assert.equal(anthropic.body.first_id, "alpha");
    assert.equal(anthropic.body.last_id, "beta");
    assert.equal(anthropic.body.data[0].type, "model");
    const gemini = await get(`${A.gemini}/models`);
    assert.equal(gemini.body.models[0].name, "models/alpha");
    assert.deepEqual(gemini.body.models[0].supportedGenerationMethods, ["generateContent"]);
    const ollama = await get(`${A.ollama}/tags`);
    assert.equal(ollama.body.models[1].name, "beta");
    assert.equal(typeof ollama.body.models[1].details.parameter_size, "string");

    const errors: [string, unknown][] = [
      [`${A.openai}/models`, {
        error: {
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      }],
      [`${A.anthropic}/models`, {
        type: "error",
        error: { type: "authentication_error", message: "Incorrect API key provided" },
      }],
      [`${A.gemini}/models`, {
        error: { code: 401, message: "Incorrect API key provided", status: "UNAUTHENTICATED" },
      }],
      [`${A.ollama}/tags`, { error: "Incorrect API key provided" }],
      [`${A.azure}/openai/deployments`, {
        error: {
          message: "Incorrect API key provided",
          type: "invalid_request_error",
          param: null,
          code: "invalid_api_key",
        },
      }],
    ];
    for (const [path, expected] of errors) {
      fake.script([{ status: 401 }, { text: ["ok"] }]);
      assert.deepEqual(await get(path), { status: 401, body: expected });
      assert.equal((await get(path)).status, 200, "the error turn was used up");
    }
    fake.script([{ status: 429, errorMessage: "slow down" }]);
    assert.deepEqual(await get(`${A.compatible}/models`), {
      status: 429,
      body: {
        error: {
          message: "slow down",
          type: "requests",
          param: null,
          code: "rate_limit_exceeded",
        },
      },
    });
  } finally {
    await fake.close();
  }
});

Deno.test("fake vendor: unknown paths answer 404 JSON and requests are recorded", async () => {
  const fake = await startFakeVendor();
  try {
    for (const path of ["/nope", `${A.openai}/embeddingz`, `${A.anthropic}/complete`]) {
      const res = await fetch(fake.url + path, { method: "POST", body: "not json" });
      assert.equal(res.status, 404);
      assert.equal(res.headers.get("content-type"), "application/json");
      await res.json();
    }
    assert.equal(fake.requests.length, 3);
    assert.equal(fake.requests[0].body, "not json");
    assert.equal(fake.requests[2].path, `${A.anthropic}/complete`);
  } finally {
    await fake.close();
  }
});

Deno.test("fake vendor: a function script answers from the request", async () => {
  const fake = await startFakeVendor();
  try {
    fake.script((request) => {
      const body = request.body as { messages?: { content?: unknown }[] };
      return { text: [`echo: ${JSON.stringify(body.messages?.at(-1)?.content)}`] };
    });
    const model = createOpenAI({ baseURL: fake.url + A.openai, apiKey: "k" }).chat("m");
    const { text } = await generateText({ model, prompt: "ping", maxRetries: 0 });
    assert.equal(text, 'echo: "ping"');
    const defaults = await startFakeVendor();
    try {
      const other = createOpenAI({ baseURL: defaults.url + A.openai, apiKey: "k" })("m");
      assert.equal(
        (await generateText({ model: other, prompt: "x" })).text,
        "Hello from the fake.",
      );
    } finally {
      await defaults.close();
    }
  } finally {
    await fake.close();
  }
});
