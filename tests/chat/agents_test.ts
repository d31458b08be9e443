/** `POST /api/chat` with remote agents: A2A and AG-UI behind the same chunks, events and sessions. */
import assert from "node:assert/strict";
import { type Json, post, startService } from "../_helpers.ts";
import { chat, chatConfig, DEMO_SERVER, fakeLlm, ofType, user } from "../_chat.ts";
import { startA2aAgent } from "../fixtures/a2a_agents.ts";
import { startAguiAgent, textEvents, toolCallEvents } from "../fixtures/agui_agent.ts";

/** A config whose workspace `w` talks to one agent (and uses the demo server for shared tools). */
function agentConfig(agent: Record<string, unknown>) {
  return {
    ...chatConfig({ servers: [DEMO_SERVER], workspace: { agentId: agent.id } }),
    agents: [agent],
  };
}

Deno.test("an A2A agent answers a chat turn; the next turn continues its context via the session", async () => {
  const agent = startA2aAgent();
  const t = await startService({
    config: agentConfig({ id: "echo", name: "Echo agent", protocol: "a2a", url: agent.url }),
  });
  try {
    const first = [user("hello agent")];
    const turn1 = await chat(t, { messages: first, sessionId: "a2a" });
    assert.deepEqual(turn1.chunks[0], {
      type: "start",
      runId: turn1.chunks[0].runId,
      model: "Echo agent",
      profileId: "echo",
      tools: 0,
    });
    const text1 = ofType(turn1.chunks, "text").map((c) => c.text).join("");
    assert.match(text1, /^turn 1 in context (\S+): hello agent$/);
    const context = text1.match(/context (\S+):/)![1];
    const finish = turn1.chunks.at(-1);
    assert.equal(finish.type, "finish");
    assert.equal(finish.messages[0].providerOptions.a2a.contextId, context);
    const stored = await t.call("/api/sessions/a2a").then((r) => r.json());
    assert.equal(stored.agentId, "echo");
    const turn2 = await chat(t, {
      messages: [...stored.messages, user("again")],
      sessionId: "a2a",
    });
    const text2 = ofType(turn2.chunks, "text").map((c) => c.text).join("");
    assert.equal(text2, `turn 2 in context ${context}: again`);
    const events = t.service.events.history().filter((e) => e.data.runId === turn2.chunks[0].runId);
    assert.deepEqual(events.map((e) => e.type), ["chat.start", "chat.finish"]);
    assert.equal(events[0].data.agentId, "echo");
    assert.equal(events[1].data.text, text2);
  } finally {
    await t.close();
    await agent.close();
  }
});

Deno.test("a failed A2A task is an error chunk after start", async () => {
  const agent = startA2aAgent();
  const t = await startService({
    config: agentConfig({ id: "echo", name: "Echo", protocol: "a2a", url: agent.url }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("fail")] });
    assert.deepEqual(chunks.map((c: Json) => c.type), ["start", "error"]);
    assert.match(chunks[1].message, /the agent failed the task: the fixture cannot do that/);
  } finally {
    await t.close();
    await agent.close();
  }
});

Deno.test("an AG-UI agent with shareTools calls a tool-server tool; Lass runs it and continues", async () => {
  const agent = startAguiAgent();
  agent.script((input, index) =>
    index === 0
      ? { events: toolCallEvents("tc1", "demo__add", { a: 2, b: 3 }) }
      : { events: textEvents("m2", [`the tool said ${JSON.stringify(input.messages.at(-1))}`]) }
  );
  const t = await startService({
    config: agentConfig({
      id: "ui",
      name: "AG-UI agent",
      protocol: "ag-ui",
      url: agent.url,
      shareTools: true,
    }),
  });
  try {
    const { chunks } = await chat(t, { messages: [user("add please")] });
    assert.equal(chunks.at(-1).type, "finish", JSON.stringify(chunks.at(-1)));
    assert.ok(chunks[0].tools > 5);
    const [call] = ofType(chunks, "tool-call");
    assert.deepEqual([call.name, call.tool, call.source], ["demo__add", "add", "demo"]);
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.output, "5");
    assert.match(ofType(chunks, "text").map((c) => c.text).join(""), /5/);
    assert.equal(agent.runs.length, 2);
    assert.ok(agent.runs[0].input.tools.some((tool) => tool.name === "demo__add"));
    const events = t.service.events.history().map((e) => e.type);
    assert.ok(events.includes("tool.call") && events.includes("tool.result"));
  } finally {
    await t.close();
    await agent.close();
  }
});

Deno.test("shared tools follow the approval rules", async () => {
  const agent = startAguiAgent();
  agent.script((_input, index) =>
    index === 0
      ? { events: toolCallEvents("tc1", "demo__add", { a: 1, b: 1 }) }
      : { events: textEvents("m2", ["done"]) }
  );
  const t = await startService({
    config: {
      ...agentConfig({ id: "ui", name: "UI", protocol: "ag-ui", url: agent.url, shareTools: true }),
      workspaces: [{
        id: "w",
        name: "W",
        agentId: "ui",
        mcpServerIds: ["demo"],
        requireApproval: true,
      }],
    },
  });
  try {
    const turn = chat(t, { messages: [user("add")] });
    let pending: Json[] = [];
    for (let i = 0; i < 100 && pending.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      pending = t.service.interactions.list();
    }
    assert.equal(pending[0].kind, "approval");
    await post(t, `/api/interactions/${pending[0].id}`, { response: { approved: false } });
    const { chunks } = await turn;
    const [result] = ofType(chunks, "tool-result");
    assert.equal(result.isError, true);
    assert.equal(result.output, "denied by the user");
  } finally {
    await t.close();
    await agent.close();
  }
});

Deno.test("POST /api/agents/test checks an A2A card and an AG-UI run", async () => {
  const a2a = startA2aAgent();
  const agui = startAguiAgent();
  agui.script([{ events: textEvents("m1", ["hi"]) }]);
  const t = await startService({ config: chatConfig() });
  try {
    const card = await post(t, "/api/agents/test", {
      agent: { id: "a", name: "A", protocol: "a2a", url: a2a.url },
    });
    assert.equal(card.status, 200);
    assert.equal(card.body.ok, true, JSON.stringify(card.body));
    assert.equal(typeof card.body.card.name, "string");
    assert.ok(card.body.latencyMs >= 0);
    const run = await post(t, "/api/agents/test", {
      agent: { id: "g", name: "G", protocol: "ag-ui", url: agui.url },
    });
    assert.equal(run.body.ok, true, JSON.stringify(run.body));
    assert.equal(run.body.text, "hi");
    assert.ok(run.body.events.includes("RUN_STARTED"));
    const down = await post(t, "/api/agents/test", {
      agent: { id: "d", name: "D", protocol: "a2a", url: "http://127.0.0.1:9" },
    });
    assert.equal(down.body.ok, false);
    assert.match(down.body.error, /cannot reach/);
    const bad = await post(t, "/api/agents/test", { agent: { id: "x", protocol: "smoke" } });
    assert.equal(bad.status, 400);
  } finally {
    await t.close();
    await a2a.close();
    await agui.close();
  }
});

Deno.test("an AG-UI agent's state is kept in the stored session and sent back on the next turn", async () => {
  const agui = startAguiAgent();
  agui.script([
    {
      events: [
        { type: "STATE_SNAPSHOT", snapshot: { cart: [] } },
        { type: "STATE_DELTA", delta: [{ op: "add", path: "/cart/-", value: "tea" }] },
        ...textEvents("m1", ["Added tea"]),
      ],
    },
    { events: textEvents("m2", ["Your cart has tea"]) },
  ]);
  const t = await startService({
    config: agentConfig({ id: "shop", name: "Shop", protocol: "ag-ui", url: agui.url }),
  });
  try {
    await chat(t, { messages: [user("add tea")], sessionId: "shop" });
    const stored = await t.call("/api/sessions/shop").then((r) => r.json());
    await chat(t, {
      messages: [...stored.messages, user("what is in my cart?")],
      sessionId: "shop",
    });
    assert.deepEqual(agui.runs.map((run) => run.input.state), [{}, { cart: ["tea"] }]);
  } finally {
    await t.close();
    await agui.close();
  }
});

Deno.test("POST /api/agents/test passes an A2A agent that answers at once and keeps working, given its JSON-RPC endpoint", async () => {
  const a2a = startA2aAgent({ answerAs: "slow", slowPieceMs: 60_000 });
  const t = await startService({ config: chatConfig() });
  try {
    const probe = await post(t, "/api/agents/test", {
      agent: { id: "a", name: "A", protocol: "a2a", url: a2a.rpcUrl },
    });
    assert.equal(probe.status, 200);
    assert.equal(probe.body.ok, true, JSON.stringify(probe.body));
    assert.equal(probe.body.text, "piece 0 ");
  } finally {
    await t.close();
    await a2a.close();
  }
});

Deno.test("skills in chat: the catalog in the system prompt, load_skill and read_skill_file", async () => {
  const { SKILL_FIXTURES } = await import("../_skills.ts");
  const t = await startService({
    config: {
      ...chatConfig({ servers: [], workspace: { skillIds: ["pdf"], generativeUi: false } }),
      skills: [{ id: "pdf", path: `${SKILL_FIXTURES}/pdf-processing` }],
    },
  });
  try {
    const loaded = await chat(t, { messages: [user("load skill pdf-processing")] });
    assert.equal(loaded.chunks[0].tools, 2);
    const [call] = ofType(loaded.chunks, "tool-call");
    assert.deepEqual([call.name, call.tool, call.source], ["load_skill", "load_skill", "skills"]);
    assert.deepEqual(call.input, { name: "pdf-processing" });
    const [result] = ofType(loaded.chunks, "tool-result");
    assert.equal(result.isError, false);
    assert.match(JSON.stringify(result.output), /references\/REFERENCE\.md/);
    const read = await chat(t, {
      messages: [user("read skill file pdf-processing 'references/REFERENCE.md'")],
    });
    const [file] = ofType(read.chunks, "tool-result");
    assert.equal(file.isError, false, JSON.stringify(file));
    const escape = await chat(t, {
      messages: [user("read skill file pdf-processing '../../_helpers.ts'")],
    });
    const [refused] = ofType(escape.chunks, "tool-result");
    assert.equal(refused.isError, true);
    const boot = await t.call("/api/bootstrap").then((r) => r.json());
    assert.deepEqual(boot.skills.map((s: Json) => [s.id, s.name, s.errors]), [
      ["pdf", "pdf-processing", []],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("the skill catalog follows the workspace's system prompt in the model request", async () => {
  const { SKILL_FIXTURES } = await import("../_skills.ts");
  const { startFakeVendor } = await import("../fixtures/fake_vendors.ts");
  const fake = await startFakeVendor();
  fake.script([{ text: ["ok"] }]);
  const t = await startService({
    config: {
      ...chatConfig({
        servers: [],
        llms: [fakeLlm(fake.url, "f")],
        workspace: { skillIds: ["pdf"], systemPrompt: "Be brief.", generativeUi: false },
      }),
      skills: [{ id: "pdf", path: `${SKILL_FIXTURES}/pdf-processing` }],
    },
  });
  try {
    await chat(t, { messages: [user("hi")] });
    const body = fake.requests.find((r) => r.method === "POST")!.body as Json;
    const system = body.messages[0];
    assert.equal(system.role, "system");
    assert.match(system.content, /^Be brief\.\n\n/);
    assert.match(system.content, /pdf-processing/);
    assert.match(system.content, /Extract PDF text, fill forms, merge files/);
    assert.deepEqual(body.tools.map((tool: Json) => tool.function.name).sort(), [
      "load_skill",
      "read_skill_file",
    ]);
  } finally {
    await t.close();
    await fake.close();
  }
});
