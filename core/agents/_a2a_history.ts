/** What an A2A turn takes from the chat history: the text to send and the conversation to continue. */
import type { ModelMessage, UserContent } from "ai";
import type { A2aOutcome } from "./_a2a_reply.ts";

/** What an assistant message keeps in `providerOptions.a2a`, so the next turn continues the conversation. */
export interface A2aExchange {
  agentId: string;
  contextId: string;
  taskId: string;
  state: A2aOutcome;
}

/** The next message to the agent. */
export interface A2aOutgoing {
  text: string;
  /** The context of this agent's latest reply in the history, if any. */
  contextId?: string;
  /** The task to resume: that reply's task, when it asked for input or authorization. */
  taskId?: string;
}

/**
 * The latest user message, and the context of the latest earlier reply of the same agent. Only
 * the new message goes: the agent keeps its own history of the context.
 */
export function outgoingMessage(messages: ModelMessage[], agentId: string): A2aOutgoing {
  const last = messages.findLastIndex((message) => message.role === "user");
  if (last < 0) throw new Error("there is no user message to send to the agent");
  const text = contentText(messages[last].content as UserContent);
  for (let i = last - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== "assistant") continue;
    const a2a = message.providerOptions?.a2a as Partial<A2aExchange> | undefined;
    if (typeof a2a?.contextId !== "string" || !a2a.contextId) continue;
    if (a2a.agentId !== undefined && a2a.agentId !== agentId) continue;
    const interrupted = a2a.state === "input-required" || a2a.state === "auth-required";
    const taskId = interrupted && typeof a2a.taskId === "string" ? a2a.taskId : undefined;
    return { text, contextId: a2a.contextId, taskId };
  }
  return { text };
}

/** A user message as text: its text parts, with images and files named (they are not sent). */
function contentText(content: UserContent): string {
  if (typeof content === "string") return content;
  return content.map((part) => {
    if (part.type === "text") return part.text;
    if (part.type === "image") return `[image${part.mediaType ? ` (${part.mediaType})` : ""}]`;
    return `[file${part.filename ? ` ${part.filename}` : ""} (${part.mediaType})]`;
  }).join("\n");
}
