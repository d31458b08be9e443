/** `POST /api/chat/compare`: one turn per column, concurrently, with its summary, approvals and session. */
import assert from "node:assert/strict";
import {
  type Json,
  post,
  startService,
  type TestService,
  waitForEvent,
  waitUntil,
} from "../_helpers.ts";
import {
  chat,
  chatConfig,
  DEMO_LLM,
  DEMO_SERVER,
  fakeLlm,
  ofType,
  parseNdjson,
  readChunks,
  user,
} from "../_chat.ts";
import { type FakeVendor, startFakeVendor } from "../fixtures/fake_vendors.ts";

/** Posts a compare turn and reads every chunk. */
async function compare(t: TestService, body: Record<string, unknown>) {
  const response = await t.call("/api/chat/compare", { method: "POST", json: body });
  if (response.status !== 200) {
    return { status: response.status, chunks: [], body: await response.json() };
  }
  return { status: 200, chunks: parseNdjson(await response.text()), body: undefined };
}

/** The chunks of one column, without their `column`. */
function columnChunks(chunks: Json[], column: number): Json[] {
  return chunks.filter((chunk) => chunk.column === column);
}

/** A fake vendor where model `fake-broken` fails with a 500 and the others answer text. */
async function vendorWithBrokenModel(): Promise<FakeVendor> {
  const vendor = await startFakeVendor();
  vendor.script((request) =>
    (request.body as Json)?.model === "fake-broken"
      ? { status: 500 }
      : { text: ["Five", "."], usage: { input: 12, output: 3 } }
  );
  return vendor;
}

Deno.test("compare: four columns run at once; one fails while the others finish; the summary says how each went", async () => {
  const vendor = await vendorWithBrokenModel();
  const t = await startService({
    config: chatConfig({
      llms: [
        DEMO_LLM,
        { ...DEMO_LLM, id: "demo-2" },
        fakeLlm(vendor.url, "fake", { pricing: { inputPerMTok: 1, outputPerMTok: 2 } }),
        fakeLlm(vendor.url, "broken", { model: "fake-broken" }),
      ],
    }),
  });
  try {
    const { status, chunks } = await compare(t, {
      messages: [user("please add 2 and 3")],
      columns: [{ llmId: "demo" }, { llmId: "demo-2", label: "Demo again" }, { llmId: "fake" }, {
        llmId: "broken",
      }],
    });
    assert.equal(status, 200);
    const summary = chunks.at(-1);
    assert.equal(summary.type, "compare-summary");
    assert.equal(chunks.filter((chunk) => chunk.type === "compare-summary").length, 1);
    for (const chunk of chunks.slice(0, -1)) assert.ok([0, 1, 2, 3].includes(chunk.column));
    // Each column streams a turn of its own: a start with its run, then a finish or an error.
    const runIds = new Set<string>();
    for (const column of [0, 1, 2]) {
      const own = columnChunks(chunks, column);
      assert.equal(own[0].type, "start", `column ${column} starts`);
      runIds.add(own[0].runId);
      assert.equal(own.at(-1).type, "finish", `column ${column} finishes`);
      assert.equal(ofType(own, "finish").length, 1);
    }
    assert.equal(runIds.size, 3);
    for (const column of [0, 1]) {
      const own = columnChunks(chunks, column);
      assert.equal(ofType(own, "tool-call").length, 1);
      assert.equal(ofType(own, "tool-result")[0].output, "5");
    }
    assert.equal(
      ofType(columnChunks(chunks, 2), "text").map((chunk) => chunk.text).join(""),
      "Five.",
    );
    const broken = columnChunks(chunks, 3);
    assert.equal(broken.at(-1).type, "error");
    assert.deepEqual(summary.columns.map((column: Json) => column.label), [
      "demo",
      "Demo again",
      "fake",
      "broken",
    ]);
    assert.deepEqual(summary.columns.map((column: Json) => column.toolCalls), [1, 1, 0, 0]);
    assert.deepEqual(summary.columns.map((column: Json) => column.steps), [2, 2, 1, 0]);
    assert.deepEqual(summary.columns.map((column: Json) => column.llmId), [
      "demo",
      "demo-2",
      "fake",
      "broken",
    ]);
    assert.equal(summary.columns[3].error, broken.at(-1).message);
    for (const column of summary.columns.slice(0, 3)) assert.equal(column.error, undefined);
    assert.equal(summary.columns[2].usage.inputTokens, 12);
    assert.equal(summary.columns[2].usage.outputTokens, 3);
    // Each column's cost, as its finish has it; the failed column finished no step.
    const finishes = chunks.filter((chunk) => chunk.type === "finish");
    assert.deepEqual(summary.columns.map((column: Json) => column.cost), [
      { usd: 0, source: "demo" },
      { usd: 0, source: "demo" },
      { usd: (12 * 1 + 3 * 2) / 1e6, source: "profile" },
      null,
    ]);
    assert.deepEqual(
      finishes.find((chunk) => chunk.column === 2).cost,
      summary.columns[2].cost,
    );
    assert.equal(summary.columns[3].costUnknown, "the column finished no step");
    for (const column of summary.columns) assert.ok(column.ms >= 0);
    // The two fake columns asked the vendor at the same time as the demo columns ran.
    assert.ok(vendor.requests.length >= 2);
  } finally {
    await t.close();
    await vendor.close();
  }
});

Deno.test("compare: an approval in one column names it; the session keeps both columns and goes on with the picked one", async () => {
  const vendor = await vendorWithBrokenModel();
  const t = await startService({
    config: chatConfig({
      llms: [DEMO_LLM, fakeLlm(vendor.url)],
      servers: [{ ...DEMO_SERVER, approval: { tools: { add: "ask" } } }],
    }),
  });
  try {
    const created = waitForEvent(t, (e) => e.type === "interaction.created", {
      what: "interaction.created of the demo column's approval",
      ms: 30_000,
    });
    const running = compare(t, {
      messages: [user("please add 2 and 3")],
      sessionId: "cmp",
      columns: [{ llmId: "demo", label: "Demo" }, { llmId: "fake" }],
    });
    const { interaction } = (await created).data as Json;
    assert.equal(interaction.kind, "approval");
    assert.deepEqual(interaction.column, { index: 0, label: "Demo" });
    const answered = await post(t, `/api/interactions/${interaction.id}`, {
      response: { approved: true },
    });
    assert.equal(answered.status, 200);
    const { chunks } = await running;
    assert.equal(chunks.at(-1).type, "compare-summary");
    assert.equal(chunks.at(-1).messageIndex, 0);
    // Only the demo column asked: the fake one answered text.
    assert.equal(interaction.runId, columnChunks(chunks, 0)[0].runId);

    const stored = await (await t.call("/api/sessions/cmp")).json();
    assert.equal(stored.llmId, "demo");
    const kept = stored.meta.compares["0"];
    assert.equal(kept.picked, 0);
    assert.equal(kept.columns.length, 2);
    assert.equal(kept.columns[1].llmId, "fake");
    assert.deepEqual(stored.messages.slice(1), kept.columns[0].messages);
    const callId = columnChunks(chunks, 0).find((chunk) => chunk.type === "tool-call").id;
    assert.equal(stored.meta.toolCalls[callId].tool, "add");

    // Going on with the fake column: the session's answer becomes its.
    const picked = await post(t, "/api/sessions/cmp/compares/0/pick", { column: 1 });
    assert.equal(picked.status, 200, JSON.stringify(picked.body));
    assert.equal(picked.body.llmId, "fake");
    assert.deepEqual(picked.body.messages.slice(1), kept.columns[1].messages);
    assert.equal(picked.body.meta.compares["0"].picked, 1);
    const missing = await post(t, "/api/sessions/cmp/compares/0/pick", { column: 5 });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, "not-found");

    // The next turn continues from the picked column; then the compare turn is no longer the last.
    const next = await chat(t, {
      messages: [...picked.body.messages, user("thanks")],
      sessionId: "cmp",
      llmId: "fake",
    });
    assert.equal(next.chunks.at(-1).type, "finish");
    const late = await post(t, "/api/sessions/cmp/compares/0/pick", { column: 0 });
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, "conflict");
  } finally {
    await t.close();
    await vendor.close();
  }
});

Deno.test("compare: columns are checked before anything streams", async () => {
  const t = await startService({ config: chatConfig({ servers: [] }) });
  try {
    const one = await compare(t, { messages: [user("hi")], columns: [{ llmId: "demo" }] });
    assert.equal(one.status, 400);
    assert.equal(one.body.error.code, "invalid-request");
    const five = await compare(t, { messages: [user("hi")], columns: Array(5).fill({}) });
    assert.equal(five.status, 400);
    const both = await compare(t, {
      messages: [user("hi")],
      columns: [{ llmId: "demo", agentId: "a" }, {}],
    });
    assert.equal(both.status, 400);
    const unknown = await compare(t, {
      messages: [user("hi")],
      columns: [{ llmId: "demo" }, { llmId: "nope" }],
    });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.error.message, /^column 2: no model profile has id nope/);
    // Two columns with the workspace's model: both answer.
    const same = await compare(t, { messages: [user("hi")], columns: [{}, {}] });
    assert.equal(same.status, 200);
    assert.deepEqual(
      same.chunks.at(-1).columns.map((column: Json) => [column.llmId, column.error]),
      [["demo", undefined], ["demo", undefined]],
    );
  } finally {
    await t.close();
  }
});

Deno.test("compare: a client that goes away stops every column; the session keeps what each streamed", async () => {
  const t = await startService({
    config: chatConfig({ llms: [DEMO_LLM, { ...DEMO_LLM, id: "demo-2" }] }),
  });
  try {
    const response = await t.call("/api/chat/compare", {
      method: "POST",
      json: {
        messages: [user("slow count 40 steps of 250 ms")],
        sessionId: "gone",
        columns: [{ llmId: "demo" }, { llmId: "demo-2" }],
      },
    });
    const seen = new Set<number>();
    await readChunks(response, (chunk) => {
      if (chunk.type === "tool-call") seen.add(chunk.column);
      return seen.size === 2;
    });
    await waitUntil(async () => {
      const stored = await t.service.sessions.get("gone").catch(() => undefined);
      return stored?.meta?.compares !== undefined;
    }, "the stopped compare turn to be saved");
    const stored = await t.service.sessions.get("gone");
    const kept = (stored.meta!.compares as Json)["0"];
    assert.deepEqual(kept.columns.map((column: Json) => column.error), [
      "the turn was aborted",
      "the turn was aborted",
    ]);
    // Each column's call got the unfinished result, so the history stays valid.
    for (const column of kept.columns) {
      assert.equal(column.messages[0].content.at(-1).type, "tool-call");
      assert.match(
        JSON.stringify(column.messages[1]),
        /the turn ended before this tool call finished/,
      );
    }
    assert.deepEqual((stored.meta!.endings as Json)["0"], { aborted: true });
    await waitUntil(() => t.service.runningCalls.size() === 0, "no tool call left running");
  } finally {
    await t.close();
  }
});
