/**
 * Chat turns with a tool that runs as an MCP task (the demo server's `long_report`): the task's
 * status in `tool-progress` chunks, its question as an interaction of the run, the result for the
 * model, and a client that goes away cancelling the task.
 */
import assert from "node:assert/strict";
import { type Json, serveOverHttp, startService, TOKEN, waitForEvent } from "../_helpers.ts";
import { chat, chatConfig, ofType, readChunks, user } from "../_chat.ts";

Deno.test("a task tool in chat: tool-progress chunks carry the task's status, the result reaches the model", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { chunks } = await chat(t, {
      messages: [user('run demo__long_report {"steps": 3, "delayMs": 300}')],
    });
    const [call] = ofType(chunks, "tool-call");
    assert.equal(call.tool, "long_report");
    assert.equal(call.input.steps, 3);
    const progress = ofType(chunks, "tool-progress");
    assert.ok(progress.length > 0, "no tool-progress chunk");
    assert.ok(progress.every((chunk) => chunk.id === call.id));
    const { taskId } = progress[0].task;
    assert.ok(taskId, JSON.stringify(progress[0]));
    assert.equal(progress[0].task.status, "working");
    assert.ok(progress.every((chunk) => chunk.task.taskId === taskId));
    assert.ok(
      progress.some((chunk) => /^Step \d of 3$/.test(chunk.message ?? "")),
      `no step message in ${JSON.stringify(progress)}`,
    );
    // The chunks come before the result, in order.
    const types = chunks.map((chunk) => chunk.type);
    assert.ok(types.lastIndexOf("tool-progress") < types.indexOf("tool-result"));
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, false);
    assert.match(JSON.stringify(result.output), /all 3 steps done/);
    // The model's next step saw the result.
    const text = ofType(chunks, "text").map((chunk) => chunk.text).join("");
    assert.match(text, /all 3 steps done/);
    assert.equal(chunks.at(-1).type, "finish");
    const events = t.service.events.history().filter((event) =>
      event.type === "mcp.task" && event.data.taskId === taskId
    );
    assert.equal(events.at(-1)?.data.status, "completed");
  } finally {
    await t.close();
  }
});

Deno.test("a task's question during a chat is an interaction of the run; the answer lets it complete", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const asked = waitForEvent(t, (event) => event.type === "interaction.created", {
      what: "interaction.created for the report's title",
      ms: 20_000,
    });
    const turn = chat(t, {
      messages: [user('run demo__long_report {"steps": 2, "delayMs": 50, "ask": true}')],
    });
    const interaction: Json = (await asked).data.interaction;
    assert.equal(interaction.kind, "elicitation");
    assert.ok(interaction.runId, "the interaction has no runId");
    const answered = await t.call(`/api/interactions/${interaction.id}`, {
      method: "POST",
      json: { response: { action: "accept", content: { title: "Chat report" } } },
    });
    assert.equal(answered.status, 200);
    await answered.body?.cancel();
    const { chunks } = await turn;
    assert.equal(chunks[0].runId, interaction.runId);
    const statuses = ofType(chunks, "tool-progress").map((chunk) => chunk.task.status);
    assert.ok(statuses.includes("input_required"), `statuses: ${statuses}`);
    const [result] = ofType(chunks, "tool-result");
    assert.match(JSON.stringify(result.output), /Chat report: all 2 steps done/);
  } finally {
    await t.close();
  }
});

Deno.test("a client that goes away during a task tool call cancels the task", async () => {
  const t = await startService({ config: chatConfig() });
  const http = serveOverHttp(t);
  try {
    const working = waitForEvent(
      t,
      (event) => event.type === "mcp.task" && event.data.status === "working",
      { what: "mcp.task working (the task exists)", ms: 20_000 },
    );
    const cancelled = waitForEvent(
      t,
      (event) => event.type === "mcp.task" && event.data.status === "cancelled",
      { what: "mcp.task cancelled (the abort reached the task)", ms: 20_000 },
    );
    const errored = waitForEvent(t, (event) => event.type === "chat.error", {
      what: "chat.error",
    });
    const client = new AbortController();
    const response = await fetch(`${http.url}/api/chat`, {
      method: "POST",
      headers: { "x-service-token": TOKEN, "content-type": "application/json" },
      body: JSON.stringify({
        messages: [user('run demo__long_report {"steps": 50, "delayMs": 200}')],
      }),
      signal: client.signal,
    });
    await readChunks(response, async (chunk) => {
      if (chunk.type !== "tool-progress") return false;
      await working;
      client.abort();
      return true;
    }).catch(() => {});
    const ended = (await cancelled).data;
    assert.equal(ended.serverId, "demo");
    assert.equal((await errored).data.aborted, true);
    const record = await t.call(`/api/mcp/demo/tasks/${ended.taskId}`);
    assert.equal((await record.json()).status, "cancelled");
  } finally {
    await http.close();
    await t.close();
  }
});
