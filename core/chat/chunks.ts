/** The chunks of `POST /api/chat`: defined in `wire/chat.ts`, which the web UI shares. */
export type { ChatChunk, ChatUsage, ToolSource, ToolUi } from "../../wire/chat.ts";
