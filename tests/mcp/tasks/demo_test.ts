/**
 * MCP Tasks on the demo server (`long_report`): the task store on its
 * own, then raw 2026-07-28 JSON-RPC through the demo handler's `fetch`, checked against the
 * extension's own wire schemas.
 */
import assert from "node:assert/strict";
import {
  CreateTaskResultV2Schema,
  GetTaskResultV2Schema,
  TaskStatusNotificationV2Schema,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import { type DetailedTask, TaskStore } from "../../../core/mcp/demo/tasks.ts";
import { createDemoHandler, type DemoHandler } from "../../../core/mcp/demo/server.ts";

type Json = Record<string, unknown>;

const TASKS = { "io.modelcontextprotocol/tasks": {} };

/** A demo handler and a raw JSON-RPC client for it. */
function rawDemo(handler: DemoHandler = createDemoHandler()) {
  let nextId = 1;
  /** POSTs one request; `tasks: false` leaves the extension out of the client's capabilities. */
  const post = (
    method: string,
    params: Json,
    options: { tasks?: boolean; id?: number; signal?: AbortSignal } = {},
  ) => {
    const name = params.name ?? params.taskId;
    return handler.fetch(
      new Request("http://lass-demo.invalid/mcp", {
        method: "POST",
        signal: options.signal,
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": method,
          ...typeof name === "string" ? { "mcp-name": name } : {},
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: options.id ?? nextId++,
          method,
          params: {
            ...params,
            _meta: {
              "io.modelcontextprotocol/protocolVersion": "2026-07-28",
              "io.modelcontextprotocol/clientInfo": { name: "raw-test", version: "1" },
              "io.modelcontextprotocol/clientCapabilities": {
                elicitation: { form: {} },
                ...options.tasks === false ? {} : { extensions: TASKS },
              },
            },
          },
        }),
      }),
    );
  };
  /** Sends one request and reads its answer (from JSON or an SSE stream). */
  const rpc = async (method: string, params: Json, options: { tasks?: boolean } = {}) => {
    const id = nextId++;
    const response = await post(method, params, { ...options, id });
    const text = await response.text();
    const messages = response.headers.get("content-type")?.startsWith("text/event-stream")
      ? text.split("\n").filter((line) => line.startsWith("data: ")).map((l) =>
        JSON.parse(l.slice(6))
      )
      : [JSON.parse(text)];
    const answer = messages.find((m) => m.id === id);
    assert.ok(answer, `no answer to ${method} in ${text}`);
    return answer as { result?: Json; error?: { code: number; message: string; data?: unknown } };
  };
  /** Polls `tasks/get` until `done` holds for the task, honouring its poll interval. */
  const pollUntil = async (
    taskId: string,
    what: string,
    done: (task: Json) => boolean,
  ): Promise<Json[]> => {
    const seen: Json[] = [];
    for (let i = 0; i < 400; i++) {
      const { result, error } = await rpc("tasks/get", { taskId });
      assert.equal(error, undefined, `tasks/get failed: ${error?.message}`);
      seen.push(GetTaskResultV2Schema.parse(result) as Json);
      if (done(result!)) return seen;
      await new Promise((r) => setTimeout(r, Number(result!.pollIntervalMs ?? 50) / 5));
    }
    assert.fail(`task ${taskId}: ${what} not seen; last: ${JSON.stringify(seen.at(-1))}`);
  };
  /**
   * Opens a `subscriptions/listen` stream; `next()` reads its messages one by one, `close()`
   * ends it (as a client does by closing the request).
   */
  const listen = async (notifications: Json, options: { tasks?: boolean } = {}) => {
    const controller = new AbortController();
    const id = nextId++;
    const response = await post("subscriptions/listen", { notifications }, {
      ...options,
      id,
      signal: controller.signal,
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    const next = async (): Promise<Json> => {
      while (!buffered.includes("\n\n")) {
        const { value, done } = await reader.read();
        assert.ok(!done, `the listen stream ended; unread: ${buffered}`);
        buffered += value;
      }
      const end = buffered.indexOf("\n\n");
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = frame.split("\n").find((line) => line.startsWith("data: "));
      return data ? JSON.parse(data.slice(6)) : await next();
    };
    const close = async () => {
      controller.abort();
      await reader.cancel().catch(() => {});
    };
    return { id, response, next, close };
  };
  return { post, rpc, pollUntil, listen, [Symbol.asyncDispose]: () => handler.close() };
}

/** Starts `long_report` as a task and returns its id, after checking the CreateTaskResult. */
async function startReport(demo: ReturnType<typeof rawDemo>, args: Json): Promise<string> {
  const { result, error } = await demo.rpc("tools/call", { name: "long_report", arguments: args });
  assert.equal(error, undefined, error?.message);
  const created = CreateTaskResultV2Schema.parse(result);
  assert.equal(created.resultType, "task");
  assert.equal(created.status, "working");
  assert.ok(created.ttlMs! > 0 && created.pollIntervalMs! > 0, "ttlMs and pollIntervalMs");
  return created.taskId;
}

Deno.test("the task store reports progress, asks, takes the answer and completes", async () => {
  const store = new TaskStore();
  const changes: DetailedTask[] = [];
  store.onChange((task) => changes.push(task));
  let answer: unknown;
  const { taskId, status } = store.start(async (run) => {
    run.progress("Step 1 of 2");
    answer = await run.ask("name", {
      method: "elicitation/create",
      params: {
        mode: "form",
        message: "Name?",
        requestedSchema: { type: "object", properties: {} },
      },
    });
    run.progress("Step 2 of 2");
    return { content: [{ type: "text", text: "done" }] };
  });
  assert.equal(status, "working");
  await waitFor("input_required", () => store.get(taskId).status === "input_required");
  const waiting = store.get(taskId);
  assert.deepEqual(Object.keys(waiting.inputRequests ?? {}), ["name"]);
  store.update(taskId, { other: { action: "accept" } });
  assert.equal(store.get(taskId).status, "input_required", "unknown keys are ignored");
  store.update(taskId, { name: { action: "accept", content: { name: "Ada" } } });
  await waitFor("completed", () => store.get(taskId).status === "completed");
  assert.deepEqual(answer, { action: "accept", content: { name: "Ada" } });
  assert.deepEqual(store.get(taskId).result, { content: [{ type: "text", text: "done" }] });
  assert.deepEqual(changes.map((c) => [c.status, c.statusMessage]), [
    ["working", "Step 1 of 2"],
    ["input_required", "Waiting for an answer."],
    ["working", "Step 1 of 2"],
    ["working", "Step 2 of 2"],
    ["completed", "Done."],
  ]);
  assert.equal(changes[1].inputRequests?.name.method, "elicitation/create");
  assert.equal(changes[2].inputRequests, undefined);
});

Deno.test("the task store cancels a waiting task, fails on a throw and forgets expired tasks", async () => {
  let now = Date.parse("2026-08-01T10:00:00Z");
  const store = new TaskStore({ ttlMs: 60_000, now: () => now });
  const asking = store.start((run) =>
    run.ask("q", { method: "roots/list" }).then(() => ({ content: [] }))
  );
  await waitFor("input_required", () => store.get(asking.taskId).status === "input_required");
  store.cancel(asking.taskId);
  await waitFor("cancelled", () => store.get(asking.taskId).status === "cancelled");
  assert.equal(store.get(asking.taskId).inputRequests, undefined);

  const failing = store.start(() => Promise.reject(new Error("disk full")));
  await waitFor("failed", () => store.get(failing.taskId).status === "failed");
  assert.deepEqual(store.get(failing.taskId).error, { code: -32603, message: "disk full" });
  assert.equal(store.get(failing.taskId).createdAt, "2026-08-01T10:00:00.000Z");

  now += 60_000;
  assert.throws(() => store.get(failing.taskId), { code: -32602, message: /unknown or expired/ });
});

Deno.test("long_report runs as a task for a client with the tasks extension: ask, answer, result", async () => {
  await using demo = rawDemo();
  const taskId = await startReport(demo, { steps: 4, delayMs: 0, ask: true });
  const seen = await demo.pollUntil(taskId, "input_required", (t) => t.status === "input_required");
  const asking = seen.at(-1)!;
  assert.equal(asking.statusMessage, "Waiting for the report's title.");
  const request = (asking.inputRequests as Record<string, Json>).title;
  assert.equal(request.method, "elicitation/create");
  assert.equal((request.params as Json).message, "What should the report be called?");

  const ack = await demo.rpc("tasks/update", {
    taskId,
    inputResponses: { title: { action: "accept", content: { title: "Q3 numbers" } } },
  });
  assert.deepEqual(ack.result?.resultType, "complete");
  const done = (await demo.pollUntil(taskId, "completed", (t) => t.status === "completed")).at(-1)!;
  assert.deepEqual(done.result, {
    content: [{ type: "text", text: "Q3 numbers: all 4 steps done (made-up report)." }],
    structuredContent: { title: "Q3 numbers", steps: 4 },
  });
  assert.equal(done.statusMessage, "Done.");
  assert.ok(done.lastUpdatedAt! >= done.createdAt!, "lastUpdatedAt moves forward");
});

Deno.test("a long_report task shows its progress, can be cancelled, and fails with fail: true", async () => {
  await using demo = rawDemo();
  const slow = await startReport(demo, { steps: 50, delayMs: 200 });
  const progressing = await demo.pollUntil(
    slow,
    "a progress status message",
    (t) => /^Step \d+ of 50$/.test(String(t.statusMessage)),
  );
  assert.equal(progressing.at(-1)!.status, "working");
  assert.deepEqual(
    (await demo.rpc("tasks/cancel", { taskId: slow })).result?.resultType,
    "complete",
  );
  await demo.pollUntil(slow, "cancelled", (t) => t.status === "cancelled");

  const failing = await startReport(demo, { steps: 3, delayMs: 0, fail: true });
  const failed = (await demo.pollUntil(failing, "failed", (t) => t.status === "failed")).at(-1)!;
  assert.deepEqual(failed.error, {
    code: -32603,
    message: "The report failed on purpose at step 2 of 3.",
  });
});

Deno.test("tasks need the extension: a client without it waits for the result, tasks/* answer -32021", async () => {
  await using demo = rawDemo();
  const plain = await demo.rpc("tools/call", {
    name: "long_report",
    arguments: { steps: 2, delayMs: 0 },
  }, { tasks: false });
  assert.equal(plain.result?.resultType, "complete");
  assert.deepEqual(plain.result?.structuredContent, { title: "Demo report", steps: 2 });

  const taskId = await startReport(demo, { steps: 1, delayMs: 0 });
  for (const method of ["tasks/get", "tasks/cancel"]) {
    const { error } = await demo.rpc(method, { taskId }, { tasks: false });
    assert.equal(error?.code, -32021, method);
    assert.deepEqual(error?.data, { requiredCapabilities: { extensions: TASKS } });
  }
  const unknown = await demo.rpc("tasks/get", { taskId: "no-such-task" });
  assert.equal(unknown.error?.code, -32602);
  assert.match(unknown.error!.message, /no task "no-such-task"/);
});

Deno.test("each demo handler keeps its own tasks", async () => {
  await using first = rawDemo();
  await using second = rawDemo();
  const taskId = await startReport(first, { steps: 1, delayMs: 0 });
  assert.equal((await second.rpc("tasks/get", { taskId })).error?.code, -32602);
});

Deno.test("a listen stream that names a task gets notifications/tasks until the task ends", async () => {
  await using demo = rawDemo();
  const taskId = await startReport(demo, { steps: 3, delayMs: 20 });
  const stream = await demo.listen({ taskIds: [taskId, "no-such-task"] });
  assert.equal(stream.response.headers.get("content-type"), "text/event-stream");
  const ack = await stream.next();
  assert.equal(ack.method, "notifications/subscriptions/acknowledged");
  assert.deepEqual(ack.params, {
    notifications: { taskIds: [taskId] },
    _meta: { "io.modelcontextprotocol/subscriptionId": stream.id },
  });
  const statuses: string[] = [];
  for (let done = false; !done;) {
    const note = TaskStatusNotificationV2Schema.parse(await stream.next());
    assert.equal(note.params.taskId, taskId);
    assert.equal(note.params._meta?.["io.modelcontextprotocol/subscriptionId"], stream.id);
    statuses.push(`${note.params.status}: ${note.params.statusMessage}`);
    if (note.params.status === "completed") {
      done = true;
      assert.deepEqual(note.params.result.structuredContent, { title: "Demo report", steps: 3 });
    }
  }
  // The first one is the state when the stream opened, then every change after it.
  const all = [
    "working: Started.",
    "working: Step 1 of 3",
    "working: Step 2 of 3",
    "working: Step 3 of 3",
    "completed: Done.",
  ];
  assert.deepEqual(statuses, all.slice(all.length - statuses.length));
  await stream.close();
});

Deno.test("task notifications join a listen stream for list changes; they need the extension", async () => {
  await using demo = rawDemo();
  const taskId = await startReport(demo, { steps: 1, delayMs: 0 });
  const stream = await demo.listen({ toolsListChanged: true, taskIds: [taskId] });
  const ack = await stream.next();
  assert.deepEqual((ack.params as Json).notifications, {
    toolsListChanged: true,
    taskIds: [taskId],
  });
  const first = TaskStatusNotificationV2Schema.parse(await stream.next());
  assert.equal(first.params.taskId, taskId);
  await stream.close();

  const refused = await demo.post(
    "subscriptions/listen",
    { notifications: { taskIds: [taskId] } },
    {
      tasks: false,
    },
  );
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error.code, -32021);
});

/** Polls until `check` holds (at most 5 s); the failure names what was awaited. */
async function waitFor(what: string, check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check(), `${what}: not reached within 5 s`);
}
