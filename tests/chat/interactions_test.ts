/** Chat turns that wait for the person: tool approvals, elicitation and sampling, through interactions. */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { type Json, post, startService, type TestService, waitForEvent } from "../_helpers.ts";
import { chat, chatConfig, DEMO_LLM, DEMO_SERVER, ofType, readChunks, user } from "../_chat.ts";

/** Starts a turn and waits for the interaction it creates; returns both. */
async function turnWithInteraction(t: TestService, body: Record<string, unknown>) {
  // The first turn of a process loads the model SDK and starts the demo server: slow when loaded.
  const created = waitForEvent(t, (e) => e.type === "interaction.created", {
    what: "interaction.created",
    ms: 30_000,
  });
  const turn = chat(t, body);
  const event = await created;
  return { turn, interaction: event.data.interaction as Json };
}

/** Answers an interaction over HTTP. */
async function answer(t: TestService, id: string, response: Json) {
  const { status, body } = await post(t, `/api/interactions/${id}`, { response });
  assert.equal(status, 200, JSON.stringify(body));
}

Deno.test("requireApproval: an approved call runs, a denied one is an error and the loop goes on", async () => {
  const t = await startService({ config: chatConfig({ workspace: { requireApproval: true } }) });
  try {
    const approved = await turnWithInteraction(t, { messages: [user("please add 2 and 3")] });
    const listed = (await t.call("/api/interactions").then((r) => r.json())).interactions;
    assert.deepEqual(listed.map((i: Json) => i.id), [approved.interaction.id]);
    const { interaction } = approved;
    assert.equal(interaction.kind, "approval");
    assert.equal(interaction.serverId, "demo");
    assert.equal(interaction.tool, "add");
    assert.deepEqual(interaction.input, { a: 2, b: 3 });
    await answer(t, interaction.id, { approved: true });
    const first = await approved.turn;
    assert.equal(interaction.runId, first.chunks[0].runId);
    assert.equal(ofType(first.chunks, "tool-result")[0].output, "5");

    const denied = await turnWithInteraction(t, { messages: [user("please add 2 and 3")] });
    await answer(t, denied.interaction.id, { approved: false });
    const { chunks } = await denied.turn;
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, true);
    assert.equal(result.output, "denied by the user");
    assert.equal(result.raw, undefined);
    assert.equal(chunks.at(-1).type, "finish");
    assert.match(
      ofType(chunks, "text").map((c) => c.text).join(""),
      /was not run: the call was denied/,
    );
    assert.equal(chunks.at(-1).messages[1].content[0].output.type, "execution-denied");
  } finally {
    await t.close();
  }
});

Deno.test("remember: session skips later questions for that tool only; always writes the config", async () => {
  const t = await startService({ config: chatConfig({ workspace: { requireApproval: true } }) });
  try {
    const first = await turnWithInteraction(t, { messages: [user("please add 2 and 3")] });
    await answer(t, first.interaction.id, { approved: true, remember: "session" });
    await first.turn;
    let asked = 0;
    const stop = t.service.events.subscribe((e) => {
      if (e.type === "interaction.created") asked++;
    });
    const again = await chat(t, { messages: [user("please add 4 and 5")] });
    stop();
    assert.equal(asked, 0);
    assert.equal(ofType(again.chunks, "tool-result")[0].output, "9");

    const echo = await turnWithInteraction(t, { messages: [user("echo 'hi'")] });
    assert.equal(echo.interaction.tool, "echo");
    await answer(t, echo.interaction.id, { approved: true, remember: "always" });
    await echo.turn;
    const stored = JSON.parse(await readFile(t.configPath, "utf8"));
    assert.deepEqual(stored.mcpServers[0].approval, { tools: { echo: "auto" } });
    assert.deepEqual(t.service.config.config.mcpServers[0].approval, { tools: { echo: "auto" } });
  } finally {
    await t.close();
  }
});

Deno.test("the server's approval policy: default ask with a per-tool auto", async () => {
  const server = { ...DEMO_SERVER, approval: { default: "ask", tools: { add: "auto" } } };
  const t = await startService({ config: chatConfig({ servers: [server] }) });
  try {
    const added = await chat(t, { messages: [user("please add 2 and 3")] });
    assert.equal(ofType(added.chunks, "tool-result")[0].output, "5");
    const echo = await turnWithInteraction(t, { messages: [user("echo 'hi'")] });
    assert.equal(echo.interaction.tool, "echo");
    await answer(t, echo.interaction.id, { approved: true });
    const { chunks } = await echo.turn;
    assert.equal(ofType(chunks, "tool-result")[0].isError, false);
  } finally {
    await t.close();
  }
});

Deno.test("elicitation during a chat is an interaction of the run; the answer reaches the tool", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { turn, interaction } = await turnWithInteraction(t, {
      messages: [user("ask user please")],
    });
    assert.equal(interaction.kind, "elicitation");
    assert.equal(interaction.mode, "form");
    assert.equal(interaction.serverId, "demo");
    assert.ok(interaction.requestedSchema.properties.name);
    await answer(t, interaction.id, {
      action: "accept",
      content: { name: "Grace", color: "red", subscribe: true },
    });
    const { chunks } = await turn;
    assert.equal(interaction.runId, chunks[0].runId);
    const [result] = ofType(chunks, "tool-result");
    assert.match(result.output, /Grace/);
    assert.deepEqual(result.raw.structuredContent.content.name, "Grace");
  } finally {
    await t.close();
  }
});

Deno.test("sampling during a chat: asked, then answered by the chat's own model", async () => {
  const config = chatConfig({
    llms: [DEMO_LLM, { ...DEMO_LLM, id: "other", model: "demo-other" }],
    workspace: { llmId: "demo" },
  });
  const t = await startService({ config });
  try {
    const { turn, interaction } = await turnWithInteraction(t, {
      messages: [user("summarize with model 'The quick brown fox jumps over the lazy dog.'")],
      llmId: "other",
    });
    assert.equal(interaction.kind, "sampling");
    assert.equal(interaction.serverId, "demo");
    assert.equal(interaction.systemPrompt, "You write short, faithful summaries.");
    assert.match(JSON.stringify(interaction.messages), /quick brown fox/);
    await answer(t, interaction.id, { approved: true });
    const { chunks } = await turn;
    assert.equal(interaction.runId, chunks[0].runId);
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, false, JSON.stringify(result));
    assert.equal(result.raw.structuredContent.model, "demo-other");
  } finally {
    await t.close();
  }
});

for (const era of ["auto", "legacy"] as const) {
  Deno.test(`sampling by hand: the reply the user types goes to the server as the completion (${era})`, async () => {
    const t = await startService({
      config: chatConfig({ servers: [{ ...DEMO_SERVER, protocolEra: era }] }),
    });
    try {
      const { turn, interaction } = await turnWithInteraction(t, {
        messages: [user("summarize with model 'A long story about a fox.'")],
      });
      assert.equal(interaction.kind, "sampling");
      const refused = await post(t, `/api/interactions/${interaction.id}`, {
        response: { approved: false, text: "no" },
      });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.error.details[0].path, "response.text");
      await answer(t, interaction.id, { approved: true, text: "A fox, briefly." });
      const { chunks } = await turn;
      const [result] = ofType(chunks, "tool-result");
      assert.equal(result.isError, false, JSON.stringify(result));
      assert.deepEqual(result.raw.structuredContent, { summary: "A fox, briefly.", model: "user" });
      const resolved = t.service.events.history().find((e) => e.type === "interaction.resolved");
      assert.deepEqual(resolved?.data.response, { approved: true, text: "A fox, briefly." });
    } finally {
      await t.close();
    }
  });
}

Deno.test("sampling: auto answers at once, deny refuses, a declined request is a tool error", async () => {
  const ask = "summarize with model 'Some text to shorten.'";
  for (const mode of ["auto", "deny"] as const) {
    const t = await startService({
      config: chatConfig({ servers: [{ ...DEMO_SERVER, sampling: mode }] }),
    });
    try {
      const { chunks } = await chat(t, { messages: [user(ask)] });
      const [result] = ofType(chunks, "tool-result");
      assert.equal(result.isError, mode === "deny", JSON.stringify(result));
      if (mode === "deny") assert.match(JSON.stringify(result.output), /sampling: deny/);
      assert.equal(t.service.interactions.list().length, 0);
    } finally {
      await t.close();
    }
  }
  const t = await startService({ config: chatConfig() });
  try {
    const { turn, interaction } = await turnWithInteraction(t, { messages: [user(ask)] });
    await answer(t, interaction.id, { approved: false });
    const [result] = ofType((await turn).chunks, "tool-result");
    assert.equal(result.isError, true);
    assert.match(JSON.stringify(result.output), /declined/);
  } finally {
    await t.close();
  }
});

Deno.test("a turn that ends while waiting withdraws its interactions", async () => {
  const t = await startService({ config: chatConfig({ workspace: { requireApproval: true } }) });
  try {
    const created = waitForEvent(t, (e) => e.type === "interaction.created");
    const resolved = waitForEvent(t, (e) => e.type === "interaction.resolved");
    const errored = waitForEvent(t, (e) => e.type === "chat.error");
    const response = await t.call("/api/chat", {
      method: "POST",
      json: { messages: [user("please add 2 and 3")] },
    });
    const reading = readChunks(response, async (chunk) => {
      if (chunk.type !== "tool-call") return false;
      await created;
      return true;
    });
    const chunks = await reading;
    assert.equal(chunks.at(-1).type, "tool-call");
    const event = await resolved;
    assert.equal(event.data.outcome, "cancelled");
    assert.deepEqual(t.service.interactions.list(), []);
    const error = await errored;
    assert.equal(error.data.aborted, true);
  } finally {
    await t.close();
  }
});
