/**
 * Converts between MCP sampling (messages with text, images, `tool_use` and `tool_result`) and the
 * AI SDK (model messages, tools without `execute`, tool calls).
 */
import {
  jsonSchema,
  type JSONValue,
  type ModelMessage,
  tool,
  type ToolResultPart,
  type ToolSet,
} from "ai";
import type {
  CreateMessageRequestParams,
  SamplingMessage,
  SamplingMessageContentBlock,
  ToolResultContent,
} from "@modelcontextprotocol/client";

type UserPart = { type: "text"; text: string } | {
  type: "image";
  image: string;
  mediaType?: string;
};
type AssistantPart = { type: "text"; text: string } | {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
};

/** The blocks of a message's content (one block or a list). */
function blocksOf(content: SamplingMessage["content"]): SamplingMessageContentBlock[] {
  return Array.isArray(content) ? content : [content];
}

/** Text for a block the model cannot be given. */
function leftOut(block: { type?: string }): { type: "text"; text: string } {
  return { type: "text", text: `[${block.type ?? "unknown"} content left out]` };
}

/** A user block as a model part: text and images; anything else is named. */
function userPart(block: SamplingMessageContentBlock): UserPart {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.type === "image" && block.data) {
    return { type: "image", image: block.data, mediaType: block.mimeType };
  }
  return leftOut(block);
}

/** An assistant block as a model part: text and tool calls; anything else is named. */
function assistantPart(block: SamplingMessageContentBlock): AssistantPart {
  if (block.type === "text") return { type: "text", text: block.text };
  if (block.type === "tool_use") {
    return { type: "tool-call", toolCallId: block.id, toolName: block.name, input: block.input };
  }
  return { type: "text", text: block.type === "image" ? "[image]" : leftOut(block).text };
}

/**
 * What the model reads of a tool result: an error's text, the structured content as JSON, the
 * text, or text and images together.
 */
export function toolResultOutput(block: ToolResultContent): ToolResultPart["output"] {
  const items = block.content ?? [];
  const text = items.map((item) => item.type === "text" ? item.text : leftOut(item).text)
    .join("\n");
  if (block.isError) {
    const detail = text ||
      (block.structuredContent ? JSON.stringify(block.structuredContent) : "");
    return { type: "error-text", value: detail || "the tool reported an error" };
  }
  if (block.structuredContent !== undefined) {
    return { type: "json", value: block.structuredContent as JSONValue };
  }
  if (!items.some((item) => item.type === "image")) return { type: "text", value: text };
  return {
    type: "content",
    value: items.map((item) =>
      item.type === "image"
        ? { type: "file", data: { type: "data", data: item.data }, mediaType: item.mimeType }
        : item.type === "text"
        ? { type: "text", text: item.text }
        : leftOut(item)
    ),
  };
}

/**
 * Sampling messages as AI SDK model messages. An assistant's `tool_use` blocks become tool calls;
 * a user message's `tool_result` blocks become a tool message (named after the matching call),
 * followed by a user message with the rest of its blocks, if any.
 */
export function toModelMessages(messages: SamplingMessage[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  return messages.flatMap((message): ModelMessage[] => {
    const blocks = blocksOf(message.content);
    if (message.role === "assistant") {
      for (const block of blocks) {
        if (block.type === "tool_use") toolNames.set(block.id, block.name);
      }
      return [{ role: "assistant", content: blocks.map(assistantPart) }];
    }
    const results = blocks.filter((block) => block.type === "tool_result");
    const rest = blocks.filter((block) => block.type !== "tool_result");
    const out: ModelMessage[] = [];
    if (results.length > 0) {
      out.push({
        role: "tool",
        content: results.map((block) => ({
          type: "tool-result",
          toolCallId: block.toolUseId,
          toolName: toolNames.get(block.toolUseId) ?? "unknown",
          output: toolResultOutput(block),
        })),
      });
    }
    if (rest.length > 0 || results.length === 0) {
      out.push({ role: "user", content: rest.map(userPart) });
    }
    return out;
  });
}

/** The request's tools as AI SDK tools without `execute`: the server runs them. */
export function toModelTools(tools: NonNullable<CreateMessageRequestParams["tools"]>): ToolSet {
  return Object.fromEntries(tools.map((t) => [
    t.name,
    tool({
      ...(t.description && { description: t.description }),
      inputSchema: jsonSchema(t.inputSchema as Parameters<typeof jsonSchema>[0]),
    }),
  ]));
}

/** The request's tool choice as the AI SDK's (`auto` when none is given). */
export function toModelToolChoice(
  choice: CreateMessageRequestParams["toolChoice"],
): "auto" | "required" | "none" {
  return choice?.mode ?? "auto";
}
