/**
 * A finished chat turn leaves nothing behind on the service. A turn's signal follows the
 * service's closing signal (`AbortSignal.any`), which keeps every signal depending on it that
 * still has a listener, with all the listener holds: a listener left on a turn's signal kept its
 * tools and prompt for good (about 7 KB a turn).
 */
import assert from "node:assert/strict";
import { exposedGc } from "../../cli/heap_reducer.ts";
import { startService } from "../_helpers.ts";
import { chat, chatConfig, DEMO_LLM, user } from "../_chat.ts";
import { startA2aAgent } from "../fixtures/a2a_agents.ts";
import { startAguiAgent, textEvents, toolCallEvents } from "../fixtures/agui_agent.ts";

const gc = await exposedGc();

Deno.test("finished chat turns leave no signal behind: a tool call, an answer, a failing model, agents", async () => {
  const broken = { ...DEMO_LLM, id: "broken", baseURL: "http://127.0.0.1:9/v1", model: "m" };
  const a2a = startA2aAgent();
  const agui = startAguiAgent();
  agui.script((_input, index) =>
    index === 0
      ? { events: toolCallEvents("tc1", "demo__add", { a: 2, b: 3 }) }
      : { events: textEvents("m2", ["done"]) }
  );
  const t = await startService({
    config: {
      ...chatConfig({ llms: [DEMO_LLM, { ...broken, provider: "compatible-api" }] }),
      agents: [
        { id: "a2a", name: "A2A", protocol: "a2a", url: a2a.url },
        { id: "agui", name: "AG-UI", protocol: "ag-ui", url: agui.url, shareTools: true },
      ],
    },
  });
  const turnSignals: WeakRef<AbortSignal>[] = [];
  const any = AbortSignal.any;
  AbortSignal.any = (signals: Iterable<AbortSignal>) => {
    const sources = [...signals];
    const signal = any.call(AbortSignal, sources);
    if (sources.includes(t.service.turns.signal)) turnSignals.push(new WeakRef(signal));
    return signal;
  };
  try {
    const tool = await chat(t, { messages: [user("Add 2 and 3 with a tool")] });
    assert.ok(
      tool.chunks.some((chunk) => chunk.type === "tool-result"),
      JSON.stringify(tool.chunks),
    );
    const answer = await chat(t, { messages: [user("Hello")] });
    assert.equal(answer.chunks.at(-1).type, "finish");
    const failed = await chat(t, { messages: [user("Hello")], llmId: "broken" });
    assert.equal(failed.chunks.at(-1).type, "error");
    for (const agentId of ["a2a", "agui"]) {
      const { chunks } = await chat(t, { messages: [user("Hello agent")], agentId });
      assert.equal(chunks.at(-1).type, "finish", `${agentId}: ${JSON.stringify(chunks.at(-1))}`);
    }
    assert.equal(turnSignals.length, 5);
    // The turns' own promises settle in later ticks: a few rounds of the event loop and a GC.
    const alive = () => turnSignals.filter((ref) => ref.deref() !== undefined).length;
    for (let round = 0; round < 10 && alive() > 0; round++) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      gc();
    }
    assert.equal(alive(), 0, `${alive()} of 5 finished turns are still held by the service`);
  } finally {
    AbortSignal.any = any;
    await t.close();
    await a2a.close();
    await agui.close();
  }
});
