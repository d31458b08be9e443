/** Turns that do not finish (the client goes away, the model fails) are saved to their session. */
import assert from "node:assert/strict";
import {
  type Json,
  serveOverHttp,
  startService,
  type TestService,
  TOKEN,
  waitForEvent,
} from "../_helpers.ts";
import { chat, chatConfig, fakeLlm, readChunks, user } from "../_chat.ts";
import { startFakeVendor } from "../fixtures/fake_vendors.ts";
import { PartialTurn } from "../../core/chat/partial_turn.ts";
import { ToolCallDetails } from "../../core/chat/tool_details.ts";
import { UNFINISHED_CALL } from "../../wire/chat.ts";

/** The session as `GET /api/sessions/:id` returns it. */
async function session(t: TestService, id: string): Promise<Json> {
  const response = await t.call(`/api/sessions/${id}`);
  assert.equal(response.status, 200);
  return await response.json();
}

/** The text of the assistant messages. */
function assistantText(messages: Json[]): string {
  return messages.filter((m) => m.role === "assistant").flatMap((m) =>
    typeof m.content === "string" ? [m.content] : m.content.map((p: Json) => p.text ?? "")
  ).join("");
}

Deno.test("an aborted turn is in its session after a reload, with what streamed; the next turn works", async () => {
  const fake = await startFakeVendor();
  fake.script([
    { text: Array.from({ length: 200 }, (_, i) => `word${i} `), chunkDelayMs: 20 },
    { text: ["all ", "good"] },
  ]);
  const t = await startService({
    config: chatConfig({ servers: [], llms: [fakeLlm(fake.url)] }),
  });
  const http = serveOverHttp(t);
  try {
    const errored = waitForEvent(t, (e) => e.type === "chat.error", { what: "chat.error" });
    const client = new AbortController();
    const response = await fetch(`${http.url}/api/chat`, {
      method: "POST",
      headers: { "x-service-token": TOKEN, "content-type": "application/json" },
      body: JSON.stringify({ messages: [user("talk for a while")], sessionId: "s-aborted" }),
      signal: client.signal,
    });
    let texts = 0;
    await readChunks(response, (chunk) => {
      if (chunk.type === "text" && ++texts === 3) client.abort();
      return texts === 3;
    }).catch(() => {});
    assert.equal((await errored).data.aborted, true);
    // The save is done when the run ends; wait for the session file.
    let stored: Json;
    for (let i = 0;; i++) {
      const response = await t.call("/api/sessions/s-aborted");
      if (response.status === 200) {
        stored = await response.json();
        break;
      }
      await response.body?.cancel();
      if (i > 400) assert.fail("session s-aborted was not saved within 20 s (GET was 404)");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual(stored.messages[0], user("talk for a while"));
    assert.match(assistantText(stored.messages), /^word0 word1 word2 /);
    assert.deepEqual(stored.meta.endings, { "0": { aborted: true } });

    const next = await chat(t, {
      messages: [user("talk for a while"), user("and now?")],
      sessionId: "s-aborted",
    });
    assert.equal(next.chunks.at(-1).type, "finish");
    const after = await session(t, "s-aborted");
    assert.deepEqual(
      after.messages.filter((m: Json) => m.role === "user").map((m: Json) => m.content),
      [
        "talk for a while",
        "and now?",
      ],
    );
    assert.match(assistantText(after.messages), /all good$/);
    assert.deepEqual(after.meta.endings, { "0": { aborted: true } });
  } finally {
    await http.close();
    await t.close();
    await fake.close();
  }
});

Deno.test("closing the service mid-turn saves the turn as aborted before the sessions close", async () => {
  const fake = await startFakeVendor();
  fake.script([{ text: Array.from({ length: 200 }, (_, i) => `word${i} `), chunkDelayMs: 20 }]);
  const dir = await Deno.makeTempDir({ prefix: "lass-shutdown-" });
  const t = await startService({
    dir,
    config: chatConfig({ servers: [], llms: [fakeLlm(fake.url)] }),
  });
  try {
    const response = await t.call("/api/chat", {
      method: "POST",
      json: { messages: [user("talk for a while")], sessionId: "s-shutdown" },
    });
    // Three text chunks in; the client keeps the stream open while the service closes.
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let read = "";
    while ((read.match(/"type":"text"/g) ?? []).length < 3) {
      const next = await reader.read();
      assert.ok(!next.done, `the turn ended early: ${read}`);
      read += next.value;
    }
    await t.close();
    await reader.cancel();
    const stored = JSON.parse(
      await Deno.readTextFile(`${dir}/data/sessions/s-shutdown.json`),
    );
    assert.deepEqual(stored.messages[0], user("talk for a while"));
    assert.match(assistantText(stored.messages), /^word0 word1 word2 /);
    assert.deepEqual(stored.meta.endings, { "0": { aborted: true } });
  } finally {
    await fake.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a turn whose model fails mid-stream is in its session with the partial text and the error", async () => {
  const fake = await startFakeVendor();
  // Role, two text deltas, then the connection breaks.
  fake.script([{ text: ["Hello ", "there, ", "never sent"], breakAfter: 2 }, { text: ["fine"] }]);
  const t = await startService({
    config: chatConfig({ servers: [], llms: [fakeLlm(fake.url)] }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("hi")], sessionId: "s-failed" });
    const last = chunks.at(-1);
    assert.equal(last.type, "error");
    const stored = await session(t, "s-failed");
    assert.deepEqual(stored.messages[0], user("hi"));
    assert.equal(assistantText(stored.messages), "Hello there, ");
    assert.deepEqual(stored.meta.endings, { "0": { error: last.message } });

    const next = await chat(t, { messages: [user("hi")], sessionId: "s-failed" });
    assert.equal(next.chunks.at(-1).type, "finish");
    const after = await session(t, "s-failed");
    assert.deepEqual(after.messages.map((m: Json) => m.role), [
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    assert.equal(assistantText(after.messages.slice(2)), "fine");
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a turn that fails before it streams keeps the user's message and the error", async () => {
  const fake = await startFakeVendor();
  fake.script([{ status: 500 }]);
  const t = await startService({
    config: chatConfig({ servers: [], llms: [fakeLlm(fake.url)] }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("hello")], sessionId: "s-early" });
    assert.equal(chunks.at(-1).type, "error");
    const stored = await session(t, "s-early");
    assert.deepEqual(stored.messages, [user("hello")]);
    assert.deepEqual(stored.meta.endings, { "0": { error: chunks.at(-1).message } });
  } finally {
    await t.close();
    await fake.close();
  }
});

Deno.test("a tool call without its result is saved with an error result, so the history stays valid", () => {
  const partial = new PartialTurn();
  partial.add({ type: "reasoning", text: "The user wants " });
  partial.add({ type: "reasoning", text: "a sum." });
  partial.add({ type: "text", text: "Let me look." });
  partial.add({
    type: "tool-call",
    id: "c1",
    name: "demo__add",
    tool: "add",
    source: "demo",
    input: { a: 1 },
  });
  partial.add({ type: "tool-result", id: "c1", output: "2", isError: false, durationMs: 3 });
  partial.add({
    type: "tool-call",
    id: "c2",
    name: "demo__slow",
    tool: "slow",
    source: "demo",
    input: {},
  });
  assert.deepEqual(partial.messages(), [
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "The user wants a sum." },
        { type: "text", text: "Let me look." },
        { type: "tool-call", toolCallId: "c1", toolName: "demo__add", input: { a: 1 } },
        { type: "tool-call", toolCallId: "c2", toolName: "demo__slow", input: {} },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "c1",
          toolName: "demo__add",
          output: { type: "text", value: "2" },
        },
        {
          type: "tool-result",
          toolCallId: "c2",
          toolName: "demo__slow",
          output: { type: "error-text", value: UNFINISHED_CALL },
        },
      ],
    },
  ]);
});

Deno.test("a tool call's details keep the MCP task it ran as, with its last status", () => {
  const details = new ToolCallDetails();
  details.add({
    type: "tool-call",
    id: "c1",
    name: "demo__r",
    tool: "r",
    source: "demo",
    input: {},
  });
  details.add({ type: "tool-progress", id: "c1", task: { taskId: "t1", status: "working" } });
  details.add({ type: "tool-progress", id: "c1", message: "Step 2 of 5" });
  details.add({ type: "tool-progress", id: "c1", task: { taskId: "t1", status: "cancelled" } });
  assert.deepEqual(details.toRecord(), {
    c1: { source: "demo", tool: "r", task: { taskId: "t1", status: "cancelled" } },
  });
});
