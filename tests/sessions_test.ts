import assert from "node:assert/strict";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Json, readJsonResponse, startService } from "./_helpers.ts";

const chat = (text: string) => ({
  workspaceId: "playground",
  messages: [{ role: "user", content: text }, {
    role: "assistant",
    content: [{ type: "text", text: "Hi" }],
  }],
});

Deno.test("sessions: PUT creates, GET reads, PUT replaces keeping createdAt, DELETE removes", async () => {
  const t = await startService();
  try {
    const created = await readJsonResponse(
      await t.call("/api/sessions/chat-1", { method: "PUT", json: chat("Plan a trip to Lisbon") }),
    );
    assert.equal(created.status, 200);
    assert.equal(created.body.id, "chat-1");
    assert.equal(
      created.body.title,
      "Plan a trip to Lisbon",
      "the title comes from the first user message",
    );
    assert.equal(created.body.workspaceId, "playground");
    assert.equal(created.body.createdAt, created.body.updatedAt);

    const read = await readJsonResponse(await t.call("/api/sessions/chat-1"));
    assert.deepEqual(read.body, created.body);

    await new Promise((resolve) => setTimeout(resolve, 5));
    const replaced = await readJsonResponse(
      await t.call("/api/sessions/chat-1", {
        method: "PUT",
        json: { ...chat("Plan a trip"), title: "Lisbon", meta: { pinned: true } },
      }),
    );
    assert.equal(replaced.body.title, "Lisbon");
    assert.equal(replaced.body.createdAt, created.body.createdAt);
    assert.ok(replaced.body.updatedAt > created.body.updatedAt);
    assert.deepEqual(replaced.body.meta, { pinned: true });

    const file = join(t.dir, "data", "sessions", "chat-1.json");
    assert.equal(JSON.parse(await readFile(file, "utf8")).title, "Lisbon");
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(join(t.dir, "data"))).mode & 0o777, 0o700, "the data dir is private");
    assert.equal((await stat(join(t.dir, "data", "sessions"))).mode & 0o777, 0o700);

    const deleted = await readJsonResponse(
      await t.call("/api/sessions/chat-1", { method: "DELETE" }),
    );
    assert.deepEqual([deleted.status, deleted.body], [200, { ok: true }]);
    for (const method of ["GET", "DELETE"]) {
      const gone = await readJsonResponse(await t.call("/api/sessions/chat-1", { method }));
      assert.deepEqual([gone.status, gone.body.error.code], [404, "not-found"], method);
    }
  } finally {
    await t.close();
  }
});

Deno.test("GET /api/sessions lists summaries newest first and skips foreign files", async () => {
  const t = await startService();
  try {
    assert.deepEqual((await readJsonResponse(await t.call("/api/sessions"))).body, {
      sessions: [],
    });
    for (const id of ["a", "b", "c"]) {
      await (await t.call(`/api/sessions/${id}`, { method: "PUT", json: chat(`chat ${id}`) })).body
        ?.cancel();
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await (await t.call("/api/sessions/a", { method: "PUT", json: chat("chat a again") })).body
      ?.cancel();
    await writeFile(join(t.dir, "data", "sessions", "notes.txt"), "not a session");
    await writeFile(join(t.dir, "data", "sessions", "broken.json"), "{");
    const { status, body } = await readJsonResponse(await t.call("/api/sessions"));
    assert.equal(status, 200);
    assert.deepEqual(body.sessions.map((s: Json) => s.id), ["a", "c", "b"]);
    assert.deepEqual(Object.keys(body.sessions[0]).sort(), [
      "createdAt",
      "id",
      "messageCount",
      "title",
      "updatedAt",
      "workspaceId",
    ]);
    assert.equal(body.sessions[0].messageCount, 2);
    assert.equal(body.sessions[0].title, "chat a again");
  } finally {
    await t.close();
  }
});

Deno.test("session ids that could leave the sessions folder are refused with 400", async () => {
  const t = await startService();
  try {
    for (
      const id of ["..%2F..%2Fservice", "..", "a.json", "%2Fetc%2Fpasswd", "x".repeat(129), "a%00b"]
    ) {
      for (const method of ["GET", "PUT", "DELETE"]) {
        const response = await t.call(`/api/sessions/${id}`, {
          method,
          json: method === "PUT" ? chat("x") : undefined,
        });
        const { status, body } = await readJsonResponse(response);
        assert.ok(status === 400 || status === 404, `${method} ${id} → ${status}`);
        if (status === 400) assert.equal(body.error.code, "invalid-request");
      }
    }
    const traversal = await readJsonResponse(await t.call("/api/sessions/..%2F..%2Fservice"));
    assert.equal(traversal.status, 400);
    assert.deepEqual(await readdir(t.dir).then((names) => names.sort()), [
      "data",
      "service.json",
      "service.schema.json",
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("PUT /api/sessions/:id rejects malformed JSON and wrong shapes, writing nothing", async () => {
  const t = await startService();
  try {
    const cases: [string, string, string?][] = [
      ["{", "invalid-json"],
      ["[]", "invalid-request", ""],
      ['{"workspaceId": "w"}', "invalid-request", "messages"],
      [
        '{"workspaceId": "w", "messages": [{"role": "robot"}]}',
        "invalid-request",
        "messages.0.role",
      ],
      ['{"workspaceId": "w", "messages": [], "extra": 1}', "invalid-request", "extra"],
    ];
    for (const [body, code, path] of cases) {
      const { status, body: error } = await readJsonResponse(
        await t.call("/api/sessions/s1", { method: "PUT", body }),
      );
      assert.deepEqual([status, error.error.code], [400, code], body);
      if (path !== undefined) assert.equal(error.error.details[0].path, path);
    }
    assert.deepEqual((await readJsonResponse(await t.call("/api/sessions"))).body.sessions, []);
  } finally {
    await t.close();
  }
});

Deno.test("concurrent PUTs of one session leave one whole record", async () => {
  const t = await startService();
  try {
    const bodies = Array.from({ length: 20 }, (_, i) => chat(`version ${i} `.repeat(200)));
    const results = await Promise.all(
      bodies.map((json) =>
        t.call("/api/sessions/busy", { method: "PUT", json }).then(readJsonResponse)
      ),
    );
    assert.ok(results.every((r) => r.status === 200));
    const stored = (await readJsonResponse(await t.call("/api/sessions/busy"))).body;
    assert.ok(bodies.some((b) => b.messages[0].content === stored.messages[0].content));
    const files = await readdir(join(t.dir, "data", "sessions"));
    assert.deepEqual(files, ["busy.json"], "no temp files are left behind");
  } finally {
    await t.close();
  }
});

Deno.test("session routes answer 405 with Allow", async () => {
  const t = await startService();
  try {
    const list = await t.call("/api/sessions", { method: "POST", body: "{}" });
    assert.deepEqual([list.status, list.headers.get("allow")], [405, "GET, HEAD"]);
    await list.body?.cancel();
    const one = await t.call("/api/sessions/x", { method: "PATCH", body: "{}" });
    assert.deepEqual([one.status, one.headers.get("allow")], [405, "GET, PUT, DELETE, HEAD"]);
    await one.body?.cancel();
  } finally {
    await t.close();
  }
});

Deno.test("a session as read can be written back, and PUT repairs a damaged file", async () => {
  const t = await startService();
  try {
    const created = (await readJsonResponse(
      await t.call("/api/sessions/round", { method: "PUT", json: chat("hello") }),
    )).body;
    const edited = { ...created, title: "Renamed" };
    const saved = await readJsonResponse(
      await t.call("/api/sessions/round", { method: "PUT", json: edited }),
    );
    assert.equal(saved.status, 200);
    assert.equal(saved.body.title, "Renamed");
    assert.equal(saved.body.createdAt, created.createdAt);
    const mismatch = await readJsonResponse(
      await t.call("/api/sessions/other", { method: "PUT", json: edited }),
    );
    assert.deepEqual([mismatch.status, mismatch.body.error.details[0].path], [400, "id"]);

    await writeFile(join(t.dir, "data", "sessions", "round.json"), '{"broken');
    const damaged = await readJsonResponse(await t.call("/api/sessions/round"));
    assert.deepEqual([damaged.status, damaged.body.error.code], [500, "internal"]);
    await writeFile(join(t.dir, "data", "sessions", "round.json"), "null");
    assert.equal((await readJsonResponse(await t.call("/api/sessions/round"))).status, 500);
    const repaired = await readJsonResponse(
      await t.call("/api/sessions/round", { method: "PUT", json: chat("fresh") }),
    );
    assert.equal(repaired.status, 200);
    assert.equal((await readJsonResponse(await t.call("/api/sessions/round"))).body.title, "fresh");
  } finally {
    await t.close();
  }
});
