/**
 * The details of a turn's tool calls that the messages cannot hold (source, duration, UI, raw
 * result, ending, the MCP task it ran as), collected from its chunks for the session's
 * `meta.toolCalls`.
 */
import type { ChatChunk, StoredToolCall } from "../../wire/chat.ts";

/** Raw results up to this many characters of JSON are kept. */
export const RAW_KEPT_CHARS = 16_000;
/** UI up to this many characters of JSON is kept whole (else only its kind). */
export const UI_KEPT_CHARS = 256_000;

function fits(value: unknown, limit: number): boolean {
  try {
    return (JSON.stringify(value)?.length ?? 0) <= limit;
  } catch {
    return false;
  }
}

/** Collects tool-call details from the chunks of one turn. */
export class ToolCallDetails {
  readonly #calls = new Map<string, StoredToolCall>();

  /** Takes note of a chunk; chunks other than tool calls, their tasks and results are ignored. */
  add(chunk: ChatChunk): void {
    if (chunk.type === "tool-call") {
      this.#calls.set(chunk.id, { source: chunk.source, tool: chunk.tool });
    } else if (chunk.type === "tool-progress") {
      const call = this.#calls.get(chunk.id);
      if (call && chunk.task) call.task = { taskId: chunk.task.taskId, status: chunk.task.status };
    } else if (chunk.type === "tool-result") {
      const call = this.#calls.get(chunk.id);
      if (!call) return;
      call.durationMs = chunk.durationMs;
      if (chunk.ui) call.ui = fits(chunk.ui, UI_KEPT_CHARS) ? chunk.ui : { kind: chunk.ui.kind };
      if (chunk.raw !== undefined && fits(chunk.raw, RAW_KEPT_CHARS)) call.raw = chunk.raw;
      if (chunk.ending) call.ending = chunk.ending;
    }
  }

  /** The details by tool-call id. */
  toRecord(): Record<string, StoredToolCall> {
    return Object.fromEntries(this.#calls);
  }
}
