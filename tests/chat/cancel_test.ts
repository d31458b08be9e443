/**
 * Cancelling one tool call of a running chat turn (`POST /api/chat/runs/:runId/tool-calls/:callId/cancel`):
 * the server hears the cancellation, the model gets a result saying so and the turn goes on;
 * denied approvals are marked too.
 */
import assert from "node:assert/strict";
import { type Json, post, startService, type TestService, waitForEvent } from "../_helpers.ts";
import { chat, chatConfig, DEMO_SERVER, ofType, readChunks, user } from "../_chat.ts";

const cancelPath = (runId: string, callId: string) =>
  `/api/chat/runs/${encodeURIComponent(runId)}/tool-calls/${encodeURIComponent(callId)}/cancel`;

/**
 * Streams a turn and cancels its first tool call once `ready` says so (by default at its first
 * `tool-progress` chunk); returns every chunk and the cancel's answer.
 */
async function cancelledTurn(
  t: TestService,
  message: string,
  options: { ready?: (chunk: Json) => boolean | Promise<boolean>; sessionId?: string } = {},
) {
  const ready = options.ready ?? ((chunk: Json) => chunk.type === "tool-progress");
  const response = await t.call("/api/chat", {
    method: "POST",
    json: { messages: [user(message)], ...(options.sessionId && { sessionId: options.sessionId }) },
  });
  assert.equal(response.status, 200);
  const runId = response.headers.get("x-run-id")!;
  let callId: string | undefined;
  let cancel: { status: number; body: Json } | undefined;
  const chunks = await readChunks(response, async (chunk) => {
    if (chunk.type === "tool-call") callId ??= chunk.id;
    if (cancel || !callId || !(await ready(chunk))) return;
    cancel = await post(t, cancelPath(runId, callId), {});
  });
  assert.ok(cancel, "the turn never reached the point where the call is cancelled");
  return { chunks, runId, callId: callId!, cancel };
}

for (const era of ["auto", "legacy"] as const) {
  Deno.test(`a cancelled slow_count ends with an error result and the turn goes on (${era})`, async () => {
    const t = await startService({
      config: chatConfig({ servers: [{ ...DEMO_SERVER, protocolEra: era }] }),
    });
    try {
      const sawCancel = waitForEvent(
        t,
        (e) => e.type === "mcp.log" && /slow_count: cancelled after/.test(String(e.data.message)),
        { what: "mcp.log `slow_count: cancelled after …` (the demo server saw the cancellation)" },
      );
      const { chunks, runId, callId, cancel } = await cancelledTurn(
        t,
        "slow count 40 steps of 250 ms",
        { sessionId: `cancel-${era}` },
      );
      assert.deepEqual(cancel, { status: 200, body: { ok: true } });

      const progress = ofType(chunks, "tool-progress");
      assert.ok(progress.length > 0, "no tool-progress chunk before the cancel");
      assert.equal(progress[0].id, callId);
      assert.equal(progress[0].total, 40);
      assert.equal(progress[0].message, "Step 1 of 40");

      const [result] = ofType(chunks, "tool-result");
      assert.equal(result.id, callId);
      assert.equal(result.isError, true);
      assert.equal(result.ending, "cancelled");
      assert.match(String(result.output), /user cancelled this tool call/);
      // The model read the result and made its next step.
      const types = chunks.map((chunk) => chunk.type);
      assert.equal(types.at(-1), "finish");
      assert.equal(types.filter((type) => type === "step").length, 2);
      const after = chunks.slice(types.indexOf("tool-result"));
      assert.match(
        ofType(after, "text").map((chunk) => chunk.text).join(""),
        /slow_count` failed with an error: The user cancelled this tool call/,
      );

      const [, counted] = /cancelled after (\d+) of 40/.exec(
        String((await sawCancel).data.message),
      ) ?? [];
      assert.ok(Number(counted) < 40, `the call was cut short, not after ${counted} steps`);
      const toolResult = t.service.events.history().find((e) =>
        e.type === "tool.result" && e.data.toolCallId === callId
      );
      assert.equal(toolResult?.data.cancelled, true);

      const again = await post(t, cancelPath(runId, callId), {});
      assert.equal(again.status, 404);
      assert.equal(again.body.error.code, "not-found");
      assert.equal(t.service.runningCalls.size(), 0);

      const stored = await t.service.sessions.get(`cancel-${era}`);
      const meta = (stored.meta?.toolCalls as Json)[callId];
      assert.equal(meta.ending, "cancelled");
    } finally {
      await t.close();
    }
  });
}

Deno.test("cancel answers 404 for an unknown run, an unknown call and a finished call", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const unknownRun = await post(t, cancelPath("no-such-run", "call-1"), {});
    assert.equal(unknownRun.status, 404);
    assert.equal(unknownRun.body.error.code, "not-found");
    const { chunks } = await chat(t, { messages: [user("please add 2 and 3")] });
    const runId = chunks[0].runId;
    const [call] = ofType(chunks, "tool-call");
    for (const callId of [call.id, "no-such-call"]) {
      const answer = await post(t, cancelPath(runId, callId), {});
      assert.equal(answer.status, 404, callId);
    }
    const bad = await post(t, cancelPath(runId, call.id), { reason: "x" });
    assert.equal(bad.status, 400);
    assert.equal(t.service.runningCalls.size(), 0);
  } finally {
    await t.close();
  }
});

Deno.test("a cancelled task tool call cancels the MCP task (tasks/cancel) and the turn goes on", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const taskCancelled = waitForEvent(
      t,
      (e) => e.type === "mcp.task" && e.data.status === "cancelled",
      { what: "mcp.task cancelled (the server cancelled the task)", ms: 20_000 },
    );
    const { chunks, cancel } = await cancelledTurn(
      t,
      'run demo__long_report {"steps": 50, "delayMs": 200}',
      { ready: (chunk) => chunk.type === "tool-progress" && chunk.task?.status === "working" },
    );
    assert.equal(cancel.status, 200);
    const ended = (await taskCancelled).data;
    const record = await t.call(`/api/mcp/demo/tasks/${ended.taskId}`);
    assert.equal((await record.json()).status, "cancelled");
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.ending, "cancelled");
    assert.equal(result.isError, true);
    assert.equal(chunks.at(-1).type, "finish");
    assert.equal(t.service.runningCalls.size(), 0);
  } finally {
    await t.close();
  }
});

Deno.test("a call cancelled while it waits for approval withdraws the question; a denied one is marked denied", async () => {
  const t = await startService({
    config: chatConfig({ workspace: { requireApproval: true } }),
  });
  try {
    const created = waitForEvent(t, (e) => e.type === "interaction.created");
    const resolved = waitForEvent(t, (e) => e.type === "interaction.resolved");
    const { chunks } = await cancelledTurn(t, "please add 2 and 3", {
      ready: async (chunk) => chunk.type === "tool-call" && Boolean(await created),
    });
    assert.equal((await resolved).data.outcome, "cancelled");
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.ending, "cancelled");
    assert.equal(chunks.at(-1).type, "finish");

    const asked = waitForEvent(t, (e) => e.type === "interaction.created");
    const denied = chat(t, { messages: [user("please add 2 and 3")], sessionId: "denied" });
    const { data } = await asked;
    const answer = await post(t, `/api/interactions/${(data.interaction as Json).id}`, {
      response: { approved: false },
    });
    assert.equal(answer.status, 200);
    const turn = await denied;
    const [deniedResult] = ofType(turn.chunks, "tool-result");
    assert.equal(deniedResult.ending, "denied");
    assert.equal(deniedResult.isError, true);
    const stored = await t.service.sessions.get("denied");
    assert.equal((stored.meta?.toolCalls as Json)[deniedResult.id].ending, "denied");
    assert.equal(t.service.runningCalls.size(), 0);
  } finally {
    await t.close();
  }
});

Deno.test("a turn the client abandons leaves no running call behind", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const errored = waitForEvent(t, (e) => e.type === "chat.error", { what: "chat.error" });
    const response = await t.call("/api/chat", {
      method: "POST",
      json: { messages: [user("slow count 40 steps of 250 ms")] },
    });
    await readChunks(response, (chunk) => chunk.type === "tool-progress");
    assert.equal((await errored).data.aborted, true);
    // The run's end clears its calls, whichever way the abort reaches them first.
    for (let i = 0; t.service.runningCalls.size() > 0; i++) {
      if (i > 400) assert.fail("the abandoned run's call stayed registered for 20 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    await t.close();
  }
});

Deno.test("a turn ended at a chunk it yielded (the client left before reading it) still reports chat.error aborted and frees its admission", async () => {
  const t = await startService({ config: chatConfig() });
  try {
    const { prepareChat } = await import("../../core/chat/run.ts");
    const errored = waitForEvent(t, (e) => e.type === "chat.error", { what: "chat.error" });
    const abort = new AbortController();
    const messages = [{ role: "user" as const, content: "hello there" }];
    const run = prepareChat(t.service, { messages }).run(abort.signal);
    // The second chunk leaves the turn suspended at its `yield`, as when the body's reader has
    // not taken it yet; then the route's cancel: abort, then `return()`.
    assert.equal((await run.next()).value?.type, "start");
    assert.equal((await run.next()).done, false);
    abort.abort(new DOMException("the client went away", "AbortError"));
    await run.return(undefined);
    // The body left at its chunk was ended too: its model admission is free again.
    assert.equal(
      t.service.admission.load.active,
      0,
      "the abandoned turn still holds its admission",
    );
    const event = await errored;
    assert.equal(event.data.aborted, true, JSON.stringify(event.data));
    assert.equal(event.data.message, "the turn was aborted: the client went away");
  } finally {
    await t.close();
  }
});
