/**
 * The demo tool server as a remote peer for tests of tasks, lost connections and restarts: over
 * Streamable HTTP (with an outage on demand), and its `long_report` task that asks for a title.
 */
import assert from "node:assert/strict";
import { createDemoHandler } from "../core/mcp/demo/server.ts";
import type { TaskRecord } from "../wire/tool_tasks.ts";
import type { LassEvent } from "../wire/events.ts";
import { type Json, post, type TestService, waitForEvent, waitUntil } from "./_helpers.ts";

/**
 * The demo tool server over Streamable HTTP on one port, with an outage: `down()` cuts every open
 * response and stops listening, `up()` listens again on the same port with the same demo (so its
 * tasks are still there).
 */
export function demoWithOutage() {
  const demo = createDemoHandler();
  const open = new Set<TransformStreamDefaultController<Uint8Array>>();
  const handler = async (req: Request) => {
    const response = await demo.fetch(req);
    if (!response.body) return response;
    let controller!: TransformStreamDefaultController<Uint8Array>;
    const cut = new TransformStream<Uint8Array, Uint8Array>({
      start: (c) => void open.add(controller = c),
      flush: () => void open.delete(controller),
    });
    return new Response(response.body.pipeThrough(cut), response);
  };
  const listen = (port: number) =>
    Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
  let server = listen(0);
  const port = server.addr.port;
  const stop = async () => {
    for (const stream of open) stream.terminate();
    open.clear();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    down: stop,
    up: () => void (server = listen(port)),
    close: async () => {
      await stop();
      await demo.close();
    },
  };
}

/** The `mcp.task` event that says task `taskId` reached `status` (within `ms`, default 20 s). */
export function taskReached(
  t: Pick<TestService, "service">,
  taskId: string,
  status: string,
  ms = 20_000,
): Promise<LassEvent> {
  return waitForEvent(
    t,
    (e) => e.type === "mcp.task" && e.data.taskId === taskId && e.data.status === status,
    { what: `mcp.task ${status} of ${taskId}`, ms },
  );
}

/**
 * Starts the demo's `long_report` as a task of `serverId` that asks for its title, and waits for
 * the question.
 */
export async function startAskingTask(
  t: TestService,
  serverId = "remote",
): Promise<{ taskId: string; question: Json }> {
  const asked = waitForEvent(t, (e) => e.type === "interaction.created", {
    what: "interaction.created for the report's title",
    ms: 20_000,
  });
  const started = await post(t, `/api/mcp/${serverId}/call`, {
    tool: "long_report",
    args: { steps: 2, delayMs: 0, ask: true },
    task: true,
  });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  return { taskId: started.body.taskId, question: (await asked).data.interaction };
}

/** Answers a `long_report` task's question with `title`; its record once completed with a result. */
export async function answerTitle(
  t: TestService,
  task: { serverId: string; taskId: string; questionId: string; title: string },
): Promise<TaskRecord> {
  const { serverId, taskId } = task;
  const completed = taskReached(t, taskId, "completed");
  const answered = await post(t, `/api/interactions/${task.questionId}`, {
    response: { action: "accept", content: { title: task.title } },
  });
  assert.equal(answered.status, 200, JSON.stringify(answered.body));
  await completed;
  // The completed status may come before the result is kept.
  await waitUntil(
    () => t.service.mcp.task(serverId, taskId).result !== undefined,
    "the task's result in its record",
  );
  return t.service.mcp.task(serverId, taskId);
}
