/** The Retry button of a failed turn: sends its message again, the focus stays in the chat. */
import { useContext } from "preact/hooks";
import { ChatContext } from "./context.ts";
import type { Turn } from "./model.ts";

/** Retry for a failed turn of the open chat (nothing outside a chat page). */
export function RetryButton({ turn }: { turn: Turn }) {
  const chat = useContext(ChatContext);
  if (!chat) return null;
  return (
    <button
      type="button"
      class="retry"
      disabled={chat.running.value !== null}
      title="Send this message again"
      onClick={() => {
        // The failed turn and this button go; the message box keeps the focus in the chat.
        document.getElementById("composer")?.focus();
        void chat.retry(turn, chat.workspaceId.peek());
      }}
    >
      Retry
    </button>
  );
}
