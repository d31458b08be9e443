/** What an A2A turn takes from the chat history: the parts to send and the conversation to continue. */
import type { ModelMessage, UserContent } from "ai";
import type { A2aOutcome } from "./_a2a_reply.ts";

/** What an assistant message keeps in `providerOptions.a2a`, so the next turn continues the conversation. */
export interface A2aExchange {
  agentId: string;
  contextId: string;
  taskId: string;
  state: A2aOutcome;
}

/** One part of a message to the agent: text, or a file as bytes or as a URL. */
export type OutgoingPart =
  | { kind: "text"; text: string }
  | { kind: "bytes"; data: Uint8Array; mediaType: string; filename?: string }
  | { kind: "url"; url: string; mediaType: string; filename?: string };

/** The next message to the agent. */
export interface A2aOutgoing {
  parts: OutgoingPart[];
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
  const parts = contentParts(messages[last].content as UserContent);
  for (let i = last - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== "assistant") continue;
    const a2a = message.providerOptions?.a2a as Partial<A2aExchange> | undefined;
    if (typeof a2a?.contextId !== "string" || !a2a.contextId) continue;
    if (a2a.agentId !== undefined && a2a.agentId !== agentId) continue;
    const interrupted = a2a.state === "input-required" || a2a.state === "auth-required";
    const taskId = interrupted && typeof a2a.taskId === "string" ? a2a.taskId : undefined;
    return { parts, contextId: a2a.contextId, taskId };
  }
  return { parts };
}

type UserPart = Exclude<UserContent, string>[number];

/** A user message as parts: text as text, images and files as file parts (bytes or a URL). */
function contentParts(content: UserContent): OutgoingPart[] {
  if (typeof content === "string") return [{ kind: "text", text: content }];
  return content.map((part): OutgoingPart =>
    part.type === "text" ? { kind: "text", text: part.text } : filePart(part)
  );
}

/**
 * An image or file part: `http(s)` URLs stay URLs; inline data (bytes, base64 or a `data:` URL)
 * goes as bytes. Anything else (a provider's file reference) is named in a text part.
 */
function filePart(part: Exclude<UserPart, { type: "text" }>): OutgoingPart {
  const mediaType = part.mediaType ??
    (part.type === "image" ? "image/*" : "application/octet-stream");
  const filename = part.type === "file" && part.filename ? { filename: part.filename } : {};
  const raw: unknown = part.type === "image" ? part.image : part.data;
  const wrapped = raw as { type?: unknown; data?: unknown; url?: unknown; text?: unknown };
  const value = wrapped?.type === "data"
    ? wrapped.data
    : wrapped?.type === "url"
    ? String(wrapped.url)
    : wrapped?.type === "text" && typeof wrapped.text === "string"
    ? new TextEncoder().encode(wrapped.text)
    : raw;
  const url = value instanceof URL ? value.href : value;
  if (typeof url === "string" && /^https?:\/\//i.test(url)) {
    return { kind: "url", url, mediaType, ...filename };
  }
  const data = bytesOf(url);
  if (data) return { kind: "bytes", data, mediaType, ...filename };
  const name = part.type === "file" && part.filename ? ` ${part.filename}` : "";
  return { kind: "text", text: `[${part.type}${name} (${mediaType}) not sent]` };
}

/** Bytes from inline data: a `Uint8Array`, an `ArrayBuffer`, base64 or a base64 `data:` URL. */
function bytesOf(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value !== "string") return undefined;
  const base64 = value.startsWith("data:") ? /^data:[^,]*;base64,(.*)$/s.exec(value)?.[1] : value;
  if (base64 === undefined) return undefined;
  try {
    return Uint8Array.from(atob(base64.replace(/\s+/g, "")), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}
