/** The chunks of `POST /api/chat`: defined in `wire/chat.ts`, which the web UI shares. */
import type { ChatChunk } from "../../wire/chat.ts";
import type { ToolOrigin } from "./types.ts";

/** The `tool-call` chunk of a call of `name`; without an origin, `source` is `fallbackSource`. */
export function toolCallChunk(
  id: string,
  name: string,
  input: unknown,
  origin: ToolOrigin | undefined,
  fallbackSource: string,
): Extract<ChatChunk, { type: "tool-call" }> {
  return {
    type: "tool-call",
    id,
    name,
    tool: origin?.tool ?? name,
    source: origin?.source ?? fallbackSource,
    input,
  };
}
