/** The props every generative-UI renderer takes, shared by the renderers and their loader. */
import type { Chat } from "../chat/controller.ts";
import type { ToolCallView, ToolResultView } from "../chat/model.ts";
import type { ToolUi } from "../../wire/chat.ts";

/** What every renderer gets. */
export interface ToolUiProps {
  /** The result's UI (whole: a stored session keeps it; see `core/chat/tool_details.ts`). */
  ui: ToolUi;
  call: ToolCallView;
  result: ToolResultView;
  /** The run that made the call, when known. */
  runId?: string;
  /** The open chat (to continue it with a user turn), `null` outside a chat page. */
  chat: Chat | null;
}
