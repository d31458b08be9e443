/** The same chat turn through every provider kind, against the fake vendor servers. */
import assert from "node:assert/strict";
import { type Json, startService } from "../_helpers.ts";
import { chat, chatConfig, DEMO_SERVER, ofType, user } from "../_chat.ts";
import { KINDS, startFakeVendor } from "../fixtures/fake_vendors.ts";

/** The counts each kind's wire format reports of `USAGE` (cached 30 of 100 in, reasoning 12 of 40 out). */
const REPORTED: Record<string, Json> = {
  "hosted-a responses": { cachedInputTokens: 30, reasoningTokens: 12 },
  "hosted-a chat": { cachedInputTokens: 30, reasoningTokens: 12 },
  // Anthropic has no reasoning count; it reports cache writes (none here).
  "hosted-b": { cachedInputTokens: 30, cacheWriteTokens: 0 },
  "hosted-c": { cachedInputTokens: 30, reasoningTokens: 12 },
  "cloud-d v1": { cachedInputTokens: 30, reasoningTokens: 12 },
  "cloud-d dated": { cachedInputTokens: 30, reasoningTokens: 12 },
  // Ollama reports no cache or reasoning counts.
  "local-e": {},
  "compatible-api": { cachedInputTokens: 30, reasoningTokens: 12 },
};
const USAGE = { input: 100, output: 40, cached: 30, reasoning: 12 };

for (const kind of Object.keys(KINDS)) {
  Deno.test(`${kind}: a chat turn with a tool call on the demo server`, async () => {
    const fake = await startFakeVendor();
    fake.script([
      {
        reasoning: ["Adding."],
        toolCalls: [{ name: "demo__add", args: { a: 2, b: 3 } }],
        usage: USAGE,
      },
      { text: ["The sum", " is 5."] },
    ]);
    const profile = {
      id: "p",
      name: kind,
      model: "fake-large",
      apiKey: "env:FAKE_KEY",
      ...KINDS[kind](fake.url),
    };
    const t = await startService({
      config: chatConfig({ servers: [DEMO_SERVER], llms: [profile] }),
      env: { FAKE_KEY: "sk-test-key" },
    });
    try {
      const { chunks } = await chat(t, { messages: [user("What is 2 + 3?")] });
      const types = chunks.map((c: Json) => c.type);
      assert.equal(types[0], "start");
      assert.equal(types.at(-1), "finish", JSON.stringify(chunks.at(-1)));
      assert.equal(chunks[0].profileId, "p");
      const [call] = ofType(chunks, "tool-call");
      assert.deepEqual([call.name, call.tool, call.source], ["demo__add", "add", "demo"]);
      assert.deepEqual(call.input, { a: 2, b: 3 });
      assert.ok(types.indexOf("tool-call") < types.indexOf("tool-result"));
      assert.equal(ofType(chunks, "tool-result")[0].output, "5");
      assert.equal(ofType(chunks, "text").map((c) => c.text).join(""), "The sum is 5.");
      const steps = ofType(chunks, "step");
      assert.deepEqual(steps.map((s) => s.finishReason), ["tool-calls", "stop"]);
      // Usage as the vendor reported it, on each step and in finish.steps; no price for fake-large.
      assert.deepEqual(steps[0].usage, {
        inputTokens: 100,
        outputTokens: 40,
        totalTokens: 140,
        ...REPORTED[kind],
      });
      const finish = chunks.at(-1);
      assert.deepEqual(finish.steps, steps.map(({ type: _, ...step }) => step));
      assert.equal(finish.usage.inputTokens, 110, "100 of the first step and 10 of the second");
      for (const priced of [finish, ...steps]) {
        assert.equal(priced.cost, null);
        assert.match(priced.costUnknown, /has no (\w+ )?model named fake-large/);
      }
      assert.deepEqual(finish.messages.map((m: Json) => m.role), [
        "assistant",
        "tool",
        "assistant",
      ]);
      const calls = fake.requests.filter((r) => r.method === "POST");
      assert.equal(calls.length, 2);
      assert.match(JSON.stringify(calls[1].body), /demo__add/);
      assert.match(JSON.stringify(calls[0].body), /demo__echo/, "the demo tools were offered");
    } finally {
      await t.close();
      await fake.close();
    }
  });
}
