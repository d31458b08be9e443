import assert from "node:assert/strict";
import { LassError } from "../core/errors.ts";
import { EventBus } from "../core/events.ts";
import { InteractionRegistry } from "../core/interactions.ts";
import { readJsonResponse, startService } from "./_helpers.ts";

function registry() {
  const events = new EventBus();
  return { events, interactions: new InteractionRegistry(events) };
}

Deno.test("an approval is listed until answered, and its promise gets the answer", async () => {
  const { events, interactions } = registry();
  const { interaction, response } = interactions.create({
    kind: "approval",
    runId: "run-1",
    serverId: "demo",
    tool: "echo",
    input: { text: "hi" },
  });
  assert.deepEqual(interactions.list().map((i) => i.id), [interaction.id]);
  assert.equal(interaction.kind, "approval");
  assert.ok(Date.parse(interaction.createdAt));
  interactions.answer(interaction.id, { approved: true, remember: "session" });
  assert.deepEqual(await response, { approved: true, remember: "session" });
  assert.deepEqual(interactions.list(), []);
  assert.deepEqual(events.history().map((e) => e.type), [
    "interaction.created",
    "interaction.resolved",
  ]);
  assert.equal(events.history()[1].data.outcome, "answered");
});

Deno.test("answers are validated per kind; a second answer is a conflict, an unknown id not found", async () => {
  const { interactions } = registry();
  const { interaction, response } = interactions.create({
    kind: "elicitation",
    message: "Your name?",
    mode: "form",
    requestedSchema: { type: "object", properties: { name: { type: "string" } } },
  });
  assert.throws(() => interactions.answer(interaction.id, { approved: true }), (e: LassError) => {
    assert.equal(e.code, "invalid-request");
    assert.equal(e.details![0].path, "response.action");
    return true;
  });
  interactions.answer(interaction.id, { action: "accept", content: { name: "Ada" } });
  assert.deepEqual(await response, { action: "accept", content: { name: "Ada" } });
  assert.throws(
    () => interactions.answer(interaction.id, { action: "cancel" }),
    /already answered/,
  );
  assert.throws(() => interactions.answer("nope", { action: "cancel" }), /no pending interaction/);
});

Deno.test("an unanswered interaction expires and rejects", async () => {
  const { events, interactions } = registry();
  const { interaction, response } = interactions.create(
    { kind: "sampling", messages: [], maxTokens: 100 },
    { timeoutMs: 10 },
  );
  await assert.rejects(response, (e: LassError) => e.code === "timeout");
  assert.deepEqual(interactions.list(), []);
  assert.equal(events.history().at(-1)!.data.outcome, "expired");
  assert.throws(() => interactions.answer(interaction.id, { approved: true }), /already answered/);
});

Deno.test("rejectRun and an aborted signal cancel only their own interactions", async () => {
  const { interactions } = registry();
  const a = interactions.create({ kind: "approval", runId: "r1", tool: "t", input: {} });
  const b = interactions.create({ kind: "approval", runId: "r2", tool: "t", input: {} });
  const abort = new AbortController();
  const c = interactions.create({ kind: "approval", tool: "t", input: {} }, {
    signal: abort.signal,
  });
  interactions.rejectRun("r1");
  await assert.rejects(a.response, /chat turn ended/);
  abort.abort();
  await assert.rejects(c.response, /cancelled/);
  assert.deepEqual(interactions.list().map((i) => i.id), [b.interaction.id]);
  interactions.answer(b.interaction.id, { approved: false });
  assert.deepEqual(await b.response, { approved: false });
});

Deno.test("GET /api/interactions and POST /api/interactions/:id over HTTP", async () => {
  const t = await startService();
  try {
    const { interaction, response } = t.service.interactions.create({
      kind: "approval",
      tool: "demo__echo",
      input: { text: "hi" },
    });
    const listed = await readJsonResponse(await t.call("/api/interactions"));
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.interactions.map((i: { id: string }) => i.id), [interaction.id]);

    const path = `/api/interactions/${interaction.id}`;
    const cases: [string, number, string][] = [
      ["{oops", 400, "invalid-json"],
      ['{"answer": {}}', 400, "invalid-request"],
      ['{"response": {"approved": "yes"}}', 400, "invalid-request"],
    ];
    for (const [body, status, code] of cases) {
      const result = await readJsonResponse(await t.call(path, { method: "POST", body }));
      assert.equal(result.status, status, body);
      assert.equal(result.body.error.code, code);
    }
    const ok = await readJsonResponse(
      await t.call(path, { method: "POST", json: { response: { approved: true } } }),
    );
    assert.deepEqual([ok.status, ok.body], [200, { ok: true }]);
    assert.deepEqual(await response, { approved: true });
    const again = await readJsonResponse(
      await t.call(path, { method: "POST", json: { response: { approved: true } } }),
    );
    assert.deepEqual([again.status, again.body.error.code], [409, "conflict"]);
    const unknown = await readJsonResponse(
      await t.call("/api/interactions/nope", {
        method: "POST",
        json: { response: { approved: true } },
      }),
    );
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, "not-found"]);
    const wrongMethod = await t.call(path, { method: "GET" });
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get("allow"), "POST");
    await wrongMethod.body?.cancel();
  } finally {
    await t.close();
  }
});
