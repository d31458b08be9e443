/**
 * MCP Tasks through Lass: the demo server's `long_report` (2026-07-28, the tasks extension) run
 * through `POST /api/mcp/:id/call`, its record, `mcp.task` events, input through interactions,
 * failure and cancel; and server-everything's 2025-11-25 task tool over stdio.
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
import { DEMO_SERVER, demoServerStdio } from "../../_chat.ts";

const EVERYTHING = "npm:@modelcontextprotocol/server-everything@2026.8.31";

/** The `mcp.task` events of one task so far. */
function taskEvents(t: TestService, taskId: string): Json[] {
  return t.service.events.history()
    .filter((event: LassEvent) => event.type === "mcp.task" && event.data.taskId === taskId)
    .map((event: LassEvent) => event.data);
}

/** Waits for an `mcp.task` event of `status` (of any task, or of `taskId`). */
function taskEvent(t: TestService, status: string, taskId?: string): Promise<LassEvent> {
  return waitForEvent(
    t,
    (event) =>
      event.type === "mcp.task" && event.data.status === status &&
      (taskId === undefined || event.data.taskId === taskId),
    { what: `mcp.task ${status}${taskId ? ` of ${taskId}` : ""}`, ms: 20_000 },
  );
}

async function getJson(t: TestService, path: string) {
  return await readJsonResponse(await t.call(path));
}

/** Polls `GET /api/mcp/demo/tasks/:taskId` until the record ended; the statuses seen on the way. */
async function pollUntilEnded(
  t: TestService,
  taskId: string,
): Promise<{ record: Json; seen: string[] }> {
  const seen: string[] = [];
  for (let i = 0; i < 400; i++) {
    const { status, body } = await getJson(t, `/api/mcp/demo/tasks/${taskId}`);
    assert.equal(status, 200, JSON.stringify(body));
    if (seen.at(-1) !== body.status) seen.push(body.status);
    if (["completed", "failed", "cancelled"].includes(body.status)) return { record: body, seen };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the task ${taskId} did not end after 400 polls; statuses seen: ${seen}`);
}

Deno.test("a task call waits for the final result, with mcp.task events and a record", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const { status, body } = await post(t, "/api/mcp/demo/call", {
      tool: "long_report",
      args: { steps: 4, delayMs: 300 },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.result.structuredContent, { title: "Demo report", steps: 4 });
    const created = t.service.events.history().find((event) => event.type === "mcp.task");
    assert.ok(created, "no mcp.task event");
    const taskId = created.data.taskId as string;
    const events = taskEvents(t, taskId);
    assert.equal(events[0].status, "working");
    assert.equal(events[0].serverId, "demo");
    assert.equal(events.at(-1).status, "completed");
    assert.ok(
      events.some((event) => /^Step \d of 4$/.test(event.message ?? "")),
      `no progress message among ${JSON.stringify(events)}`,
    );
    const record = await getJson(t, `/api/mcp/demo/tasks/${taskId}`);
    assert.equal(record.status, 200);
    assert.equal(record.body.status, "completed");
    assert.equal(record.body.tool, "long_report");
    assert.deepEqual(record.body.result.structuredContent, { title: "Demo report", steps: 4 });
    const list = await getJson(t, "/api/mcp/demo/tasks");
    assert.deepEqual(list.body.tasks.map((task: Json) => task.taskId), [taskId]);
  } finally {
    await t.close();
  }
});

Deno.test('"task": true answers at once; GET polls the record until it completes', async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const { status, body } = await post(t, "/api/mcp/demo/call", {
      tool: "long_report",
      args: { steps: 3, delayMs: 100 },
      task: true,
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(Object.keys(body).sort(), ["status", "taskId"]);
    assert.equal(body.status, "working");
    const { record, seen } = await pollUntilEnded(t, body.taskId);
    assert.equal(seen[0], "working");
    assert.equal(record.status, "completed");
    assert.match(record.result.content[0].text, /all 3 steps done/);
    const unknown = await getJson(t, "/api/mcp/demo/tasks/no-such-task");
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, "not-found");
  } finally {
    await t.close();
  }
});

Deno.test("a task that asks for input: the question is an interaction, the answer lets it complete", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const asked = waitForEvent(t, (event) => event.type === "interaction.created", {
      what: "interaction.created for the report's title",
      ms: 20_000,
    });
    const waiting = taskEvent(t, "input_required");
    const call = post(t, "/api/mcp/demo/call", {
      tool: "long_report",
      args: { steps: 2, delayMs: 50, ask: true },
    });
    const interaction: Json = (await asked).data.interaction;
    assert.equal(interaction.kind, "elicitation");
    assert.equal(interaction.serverId, "demo");
    assert.equal(interaction.mode, "form");
    assert.match(interaction.message, /report be called/);
    const blocked: Json = (await waiting).data;
    assert.equal(blocked.message, "Waiting for the report's title.");
    const answered = await post(t, `/api/interactions/${interaction.id}`, {
      response: { action: "accept", content: { title: "Quarterly" } },
    });
    assert.equal(answered.status, 200, JSON.stringify(answered.body));
    const { status, body } = await call;
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.result.structuredContent, { title: "Quarterly", steps: 2 });
    const statuses = taskEvents(t, blocked.taskId).map((event) => event.status);
    assert.ok(
      statuses.indexOf("input_required") > statuses.indexOf("working"),
      `statuses: ${statuses}`,
    );
    assert.equal(statuses.at(-1), "completed");
  } finally {
    await t.close();
  }
});

Deno.test("a task that fails: 502 with the server's error, the record says failed", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const { status, body } = await post(t, "/api/mcp/demo/call", {
      tool: "long_report",
      args: { steps: 2, delayMs: 50, fail: true },
    });
    assert.equal(status, 502, JSON.stringify(body));
    assert.equal(body.error.code, "upstream-error");
    assert.match(body.error.message, /long_report on demo failed: The report failed on purpose/);
    const failed = t.service.events.history().findLast((event) => event.type === "mcp.task");
    assert.equal(failed?.data.status, "failed");
    const record = await getJson(t, `/api/mcp/demo/tasks/${failed!.data.taskId}`);
    assert.equal(record.body.status, "failed");
    assert.match(record.body.error.message, /failed on purpose/);
    assert.equal(record.body.error.code, -32603);
  } finally {
    await t.close();
  }
});

Deno.test("cancel through the route: the task ends cancelled; a second cancel is 409", async () => {
  const t = await startService({ config: configWithServers([DEMO_SERVER]) });
  try {
    const started = await post(t, "/api/mcp/demo/call", {
      tool: "long_report",
      args: { steps: 50, delayMs: 200 },
      task: true,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const { taskId } = started.body;
    const cancelled = await post(t, `/api/mcp/demo/tasks/${taskId}/cancel`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.ok, true);
    assert.equal(cancelled.body.task.status, "cancelled");
    const record = await getJson(t, `/api/mcp/demo/tasks/${taskId}`);
    assert.equal(record.body.status, "cancelled");
    assert.equal(taskEvents(t, taskId).at(-1).status, "cancelled");
    const again = await post(t, `/api/mcp/demo/tasks/${taskId}/cancel`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, "conflict");
    const unknown = await post(t, "/api/mcp/demo/tasks/nope/cancel");
    assert.equal(unknown.status, 404);
  } finally {
    await t.close();
  }
});

Deno.test("2026 era over stdio: the demo server's task completes and another is cancelled", async () => {
  const t = await startService({ config: configWithServers([demoServerStdio("modern")]) });
  try {
    const { status, body } = await post(t, "/api/mcp/demo/call", {
      tool: "long_report",
      args: { steps: 2, delayMs: 50 },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.result.structuredContent, { title: "Demo report", steps: 2 });
    const done = t.service.events.history().findLast((event) => event.type === "mcp.task");
    assert.equal(done?.data.status, "completed");
    const started = await post(t, "/api/mcp/demo/call", {
      tool: "long_report",
      args: { steps: 50, delayMs: 200 },
      task: true,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const cancelled = await post(t, `/api/mcp/demo/tasks/${started.body.taskId}/cancel`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.task.status, "cancelled");
  } finally {
    await t.close();
  }
});

Deno.test('"task": true for a server without tasks is 400 and says why', async () => {
  const everything = {
    id: "everything",
    name: "Everything",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", EVERYTHING, "stdio"],
  };
  const t = await startService({ config: configWithServers([everything]) });
  try {
    const { status, body } = await post(t, "/api/mcp/everything/call", {
      tool: "echo",
      args: { message: "hi" },
      task: true,
    });
    assert.equal(status, 400, JSON.stringify(body));
    assert.equal(body.error.code, "invalid-request");
    assert.match(body.error.message, /echo of everything does not run as a task/);
  } finally {
    await t.close();
  }
});

Deno.test("2025 era: server-everything's simulate-research-query runs as a task; its question is an interaction", async () => {
  const everything = {
    id: "everything",
    name: "Everything",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", EVERYTHING, "stdio"],
  };
  const t = await startService({ config: configWithServers([everything]) });
  try {
    const asked = waitForEvent(t, (event) => event.type === "interaction.created", {
      what: "interaction.created for the clarification",
      ms: 30_000,
    });
    const call = post(t, "/api/mcp/everything/call", {
      tool: "simulate-research-query",
      args: { topic: "cats", ambiguous: true },
    });
    const interaction: Json = (await asked).data.interaction;
    assert.equal(interaction.kind, "elicitation");
    assert.equal(interaction.serverId, "everything");
    const waiting = t.service.events.history().findLast((event) => event.type === "mcp.task");
    assert.equal(waiting?.data.status, "input_required");
    await post(t, `/api/interactions/${interaction.id}`, {
      response: { action: "accept", content: { interpretation: "historical" } },
    });
    const { status, body } = await call;
    assert.equal(status, 200, JSON.stringify(body));
    assert.match(body.result.content[0].text, /Research Report: cats \(historical\)/);
    const taskId = waiting!.data.taskId as string;
    const statuses = taskEvents(t, taskId).map((event) => event.status);
    assert.equal(statuses[0], "working");
    assert.equal(statuses.at(-1), "completed");
    const record = await getJson(t, `/api/mcp/everything/tasks/${taskId}`);
    assert.equal(record.body.status, "completed");
    assert.equal(record.body.tool, "simulate-research-query");
  } finally {
    await t.close();
  }
});

Deno.test("task records are bounded: ended ones go first, then the oldest", async () => {
  const { EventBus } = await import("../../../core/events.ts");
  const { TaskRecords } = await import("../../../core/mcp/tasks/records.ts");
  const events = new EventBus();
  const records = new TaskRecords(events, { limit: 3 });
  const working = (taskId: string) => ({ taskId, status: "working" as const });
  records.observe("s", "tool", working("a"));
  records.observe("s", "tool", working("b"));
  records.end("s", "b", { status: "cancelled" });
  records.observe("s", "tool", working("c"));
  records.observe("s", "tool", working("d"));
  assert.deepEqual(records.list("s").map((record) => record.taskId), ["d", "c", "a"]);
  records.observe("s", "tool", working("e"));
  assert.deepEqual(records.list("s").map((record) => record.taskId), ["e", "d", "c"]);
  assert.deepEqual(
    events.history().filter((event) => event.data.taskId === "b").map((event) => event.data.status),
    ["working", "cancelled"],
  );
  await assert.rejects(() => records.cancel("s", "e"), /not followed by Lass/);
});
