/** The same chat turn through every provider kind, against the fake vendor servers. */
import assert from "node:assert/strict";
import { type Json, startService } from "./_helpers.ts";
import { chat, chatConfig, DEMO_SERVER, ofType, user } from "./_chat.ts";
import { KINDS, startFakeVendor } from "./fixtures/fake_vendors.ts";

for (const kind of Object.keys(KINDS)) {
  Deno.test(`${kind}: a chat turn with a tool call on the demo server`, async () => {
    const fake = await startFakeVendor();
    fake.script([
      { reasoning: ["Adding."], toolCalls: [{ name: "demo__add", args: { a: 2, b: 3 } }] },
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
      assert.ok(steps[0].usage.inputTokens > 0, JSON.stringify(steps[0].usage));
      const finish = chunks.at(-1);
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
