/**
 * A task that outlives its connection: the server goes away while its task waits for input, Lass
 * loses the connection, and once the server is back Lass follows the task again to its end. A
 * task nothing can follow again ends failed when its server is removed; a cancel asked meanwhile
 * is sent once Lass follows the task again.
 */
import assert from "node:assert/strict";
import type { LassEvent } from "../../../wire/events.ts";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  startService,
  type TestService,
  waitForEvent,
} from "../../_helpers.ts";
import { answerTitle, demoWithOutage, startAskingTask, taskReached } from "../../_remote_demo.ts";

const RECORD = { id: "remote", name: "Remote demo", transport: "http", oauth: false };

const stateIs = (status: string) => (event: LassEvent) =>
  event.type === "mcp.state" && event.data.id === "remote" && event.data.status === status;

async function taskRecord(t: TestService, taskId: string): Promise<Json> {
  const { status, body } = await readJsonResponse(
    await t.call(`/api/mcp/remote/tasks/${taskId}`),
  );
  assert.equal(status, 200, JSON.stringify(body));
  return body;
}

/** Starts the asking task, then takes the server away and waits until Lass saw it go. */
async function startThenLose(
  t: TestService,
  peer: ReturnType<typeof demoWithOutage>,
): Promise<{ taskId: string; question: Json }> {
  const started = await startAskingTask(t);
  const lost = waitForEvent(t, stateIs("error"), {
    what: "mcp.state error once the server went away",
    ms: 20_000,
  });
  await peer.down();
  await lost;
  return started;
}

Deno.test("a task whose connection was lost is followed again once the server is back, to its result", async () => {
  const peer = demoWithOutage();
  const t = await startService({ config: configWithServers([{ ...RECORD, url: peer.url }]) });
  try {
    const state = (await post(t, "/api/mcp/remote/connect")).body;
    assert.equal(state.status, "connected", state.error);
    const { taskId, question } = await startThenLose(t, peer);
    const waiting = await taskRecord(t, taskId);
    assert.ok(
      !["completed", "failed", "cancelled"].includes(waiting.status),
      `the record waits for the server: ${JSON.stringify(waiting)}`,
    );

    // Back: Lass reconnects, follows the task again, and the task asks again.
    const askedAgain = waitForEvent(
      t,
      (e) => e.type === "interaction.created" && (e.data.interaction as Json).id !== question.id,
      { what: "the question asked again after the reconnect", ms: 30_000 },
    );
    const followed = waitForEvent(
      t,
      (e) =>
        e.type === "mcp.log" && e.data.serverId === "remote" &&
        e.data.message === `following the task ${taskId} again`,
      { what: "mcp.log following the task again", ms: 30_000 },
    );
    peer.up();
    await followed;
    const again: Json = (await askedAgain).data.interaction;
    assert.match(again.message, /report be called/);
    await answerTitle(t, {
      serverId: "remote",
      taskId,
      questionId: again.id,
      title: "Resumed",
    });
    const done = await taskRecord(t, taskId);
    assert.equal(done.status, "completed");
    assert.deepEqual(done.result.structuredContent, { title: "Resumed", steps: 2 });
  } finally {
    await t.close();
    await peer.close();
  }
});

Deno.test("a server no workspace uses keeps healing while a lost task waits for it", async () => {
  const peer = demoWithOutage();
  // No minute of healing for a recent use: only the waiting task keeps the server healing.
  const t = await startService({
    config: configWithServers([{ ...RECORD, url: peer.url }]),
    mcp: { recentUseMs: 0 },
  });
  try {
    assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
    const { taskId, question } = await startThenLose(t, peer);
    let reconnecting = false;
    const failedHeal = waitForEvent(t, (e) => {
      if (stateIs("connecting")(e)) reconnecting = true;
      return reconnecting && stateIs("error")(e);
    }, { what: "a reconnect that fails while the server is down", ms: 30_000 });
    await failedHeal;

    const askedAgain = waitForEvent(
      t,
      (e) => e.type === "interaction.created" && (e.data.interaction as Json).id !== question.id,
      { what: "the question asked again once a later reconnect worked", ms: 60_000 },
    );
    peer.up();
    const again: Json = (await askedAgain).data.interaction;
    const done = await answerTitle(t, {
      serverId: "remote",
      taskId,
      questionId: again.id,
      title: "Healed",
    });
    assert.deepEqual(done.result?.structuredContent, { title: "Healed", steps: 2 });
  } finally {
    await t.close();
    await peer.close();
  }
});

Deno.test("a lost task of a server that is then removed ends failed: nothing can follow it again", async () => {
  const peer = demoWithOutage();
  const t = await startService({ config: configWithServers([{ ...RECORD, url: peer.url }]) });
  try {
    assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
    const { taskId } = await startThenLose(t, peer);
    const failed = taskReached(t, taskId, "failed");
    const config = configWithServers([]);
    const put = await readJsonResponse(
      await t.call("/api/config", { method: "PUT", json: config }),
    );
    assert.equal(put.status, 200, JSON.stringify(put.body));
    await failed;
    const record = t.service.events.history().findLast((e) =>
      e.type === "mcp.task" && e.data.taskId === taskId
    );
    assert.equal(record?.data.status, "failed");
  } finally {
    await t.close();
    await peer.close();
  }
});

Deno.test("a cancel asked while the task is lost is sent once Lass follows the task again", async () => {
  const peer = demoWithOutage();
  const t = await startService({ config: configWithServers([{ ...RECORD, url: peer.url }]) });
  try {
    assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
    const { taskId } = await startThenLose(t, peer);

    const requested = waitForEvent(
      t,
      (e) => e.type === "mcp.task" && e.data.taskId === taskId && e.data.cancelRequested === true,
      { what: `mcp.task with cancelRequested of ${taskId}`, ms: 10_000 },
    );
    const asked = await post(t, `/api/mcp/remote/tasks/${taskId}/cancel`);
    assert.equal(asked.status, 200, JSON.stringify(asked.body));
    assert.equal(asked.body.task.cancelRequested, true);
    assert.ok(!["completed", "failed", "cancelled"].includes(asked.body.task.status));
    await requested;
    // Asking again changes nothing and is no error.
    const again = await post(t, `/api/mcp/remote/tasks/${taskId}/cancel`);
    assert.equal(again.status, 200, JSON.stringify(again.body));

    const cancelled = taskReached(t, taskId, "cancelled", 30_000);
    peer.up();
    await cancelled;
    const record = await taskRecord(t, taskId);
    assert.equal(record.status, "cancelled");
    assert.equal(record.cancelRequested, undefined);
    const ended = await post(t, `/api/mcp/remote/tasks/${taskId}/cancel`);
    assert.equal(ended.status, 409, JSON.stringify(ended.body));
  } finally {
    await t.close();
    await peer.close();
  }
});
