/**
 * What a turn that failed or was aborted had streamed, as model messages for its session: the
 * reasoning, the text and the tool calls of each step, with their results. A call that never got
 * its result gets an error result (`UNFINISHED_CALL`), so the messages stay a valid history.
 */
import { type ModelMessage, modelMessageSchema } from "ai";
import { type ChatChunk, UNFINISHED_CALL } from "../../wire/chat.ts";

interface Step {
  content: ({ type: "text" | "reasoning"; text: string } | {
    type: "tool-call";
    toolCallId: string;
    toolName: string;
    input: unknown;
  })[];
  results: Map<string, { output: unknown; isError: boolean }>;
}

/** JSON-safe copy of a value (`null` when it has none). */
function jsonValue(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value) ?? "null");
  } catch {
    return null;
  }
}

/** A tool result output as the model reads it. */
function outputOf(result: { output: unknown; isError: boolean } | undefined) {
  if (!result) return { type: "error-text", value: UNFINISHED_CALL };
  if (typeof result.output === "string") {
    return { type: result.isError ? "error-text" : "text", value: result.output };
  }
  return { type: result.isError ? "error-json" : "json", value: jsonValue(result.output) };
}

/** Collects the chunks of one turn into the messages they stand for. */
export class PartialTurn {
  readonly #steps: Step[] = [{ content: [], results: new Map() }];

  /** Takes note of a chunk; progress and the others are left out. */
  add(chunk: ChatChunk): void {
    const step = this.#steps.at(-1)!;
    switch (chunk.type) {
      case "text":
      case "reasoning": {
        const last = step.content.at(-1);
        if (last?.type === chunk.type) last.text += chunk.text;
        else step.content.push({ type: chunk.type, text: chunk.text });
        break;
      }
      case "tool-call":
        step.content.push({
          type: "tool-call",
          toolCallId: chunk.id,
          toolName: chunk.name,
          input: jsonValue(chunk.input) ?? {},
        });
        break;
      case "tool-result":
        step.results.set(chunk.id, { output: chunk.output, isError: chunk.isError });
        break;
      case "step":
        this.#steps.push({ content: [], results: new Map() });
        break;
    }
  }

  /** The messages so far; a message the model-message schema rejects is left out. */
  messages(): ModelMessage[] {
    const messages: unknown[] = [];
    for (const step of this.#steps) {
      if (step.content.length === 0) continue;
      messages.push({ role: "assistant", content: step.content });
      const calls = step.content.filter((part) => part.type === "tool-call");
      if (calls.length === 0) continue;
      messages.push({
        role: "tool",
        content: calls.map((call) => ({
          type: "tool-result",
          toolCallId: call.toolCallId,
          toolName: call.toolName,
          output: outputOf(step.results.get(call.toolCallId)),
        })),
      });
    }
    const valid = messages.every((message) => modelMessageSchema.safeParse(message).success);
    // Never a tool call without its result: when anything is off, only the text is kept.
    if (valid) return messages as ModelMessage[];
    const text = this.#steps.flatMap((step) => step.content)
      .map((part) => part.type === "text" ? part.text : "").join("");
    return text === "" ? [] : [{ role: "assistant", content: text }];
  }
}
