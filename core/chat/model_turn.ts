/** The model path of a chat turn: the step loop over the workspace's tools, as chunks. */
import type { LlmProfile } from "../../wire/config/schema.ts";
import { describeModelError } from "../llm/failures.ts";
import { configuredModel } from "../llm/providers.ts";
import type { ChatChunk } from "../../wire/chat.ts";
import type { TurnChunk } from "./types.ts";
import { usageOf } from "../llm/sdk_usage.ts";
import { toolCallChunk } from "./chunks.ts";
import { skillTools } from "./skill_tools.ts";
import { uiTools } from "./ui_tools.ts";
import { shownOutput } from "./tool_output.ts";
import { isToolUpdate, type RunTools, serverToolOffer, type ToolRun } from "./tools.ts";
import type { ReadyTurn, Turn, TurnOutcome } from "./turn.ts";
import type { StepPart } from "./model_call.ts";
import { modelSteps, type StepsOutcome } from "./model_steps.ts";

/** Resolves the profile and gathers the tools; throws a sentence when the profile cannot be used. */
export async function modelTurn(turn: Turn, profile: LlmProfile): Promise<ReadyTurn> {
  const { service, runId, signal } = turn;
  const { workspace } = turn.resolved;
  let model: ReturnType<typeof configuredModel>;
  try {
    model = configuredModel(profile, service.env);
  } catch (error) {
    throw new Error(`the model profile ${profile.id} cannot be used: ${(error as Error).message}`);
  }
  if (model.problem) {
    throw new Error(`the model profile ${profile.id} cannot be used: ${model.problem}`);
  }
  const [servers, skills, ui] = await Promise.all([
    serverToolOffer({
      service,
      gate: service.approvals,
      workspace,
      runId,
      llmId: profile.id,
      signal,
      trace: turn.trace,
    }),
    skillTools(service, workspace),
    uiTools(service, workspace, runId),
  ]);
  for (const gap of servers.unavailable) {
    service.events.emit("chat.tools-unavailable", { runId, ...gap });
  }
  const toolCount = servers.count + Object.keys(skills.tools).length +
    Object.keys(ui.tools).length;
  const instructions = [workspace.systemPrompt, skills.instructions, ui.instructions]
    .filter(Boolean).join("\n\n");
  const context = {
    provider: profile.provider,
    endpoint: model.shownEndpoint,
    model: profile.model,
    timeoutMs: 0,
    secrets: model.secrets,
  };
  // The model starts when the body is first read (after the `start` chunk went out) and when
  // the load lets it: see `ModelAdmission`.
  async function* modelBody(): AsyncGenerator<TurnChunk, TurnOutcome> {
    const leave = await service.admission.enter(signal);
    try {
      // Built once admitted: a turn that waits holds only what it found.
      const built = servers.build();
      const tools: RunTools = {
        tools: { ...built.tools, ...skills.tools, ...ui.tools },
        origins: new Map([...built.origins, ...skills.origins, ...ui.origins]),
        unavailable: servers.unavailable,
      };
      const steps = modelSteps({
        model: model.model,
        settings: model.settings,
        ...(instructions && { instructions }),
        messages: turn.messages,
        ...(toolCount > 0 && { tools: tools.tools }),
        maxSteps: workspace.maxSteps,
        signal,
        callbacks: turn.trace?.callbacks,
      });
      return yield* turnChunks(steps, tools, (error) => describeModelError(error, context));
    } finally {
      leave();
    }
  }
  return {
    model: profile.model,
    profileId: profile.id,
    tools: toolCount,
    unavailable: servers.unavailable,
    startEvent: { profileId: profile.id, model: profile.model },
    sessionFields: { llmId: profile.id },
    body: modelBody(),
  };
}

/**
 * The chunks of the step loop's parts, then the turn's outcome; a failure is thrown as a
 * sentence. (A tool-server call registers itself as running while it runs:
 * see `serverToolOffer`.)
 */
async function* turnChunks(
  steps: AsyncGenerator<StepPart, StepsOutcome>,
  tools: RunTools,
  describe: (error: unknown) => string,
): AsyncGenerator<TurnChunk, TurnOutcome> {
  const callStarts = new Map<string, number>();
  try {
    while (true) {
      const next = await steps.next();
      if (next.done) {
        const { messages, usage, steps, finishReason } = next.value;
        return { messages, usage: usageOf(usage), steps, finishReason };
      }
      const part = next.value;
      if (part.type === "tool-call") callStarts.set(part.toolCallId, performance.now());
      const chunk = chunkOf(part, tools, callStarts);
      if (chunk) yield chunk;
    }
  } catch (error) {
    // An abort comes out as a sentence too; the chat run tells an abort by its signal.
    throw new Error(describe(error));
  } finally {
    await steps.return(undefined as never);
  }
}

/** The chunk of one part of the step loop, if it has one. */
function chunkOf(
  part: StepPart,
  tools: RunTools,
  callStarts: Map<string, number>,
): TurnChunk | undefined {
  switch (part.type) {
    case "text-delta":
      return { type: "text", text: part.text };
    case "reasoning-delta":
      return { type: "reasoning", text: part.text };
    case "tool-call":
      return toolCallChunk(
        part.toolCallId,
        part.toolName,
        part.input,
        tools.origins.get(part.toolName),
        "unknown",
      );
    case "tool-result": {
      if (part.preliminary) {
        // Progress and task status on the way; the final value comes without the flag.
        return isToolUpdate(part.output)
          ? { type: "tool-progress", id: part.toolCallId, ...part.output.update }
          : undefined;
      }
      return toolResultChunk(part.toolCallId, part.output as ToolRun);
    }
    case "tool-error": {
      const started = callStarts.get(part.toolCallId);
      const error = part.error;
      return {
        type: "tool-result",
        id: part.toolCallId,
        output: error instanceof Error ? error.message : String(error),
        isError: true,
        durationMs: started === undefined ? 0 : Math.round(performance.now() - started),
      };
    }
    case "step":
      return { type: "step", usage: usageOf(part.usage), finishReason: part.finishReason };
  }
}

/** The `tool-result` chunk of a finished tool run. */
export function toolResultChunk(
  id: string,
  run: ToolRun,
): Extract<ChatChunk, { type: "tool-result" }> {
  return {
    type: "tool-result",
    id,
    output: shownOutput(run.model),
    isError: run.isError,
    durationMs: run.durationMs,
    ...(run.ui && { ui: run.ui }),
    ...(run.raw !== undefined && { raw: run.raw }),
    ...(run.ending && { ending: run.ending }),
  };
}
