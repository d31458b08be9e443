/** Chat history between the AI SDK's model messages and AG-UI messages, both ways. */
import type { ContentPart, Message, ToolCall } from "@ag-ui/client";
import type { AssistantContent, ModelMessage, ToolResultPart, UserContent } from "ai";

/** The provider-options key under which a returned message remembers its AG-UI thread. */
const KEY = "agui";

type AssistantPart = Exclude<AssistantContent, string>[number];
type UserPart = Exclude<UserContent, string>[number];
type ToolResultOutput = ToolResultPart["output"];

/** The AG-UI thread a conversation already belongs to, if an earlier turn recorded one. */
export function threadIdOf(messages: ModelMessage[]): string | undefined {
  for (const message of messages) {
    const threadId = message.providerOptions?.[KEY]?.threadId;
    if (typeof threadId === "string" && threadId !== "") return threadId;
  }
  return undefined;
}

/** Tool output as the text an agent reads, and the error text when it failed. */
export function outputText(output: ToolResultOutput): { content: string; error?: string } {
  switch (output.type) {
    case "text":
      return { content: output.value };
    case "json":
      return { content: JSON.stringify(output.value) };
    case "error-text":
      return { content: output.value, error: output.value };
    case "error-json":
      return { content: JSON.stringify(output.value), error: JSON.stringify(output.value) };
    case "execution-denied": {
      const text = `the call was denied${output.reason ? `: ${output.reason}` : ""}`;
      return { content: text, error: text };
    }
    case "content":
      return {
        content: output.value.map((part) =>
          part.type === "text"
            ? part.text
            : `[${part.type} ${"mediaType" in part ? part.mediaType : ""}]`
        ).join("\n"),
      };
    default:
      return { content: JSON.stringify(output) };
  }
}

/** Base64 of inline data; `undefined` for anything else. */
function base64(data: unknown): string | undefined {
  if (typeof data === "string") return data;
  const bytes = data instanceof Uint8Array
    ? data
    : data instanceof ArrayBuffer
    ? new Uint8Array(data)
    : undefined;
  if (!bytes) return undefined;
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A user's image or file part as an AG-UI media part, or a text placeholder. */
function mediaPart(part: Exclude<UserPart, { type: "text" }>): ContentPart {
  const mimeType = part.mediaType ?? "application/octet-stream";
  const raw: unknown = part.type === "image" ? part.image : part.data;
  const wrapped = raw as { type?: unknown; data?: unknown; url?: unknown } | undefined;
  const data = wrapped?.type === "data" ? wrapped.data : raw;
  const url = raw instanceof URL
    ? raw.href
    : typeof raw === "string" && /^https?:\/\//.test(raw)
    ? raw
    : wrapped?.type === "url"
    ? String(wrapped.url)
    : undefined;
  const inline = url === undefined ? base64(data) : undefined;
  if (url === undefined && inline === undefined) {
    return { type: "text", text: `[${mimeType} attachment not sent]` };
  }
  const source = url !== undefined
    ? { type: "url" as const, value: url, mimeType }
    : { type: "data" as const, value: inline!, mimeType };
  const kind = mimeType.startsWith("image/")
    ? "image"
    : mimeType.startsWith("audio/")
    ? "audio"
    : mimeType.startsWith("video/")
    ? "video"
    : "document";
  return { type: kind, source };
}

/**
 * The history as AG-UI messages: text, multimodal user content, assistant tool calls (arguments
 * as JSON) and one tool message per result. Reasoning stays out. Ids are positional, so they
 * stay the same from one run of a conversation to the next.
 */
export function toAguiMessages(messages: ModelMessage[]): Message[] {
  return messages.flatMap((message, index): Message[] => {
    const id = `lass-${index}`;
    switch (message.role) {
      case "system":
        return [{ id, role: "system", content: message.content }];
      case "user": {
        if (typeof message.content === "string") {
          return [{ id, role: "user", content: message.content }];
        }
        const parts = message.content.map((part): ContentPart =>
          part.type === "text" ? { type: "text", text: part.text } : mediaPart(part)
        );
        const content = parts.every((part) => part.type === "text")
          ? parts.map((part) => (part as { text: string }).text).join("\n")
          : parts;
        return [{ id, role: "user", content }];
      }
      case "assistant": {
        if (typeof message.content === "string") {
          return [{ id, role: "assistant", content: message.content }];
        }
        const text = message.content.flatMap((part) => part.type === "text" ? [part.text] : []);
        const toolCalls = message.content.flatMap((part): ToolCall[] =>
          part.type === "tool-call"
            ? [{
              id: part.toolCallId,
              type: "function",
              function: { name: part.toolName, arguments: JSON.stringify(part.input ?? {}) },
            }]
            : []
        );
        return [{
          id,
          role: "assistant",
          ...(text.length > 0 && { content: text.join("") }),
          ...(toolCalls.length > 0 && { toolCalls }),
        }];
      }
      case "tool":
        return message.content.flatMap((part, at): Message[] =>
          part.type === "tool-result"
            ? [{
              id: `${id}-${at}`,
              role: "tool",
              toolCallId: part.toolCallId,
              ...outputText(part.output),
            }]
            : []
        );
      default:
        return [];
    }
  });
}

/**
 * The model messages of one turn, built as the agent streams: reasoning, text and tool calls go
 * into an assistant message, tool results into the tool message after it. Each message records
 * the thread, so the next turn continues it.
 */
export class TurnMessages {
  readonly messages: ModelMessage[] = [];
  readonly #options;

  constructor(threadId: string) {
    this.#options = { [KEY]: { threadId } };
  }

  /** The content of the last message when it is the assistant's, else of a new one. */
  #assistant(): AssistantPart[] {
    const last = this.messages.at(-1);
    if (last?.role === "assistant" && Array.isArray(last.content)) return last.content;
    const content: AssistantPart[] = [];
    this.messages.push({ role: "assistant", content, providerOptions: this.#options });
    return content;
  }

  #append(type: "text" | "reasoning", text: string) {
    const content = this.#assistant();
    const last = content.at(-1);
    if (last?.type === type) last.text += text;
    else content.push({ type, text });
  }

  text(delta: string) {
    this.#append("text", delta);
  }

  reasoning(delta: string) {
    this.#append("reasoning", delta);
  }

  toolCall(toolCallId: string, toolName: string, input: unknown) {
    this.#assistant().push({ type: "tool-call", toolCallId, toolName, input });
  }

  /**
   * Records the agent's state on the turn's last message (a new assistant message when the turn
   * has none), so the next turn sends it back (see `stateOf`).
   */
  keepState(state: unknown) {
    if (this.messages.length === 0) this.#assistant();
    const last = this.messages.at(-1)!;
    last.providerOptions = { [KEY]: { ...this.#options[KEY], state: state as never } };
  }

  toolResult(toolCallId: string, toolName: string, output: ToolResultOutput) {
    const last = this.messages.at(-1);
    const part = { type: "tool-result" as const, toolCallId, toolName, output };
    if (last?.role === "tool") last.content.push(part);
    else this.messages.push({ role: "tool", content: [part], providerOptions: this.#options });
  }
}
