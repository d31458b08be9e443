/** How a View continues the chat: a user turn (`ui/message`, `prompt`) or context for the model. */
import type { Chat } from "../chat/controller.ts";
import { bootstrap } from "../state.ts";
import type { ContentBlock } from "./mcp_types.ts";

/** The text of content blocks (text blocks only), joined by new lines. */
export function textOf(content: ContentBlock[] | ContentBlock | undefined): string {
  const blocks = Array.isArray(content) ? content : content ? [content] : [];
  return blocks.flatMap((block) => block.type === "text" ? [block.text] : []).join("\n").trim();
}

/**
 * Sends `text` as the person's next message. A turn still streaming (the one that showed the View)
 * finishes first; the message then goes out in the chat's workspace.
 */
export function sendUserTurn(chat: Chat, text: string): void {
  const send = () => {
    const workspaceId = chat.workspaceId.peek() || bootstrap.peek()?.config.activeWorkspaceId ||
      "";
    void chat.send(text, workspaceId);
  };
  if (chat.running.peek() === null) return send();
  let done = false;
  // Subscribing calls back at once, while the turn still runs: `stop` is set before it is used.
  const stop = chat.running.subscribe((turn) => {
    if (turn !== null || done) return;
    done = true;
    queueMicrotask(() => stop());
    send();
  });
}

/**
 * Keeps a View's context for the model (`ui/update-model-context`): it goes with the next user
 * message, replacing what the same View said before; empty text removes it.
 */
export function setModelContext(chat: Chat, from: string, text: string): void {
  const { [from]: _previous, ...others } = chat.modelContext.peek();
  chat.modelContext.value = text === "" ? others : { ...others, [from]: text };
}
