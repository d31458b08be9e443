/**
 * Answers tool servers' sampling requests with a model: the one of the chat whose tool call asked,
 * else the active workspace's, else the first profile.
 */
import type { EnvLookup } from "../config/env_refs.ts";
import type { LlmProfile, ServiceConfig } from "../config/schema.ts";
import type { ConfigStore } from "../config/store.ts";
import type { SamplingParams } from "./client.ts";
import type { Sampler } from "./manager.ts";

/** The profile that answers sampling: the active workspace's model, else the first profile. */
export function samplingProfile(config: ServiceConfig): LlmProfile | undefined {
  const workspace = config.workspaces.find((w) => w.id === config.activeWorkspaceId) ??
    config.workspaces[0];
  return config.llms.find((llm) => llm.id === workspace?.llmId) ?? config.llms[0];
}

type ContentPart = { type: "text"; text: string } | {
  type: "image";
  image: string;
  mediaType?: string;
};

/** An MCP sampling message's content as AI SDK parts (text and images; anything else is named). */
function partsOf(content: unknown): ContentPart[] {
  const items = Array.isArray(content) ? content : [content];
  return items.map((item): ContentPart => {
    const part = item as { type?: string; text?: string; data?: string; mimeType?: string };
    if (part.type === "text") return { type: "text", text: part.text ?? "" };
    if (part.type === "image" && part.data) {
      return { type: "image", image: part.data, mediaType: part.mimeType };
    }
    return { type: "text", text: `[${part.type ?? "unknown"} content left out]` };
  });
}

function toModelMessages(messages: SamplingParams["messages"]) {
  return messages.map((message) => {
    const parts = partsOf(message.content);
    if (message.role === "assistant") {
      return {
        role: "assistant" as const,
        content: parts.map((p) => p.type === "text" ? p.text : "[image]").join("\n"),
      };
    }
    return { role: "user" as const, content: parts };
  });
}

/** A sampler that completes requests with the config's model; the AI SDK loads on first use. */
export function createSampler(config: ConfigStore, env: EnvLookup): Sampler {
  return async (params, { signal, llmId }) => {
    const current = config.config;
    const profile = current.llms.find((llm) => llm.id === llmId) ?? samplingProfile(current);
    if (!profile) throw new Error("no model profile is configured to answer sampling requests");
    const [{ generateText }, { resolveModel }] = await Promise.all([
      import("ai"),
      import("../llm/providers.ts"),
    ]);
    const { model, settings } = resolveModel(profile, env);
    const result = await generateText({
      ...settings,
      model,
      ...(params.systemPrompt && { instructions: params.systemPrompt }),
      messages: toModelMessages(params.messages),
      maxOutputTokens: params.maxTokens,
      ...(params.temperature !== undefined && { temperature: params.temperature }),
      ...(params.stopSequences && { stopSequences: params.stopSequences }),
      abortSignal: signal,
      maxRetries: 1,
    });
    return {
      role: "assistant",
      content: { type: "text", text: result.text },
      model: profile.model,
      stopReason: result.finishReason === "length" ? "maxTokens" : "endTurn",
    };
  };
}
