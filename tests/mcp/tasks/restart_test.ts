/**
 * Running MCP tasks across a restart of Lass (`keepTasks`): closing leaves them running on their
 * server and in `<dataDir>/tasks/<serverId>.json`, and the next start follows them again to their
 * end. A task its server no longer knows ends failed; one whose server left the config is dropped.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLass } from "../../../lass.ts";
import { createDemoHandler, type DemoHandler } from "../../../core/mcp/demo/server.ts";
import { answerTitle, startAskingTask, taskReached } from "../../_remote_demo.ts";
import {
  configWithServers,
  type Json,
  post,
  readJsonResponse,
  startService,
  waitForEvent,
  waitUntil,
} from "../../_helpers.ts";

/** The demo tool server over Streamable HTTP on a port (its tasks live as long as it does). */
function servedDemo(demo: DemoHandler = createDemoHandler()) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, demo.fetch);
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    close: async () => {
      // The demo first: it ends its open streams (a listen stream whose client left stays open
      // until something is written to it, and shutting down waits for it).
      await demo.close();
      await server.shutdown();
    },
  };
}

const RECORD = { id: "remote", name: "Remote demo", transport: "http", oauth: false };

const taskFile = (dir: string) => join(dir, "data", "tasks", "remote.json");

async function storedTaskIds(dir: string): Promise<string[]> {
  const text = await readFile(taskFile(dir), "utf8").catch(() => undefined);
  if (text === undefined) return [];
  return (JSON.parse(text) as { tasks: { taskId: string }[] }).tasks.map((task) => task.taskId);
}

/** Writes the task file a previous start would have left: one running `long_report` task. */
async function writeKeptTask(dir: string, serverId: string, taskId: string): Promise<void> {
  const tasks = join(dir, "data", "tasks");
  await Deno.mkdir(tasks, { recursive: true });
  const reference = {
    endpointId: "lass",
    generation: "v2",
    taskId,
    originalOperation: "tools/call",
  };
  const task = {
    taskId,
    tool: "long_report",
    reference,
    status: "working",
    createdAt: "2026-11-25T10:00:00.000Z",
    updatedAt: "2026-11-25T10:00:00.000Z",
  };
  await writeFile(join(tasks, `${serverId}.json`), JSON.stringify({ tasks: [task] }));
}

async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "lass-task-restart-"));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

Deno.test("a running task outlives a restart of Lass: the next start follows it to its result", async () => {
  const peer = servedDemo();
  await withDir(async (dir) => {
    const config = configWithServers([{ ...RECORD, url: peer.url }]);
    const first = await startService({ config, dir, keepTasks: true });
    let taskId: string;
    try {
      assert.equal((await post(first, "/api/mcp/remote/connect")).body.status, "connected");
      ({ taskId } = await startAskingTask(first));
      await waitUntil(
        async () => (await storedTaskIds(dir)).includes(taskId),
        `the task ${taskId} in ${taskFile(dir)}`,
      );
    } finally {
      await first.close();
    }
    // Closed: the task was not cancelled, and its file is still there.
    assert.deepEqual(await storedTaskIds(dir), [taskId]);
    assert.equal((await stat(taskFile(dir))).mode & 0o777, 0o600);

    const second = await startService({ config, dir, keepTasks: true });
    try {
      const restored = await readJsonResponse(await second.call(`/api/mcp/remote/tasks/${taskId}`));
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      assert.equal(restored.body.tool, "long_report");
      const asked = waitForEvent(second, (e) => e.type === "interaction.created", {
        what: "the question asked again by the next start",
        ms: 30_000,
      });
      const followed = waitForEvent(
        second,
        (e) =>
          e.type === "mcp.log" && e.data.serverId === "remote" &&
          e.data.message === `following the task ${taskId} again`,
        { what: "mcp.log following the task again", ms: 30_000 },
      );
      assert.equal((await post(second, "/api/mcp/remote/connect")).body.status, "connected");
      await followed;
      const question: Json = (await asked).data.interaction;
      const done = await answerTitle(second, {
        serverId: "remote",
        taskId,
        questionId: question.id,
        title: "After a restart",
      });
      assert.deepEqual(done.result?.structuredContent, { title: "After a restart", steps: 2 });
      // Ended: nothing is left to follow on the next start.
      await waitUntil(async () => (await storedTaskIds(dir)).length === 0, "the task file gone");
    } finally {
      await second.close();
    }
  });
  await peer.close();
});

Deno.test("a kept task its server no longer knows ends failed on the next start", async () => {
  const before = servedDemo();
  await withDir(async (dir) => {
    const first = await startService({
      config: configWithServers([{ ...RECORD, url: before.url }]),
      dir,
      keepTasks: true,
    });
    let taskId: string;
    try {
      assert.equal((await post(first, "/api/mcp/remote/connect")).body.status, "connected");
      ({ taskId } = await startAskingTask(first));
      await waitUntil(async () => (await storedTaskIds(dir)).includes(taskId), "the task kept");
    } finally {
      await first.close();
    }
    await before.close();
    // A new demo: it has no such task.
    const after = servedDemo();
    const second = await startService({
      config: configWithServers([{ ...RECORD, url: after.url }]),
      dir,
      keepTasks: true,
    });
    try {
      const failed = taskReached(second, taskId, "failed", 30_000);
      assert.equal((await post(second, "/api/mcp/remote/connect")).body.status, "connected");
      await failed;
      assert.match(second.service.mcp.task("remote", taskId).error?.message ?? "", /\S/);
      await waitUntil(async () => (await storedTaskIds(dir)).length === 0, "the task file gone");
    } finally {
      await second.close();
      await after.close();
    }
  });
});

Deno.test("kept tasks of a server no longer in the config are dropped; a bad task file is left alone", async () => {
  await withDir(async (dir) => {
    const tasks = join(dir, "data", "tasks");
    await writeKeptTask(dir, "gone", "t-1");
    await writeFile(join(tasks, "remote.json"), "{not json");
    const t = await startService({
      config: configWithServers([{ ...RECORD, url: "http://127.0.0.1:9/mcp" }]),
      dir,
      keepTasks: true,
    });
    try {
      await waitUntil(
        () => stat(join(tasks, "gone.json")).then(() => false, () => true),
        "the file of the server that left the config removed",
      );
      assert.equal(await readFile(join(tasks, "remote.json"), "utf8"), "{not json");
      assert.deepEqual((await readJsonResponse(await t.call("/api/mcp/remote/tasks"))).body, {
        tasks: [],
      });
    } finally {
      await t.close();
    }
  });
});

Deno.test("without keepTasks, Lass keeps no task file", async () => {
  const peer = servedDemo();
  await withDir(async (dir) => {
    const t = await startService({
      config: configWithServers([{ ...RECORD, url: peer.url }]),
      dir,
    });
    try {
      assert.equal((await post(t, "/api/mcp/remote/connect")).body.status, "connected");
      const { taskId } = await startAskingTask(t);
      assert.ok(
        !["completed", "failed", "cancelled"].includes(t.service.mcp.task("remote", taskId).status),
      );
    } finally {
      await t.close();
    }
    assert.deepEqual(await storedTaskIds(dir), []);
    await assert.rejects(stat(join(dir, "data", "tasks")));
  });
  await peer.close();
});

Deno.test("a start with kept tasks connects their server, even one no workspace uses, and follows them", async () => {
  const peer = servedDemo();
  await withDir(async (dir) => {
    await writeKeptTask(dir, "remote", "kept-1");
    const configPath = join(dir, "service.json");
    // The workspace uses no tool server: only the kept task asks for the connect.
    await writeFile(configPath, JSON.stringify(configWithServers([{ ...RECORD, url: peer.url }])));
    const lass = await createLass({
      configPath,
      dataDir: join(dir, "data"),
      env: () => undefined,
      watchConfig: false,
    });
    try {
      const followed = waitForEvent(
        lass,
        (e) => e.type === "mcp.log" && e.data.message === "following the task kept-1 again",
        { what: "mcp.log following the kept task again (its server connected)", ms: 20_000 },
      );
      // The background connects start with the first answer.
      assert.equal((await lass.handler(new Request("http://127.0.0.1/api/health"))).status, 200);
      await followed;
      // This demo never had the task: it ends failed, and nothing is kept any more.
      await waitUntil(
        () => lass.service.mcp.task("remote", "kept-1").status === "failed",
        "the kept task failed",
      );
      await waitUntil(async () => (await storedTaskIds(dir)).length === 0, "the task file gone");
    } finally {
      await lass.close();
    }
  });
  await peer.close();
});
