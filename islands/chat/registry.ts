/**
 * The chats opened in this tab, by session id: a chat that is still answering is opened again as
 * it is (its streaming turn, its waiting requests), and the sidebar can name the chat of a request.
 */
import type { Chat } from "./controller.ts";

const chats = new Map<string, Chat>();

/** Keeps `chat`; chats that are no longer answering are forgotten (the server has them). */
export function rememberChat(chat: Chat): void {
  for (const [id, known] of chats) {
    if (known !== chat && known.running.peek() === null) chats.delete(id);
  }
  chats.set(chat.id, chat);
}

/** The chat with this session id if it is still answering in this tab. */
export function runningChat(id: string): Chat | undefined {
  const chat = chats.get(id);
  return chat?.running.peek() ? chat : undefined;
}

/** The chat of this tab that a run belongs to. */
export function chatOfRun(runId: string): Chat | undefined {
  for (const chat of chats.values()) {
    if (chat.turns.value.some((turn) => turn.runId.value === runId)) return chat;
  }
  return undefined;
}
