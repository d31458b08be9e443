/**
 * Answers tool servers' sampling requests with a model: the one of the chat whose tool call asked,
 * else the active workspace's, else the first profile. A request may offer tools (MCP "sampling
 * with tools"): the model may call them in its one step, and the calls go back as `tool_use` blocks
 * for the server to run.
 */
import type { EnvLookup } from "../../config/env_refs.ts";
import type { LlmProfile, ServiceConfig } from "../../../wire/config/schema.ts";
import type { ConfigStore } from "../../config/store.ts";
import type { Sampler } from "./types.ts";
import { scrubSecrets } from "../../config/secrets.ts";
import { defaultWorkspace } from "../../config/workspaces.ts";

/** The profile that answers sampling: the active workspace's model, else the first profile. */
export function samplingProfile(config: ServiceConfig): LlmProfile | undefined {
  const workspace = defaultWorkspace(config);
  return config.llms.find((llm) => llm.id === workspace?.llmId) ?? config.llms[0];
}

/** A tool call's input as a `tool_use` input, which must be an object. */
function inputObject(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === "object" && !Array.isArray(input)
    ? input as Record<string, unknown>
    : {};
}

/** A sampler that completes requests with the config's model; the AI SDK loads on first use. */
export function createSampler(config: ConfigStore, env: EnvLookup): Sampler {
  return async (params, { signal, llmId }) => {
    const current = config.config;
    const profile = current.llms.find((llm) => llm.id === llmId) ?? samplingProfile(current);
    if (!profile) throw new Error("no model profile is configured to answer sampling requests");
    const [{ generateText }, { configuredModel }, convert] = await Promise.all([
      import("ai"),
      import("../../llm/providers.ts"),
      import("./sampling_messages.ts"),
    ]);
    const { toModelMessages, toModelToolChoice, toModelTools } = convert;
    const { model, settings, secrets } = configuredModel(profile, env);
    const result = await generateText({
      ...settings,
      model,
      ...(params.systemPrompt && { instructions: params.systemPrompt }),
      messages: toModelMessages(params.messages),
      ...(params.tools && {
        tools: toModelTools(params.tools),
        toolChoice: toModelToolChoice(params.toolChoice),
      }),
      maxOutputTokens: params.maxTokens,
      ...(params.temperature !== undefined && { temperature: params.temperature }),
      ...(params.stopSequences && { stopSequences: params.stopSequences }),
      abortSignal: signal,
      maxRetries: 1,
    }).catch((error) => {
      // The answer goes to the tool server: never with the key a vendor quoted back.
      if (error instanceof Error) error.message = scrubSecrets(error.message, secrets);
      throw error;
    });
    const stopReason = result.finishReason === "length" ? "maxTokens" : "endTurn";
    if (!params.tools || result.toolCalls.length === 0) {
      return {
        role: "assistant",
        content: { type: "text", text: result.text },
        model: profile.model,
        stopReason,
      };
    }
    const calls = result.toolCalls.map((call) => ({
      type: "tool_use" as const,
      id: call.toolCallId,
      name: call.toolName,
      input: inputObject(call.input),
    }));
    return {
      role: "assistant",
      content: [...(result.text ? [{ type: "text" as const, text: result.text }] : []), ...calls],
      model: profile.model,
      stopReason: "toolUse",
    };
  };
}
