import assert from "node:assert/strict";
import { LassError } from "../core/errors.ts";
import { EventBus } from "../core/events.ts";
import { InteractionRegistry } from "../core/interactions.ts";
import type { LassEvent } from "../wire/events.ts";
import { configWithServers, eventSeen, post, readJsonResponse, startService } from "./_helpers.ts";

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
  await interactions.answer(interaction.id, { approved: true, remember: "session" });
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
  await assert.rejects(interactions.answer(interaction.id, { approved: true }), (e: LassError) => {
    assert.equal(e.code, "invalid-request");
    assert.equal(e.details![0].path, "response.action");
    return true;
  });
  await interactions.answer(interaction.id, { action: "accept", content: { name: "Ada" } });
  assert.deepEqual(await response, { action: "accept", content: { name: "Ada" } });
  await assert.rejects(
    interactions.answer(interaction.id, { action: "cancel" }),
    /already answered/,
  );
  await assert.rejects(interactions.answer("nope", { action: "cancel" }), /no pending interaction/);
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
  await assert.rejects(interactions.answer(interaction.id, { approved: true }), /already answered/);
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
  await interactions.answer(b.interaction.id, { approved: false });
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

Deno.test("an elicitation the tool server stopped waiting for is withdrawn; answering it is 409", async () => {
  const path = new URL("./fixtures/elicit_cancel_server.ts", import.meta.url).pathname;
  const server = {
    id: "asker",
    name: "Asker",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", path],
  };
  const t = await startService({ config: configWithServers([server]) });
  try {
    const cases = [
      { tool: "ask_until_cancelled", why: "the server cancelled its request" },
      { tool: "ask_briefly", why: "the server's request timed out" },
    ];
    for (const { tool, why } of cases) {
      const known = new Set(t.service.events.history().map((event) => event.seq));
      const fresh = (event: LassEvent) => !known.has(event.seq);
      const call = post(t, "/api/mcp/asker/call", { tool, args: {} });
      const created = await eventSeen(
        t,
        (event) => fresh(event) && event.type === "interaction.created",
        `interaction.created for ${tool}`,
      );
      const { id } = created.data.interaction as { id: string };
      if (tool === "ask_until_cancelled") {
        const cancel = await post(t, "/api/mcp/asker/call", { tool: "cancel_question", args: {} });
        assert.equal(cancel.body.result.content[0].text, "withdrawn");
      }
      const resolved = await eventSeen(
        t,
        (event) => event.type === "interaction.resolved" && event.data.id === id,
        `interaction.resolved for ${tool} (${why})`,
      );
      assert.equal(resolved.data.outcome, "cancelled", why);
      const listed = await readJsonResponse(await t.call("/api/interactions"));
      assert.deepEqual(listed.body.interactions, [], why);
      const late = await post(t, `/api/interactions/${id}`, {
        response: { action: "accept", content: { name: "Ada" } },
      });
      assert.deepEqual([late.status, late.body.error.code], [409, "conflict"], why);
      const result = await call;
      assert.match(result.body.result.content[0].text, /^gave up: /, why);
    }
  } finally {
    await t.close();
  }
});
