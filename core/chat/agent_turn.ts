/** The remote-agent path of a chat turn: an A2A or AG-UI adapter behind the same chunks. */
import { agentSecrets } from "../agents/_agent_url.ts";
import type { AgentConfig, AgentTurn } from "../agents/types.ts";
import { scrubSecrets } from "../config/secrets.ts";
import type { TurnChunk } from "./types.ts";
import { type RunTools, toolServerTools } from "./tools.ts";
import type { ReadyTurn, Turn, TurnOutcome } from "./turn.ts";

/** The adapter of a protocol, loaded on first use. */
async function adapterOf(protocol: AgentConfig["protocol"]): Promise<AgentTurn> {
  if (protocol === "a2a") return (await import("../agents/a2a.ts")).runA2aTurn;
  return (await import("../agents/agui.ts")).runAguiTurn;
}

/** Prepares a turn with a remote agent; with `shareTools` (AG-UI) it gathers the workspace's tools. */
export async function agentTurn(turn: Turn, agent: AgentConfig): Promise<ReadyTurn> {
  const { service, runId, signal } = turn;
  const { workspace } = turn.resolved;
  let tools: RunTools | undefined;
  if (agent.shareTools && agent.protocol === "ag-ui") {
    tools = await toolServerTools({
      service,
      gate: service.approvals,
      workspace,
      runId,
      // Sampling during a shared tool call uses the workspace's model.
      llmId: workspace.llmId ?? "",
      signal,
    });
    for (const gap of tools.unavailable) {
      service.events.emit("chat.tools-unavailable", { runId, ...gap });
    }
  }
  const adapter = await adapterOf(agent.protocol);
  const generator = adapter({
    agent,
    messages: turn.messages,
    runId,
    signal,
    env: service.env,
    tools,
    maxSteps: workspace.maxSteps,
  });
  return {
    model: agent.name,
    profileId: agent.id,
    tools: tools ? Object.keys(tools.tools).length : 0,
    unavailable: tools?.unavailable,
    startEvent: { agentId: agent.id, protocol: agent.protocol },
    sessionFields: { agentId: agent.id },
    body: outcomeOf(generator, agentSecrets(agent, service.env)),
  };
}

/** Passes the adapter's chunks on and turns its result into a turn outcome. */
async function* outcomeOf(
  generator: ReturnType<AgentTurn>,
  secrets: readonly string[],
): AsyncGenerator<TurnChunk, TurnOutcome> {
  let steps = 0;
  while (true) {
    let next: Awaited<ReturnType<typeof generator.next>>;
    try {
      next = await generator.next();
    } catch (error) {
      // The agent's URL and headers (resolved references, credentials) never reach an error text.
      throw new Error(scrubSecrets((error as Error)?.message ?? String(error), secrets));
    }
    if (next.done) {
      return {
        messages: next.value.messages,
        usage: next.value.usage ?? {},
        steps: Math.max(steps, 1),
        finishReason: "stop",
      };
    }
    if (next.value.type === "step") steps++;
    yield next.value;
  }
}
