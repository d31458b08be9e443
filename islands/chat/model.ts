/**
 * What the chat page shows: turns (a user message and what answered it) made of parts (text,
 * reasoning, tool calls). Built from streamed chunks as they arrive, or from stored model
 * messages when a session is opened; both give the same view.
 */
import { type Signal, signal } from "@preact/signals";
import type { ChatUsage, Priced } from "../../wire/usage.ts";
import type {
  ChatChunk,
  CompareColumnSummary,
  StoredToolCall,
  ToolCallEnding,
  ToolUi,
} from "../../wire/chat.ts";
import { UNFINISHED_CALL } from "../../wire/chat.ts";
import type { TaskStatus as ToolTaskStatus } from "../../wire/tool_tasks.ts";
import type { ModelMessage, ToolResultOutput } from "../../wire/messages.ts";
import type { StoredTurnUsage, TurnEnding } from "../../wire/sessions.ts";

/** A tool call's result as the card shows it. */
export interface ToolResultView {
  output: unknown;
  isError: boolean;
  durationMs?: number;
  ui?: ToolUi | { kind: ToolUi["kind"] };
  raw?: unknown;
  /** The call did not run to its end: the user cancelled it, or did not approve it. */
  ending?: ToolCallEnding;
}

/** How a running call is getting on, from its `tool-progress` chunks (the latest of each field). */
export interface ToolProgressView {
  progress?: number;
  total?: number;
  message?: string;
  task?: { taskId: string; status: ToolTaskStatus };
}

/** One tool call and, once it is there, its result. */
export interface ToolCallView {
  id: string;
  /** The model's name, `<serverId>__<tool>`. */
  name: string;
  tool: string;
  source: string;
  input: unknown;
  result: Signal<ToolResultView | undefined>;
  /** Progress and task status while it runs (streamed calls only). */
  progress?: Signal<ToolProgressView | undefined>;
  /** When its `tool-call` chunk arrived (epoch ms; streamed calls only), for the elapsed time. */
  startedAt?: number;
}

/** A piece of an answer, in the order it arrived. */
export type Part =
  | { kind: "text"; text: Signal<string> }
  | { kind: "reasoning"; text: Signal<string> }
  | { kind: "tool"; call: ToolCallView };

/** How a turn ended (or that it is still streaming). */
export type TurnStatus = "streaming" | "done" | "stopped" | "error";

/** A user message and the answer to it. */
export interface Turn {
  key: string;
  user: string;
  runId: Signal<string | undefined>;
  model: Signal<string | undefined>;
  parts: Signal<Part[]>;
  status: Signal<TurnStatus>;
  error: Signal<string | undefined>;
  usage: Signal<ChatUsage | undefined>;
  /** What the answer cost (the `finish` chunk's `cost` and `costUnknown`). */
  cost: Signal<Priced | undefined>;
  durationMs: Signal<number | undefined>;
  /** Set on a compare turn: its columns (see `compare_model.ts`). */
  compare?: CompareView;
  /** The index of its user message among the session's user messages, once the session has it. */
  sessionIndex?: number;
}

/** The columns of a compare turn. */
export interface CompareView {
  labels: string[];
  /** One answer per column (their `user` is empty). */
  columns: Turn[];
  /** The columns' answers as messages, once they are known (what a pick continues with). */
  messages: Signal<(ModelMessage[] | undefined)[]>;
  summary: Signal<CompareColumnSummary[] | undefined>;
  /** The column the conversation goes on with. */
  picked: Signal<number | undefined>;
  /** The index of the turn's user message in its session. */
  messageIndex: Signal<number | undefined>;
}

let keys = 0;

/** A new turn for a user message. */
export function newTurn(user: string, status: TurnStatus = "streaming"): Turn {
  return {
    key: `t${++keys}`,
    user,
    runId: signal(undefined),
    model: signal(undefined),
    parts: signal([]),
    status: signal(status),
    error: signal(undefined),
    usage: signal(undefined),
    cost: signal(undefined),
    durationMs: signal(undefined),
  };
}

/** Splits a model tool name `<serverId>__<tool>` (server ids have no `__`). */
function splitToolName(name: string): { source: string; tool: string } {
  const at = name.indexOf("__");
  return at > 0 ? { source: name.slice(0, at), tool: name.slice(at + 2) } : {
    source: "",
    tool: name,
  };
}

/**
 * Applies streamed chunks to a turn. Text and reasoning deltas that arrive together are joined
 * first, so one batch of chunks costs one update per part.
 */
export function applyChunks(turn: Turn, chunks: ChatChunk[]): void {
  let parts = turn.parts.value;
  let changed = false;
  const pendingText = new Map<Signal<string>, string>();
  const append = (kind: "text" | "reasoning", text: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) {
      pendingText.set(last.text, (pendingText.get(last.text) ?? "") + text);
      return;
    }
    const part = { kind, text: signal(text) };
    parts = [...parts, part];
    changed = true;
  };
  for (const chunk of chunks) {
    switch (chunk.type) {
      case "start":
        turn.runId.value = chunk.runId;
        turn.model.value = chunk.model;
        break;
      case "text":
      case "reasoning":
        append(chunk.type, chunk.text);
        break;
      case "tool-call":
        parts = [...parts, {
          kind: "tool",
          call: {
            id: chunk.id,
            name: chunk.name,
            tool: chunk.tool,
            source: chunk.source,
            input: chunk.input,
            result: signal(undefined),
            progress: signal(undefined),
            startedAt: Date.now(),
          },
        }];
        changed = true;
        break;
      case "tool-progress": {
        const call = parts.find((part) => part.kind === "tool" && part.call.id === chunk.id);
        if (call?.kind === "tool" && call.call.progress) {
          const { type: _, id: __, ...update } = chunk;
          call.call.progress.value = { ...call.call.progress.peek(), ...update };
        }
        break;
      }
      case "tool-result": {
        const call = parts.find((part) => part.kind === "tool" && part.call.id === chunk.id);
        if (call?.kind === "tool") {
          call.call.result.value = {
            output: chunk.output,
            isError: chunk.isError,
            durationMs: chunk.durationMs,
            ui: chunk.ui,
            raw: chunk.raw,
            ...(chunk.ending && { ending: chunk.ending }),
          };
        }
        break;
      }
      case "finish":
        turn.usage.value = chunk.usage;
        turn.cost.value = {
          cost: chunk.cost,
          ...(chunk.costUnknown !== undefined && { costUnknown: chunk.costUnknown }),
        };
        turn.durationMs.value = chunk.durationMs;
        turn.status.value = "done";
        break;
      case "error":
        turn.error.value = chunk.message;
        turn.status.value = "error";
        break;
    }
  }
  for (const [text, added] of pendingText) text.value += added;
  if (changed) turn.parts.value = parts;
}

/** The text of a user message's content (without the UI's `<context>` parts). */
export function userText(content: ModelMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => {
    const text = part.type === "text" ? String(part.text ?? "") : "";
    return text.startsWith("<context from=") ? "" : text;
  }).join("");
}

/** A tool result output as the model saw it, and whether it was an error. */
function resultOf(output: ToolResultOutput | undefined): { output: unknown; isError: boolean } {
  switch (output?.type) {
    case "text":
    case "json":
      return { output: output.value, isError: false };
    case "error-text":
    case "error-json":
      return { output: output.value, isError: true };
    case "execution-denied":
      return { output: output.reason ?? "denied by the user", isError: true };
    case "content":
      return { output: output.value, isError: false };
    default:
      return { output, isError: false };
  }
}

/**
 * The stored messages a later turn sends to the model: those of turns that failed or were stopped
 * (a user message with an ending, up to the next user message) are left out.
 */
export function historyToSend(
  messages: ModelMessage[],
  endings: Record<string, unknown> = {},
): ModelMessage[] {
  let skipping = false;
  return messages.filter((message, index) => {
    if (message.role === "user") skipping = endings[index] !== undefined;
    return !skipping;
  });
}

/** What a session's `meta` holds about its turns, by tool-call id or user-message index. */
export interface StoredTurnDetails {
  toolCalls?: Record<string, StoredToolCall>;
  endings?: Record<string, TurnEnding>;
  usage?: Record<string, StoredTurnUsage>;
}

/** Sets a stored turn's run, model, time, tokens and cost. */
function restoreUsage(turn: Turn, stored: StoredTurnUsage | undefined): void {
  if (!stored) return;
  turn.runId.value = stored.runId;
  turn.model.value = stored.model;
  turn.durationMs.value = stored.durationMs;
  turn.usage.value = stored.usage;
  turn.cost.value = {
    cost: stored.cost,
    ...(stored.costUnknown !== undefined && { costUnknown: stored.costUnknown }),
  };
}

/** Whether a stored result is the one a call gets when its turn ended before it finished. */
function isUnfinished(output: ToolResultOutput | undefined): boolean {
  return output?.type === "error-text" && output.value === UNFINISHED_CALL;
}

/**
 * Turns stored messages (a session) into the turns the page shows, as they showed while they
 * streamed: a call its stopped or failed turn never saw finish has no result ("no result").
 */
export function turnsFromMessages(
  messages: ModelMessage[],
  details: StoredTurnDetails = {},
): Turn[] {
  const { toolCalls: meta = {}, endings = {}, usage = {} } = details;
  const turns: Turn[] = [];
  const calls = new Map<string, ToolCallView>();
  let current: Turn | undefined;
  let users = 0;
  const partsOf = (turn: Turn) => turn.parts.value;
  for (const [index, message] of messages.entries()) {
    if (message.role === "system") continue;
    if (message.role === "user") {
      // A turn that failed or was aborted is stored with how it ended.
      const ending = endings[index];
      current = newTurn(
        userText(message.content),
        !ending ? "done" : "error" in ending ? "error" : "stopped",
      );
      if (ending && "error" in ending) current.error.value = ending.error;
      current.sessionIndex = users++;
      restoreUsage(current, usage[index]);
      turns.push(current);
      continue;
    }
    // An answer with no user message before it (a history that starts with the assistant).
    current ??= turns[turns.push(newTurn("", "done")) - 1];
    const turn = current;
    if (message.role === "assistant") {
      const content = typeof message.content === "string"
        ? [{ type: "text", text: message.content }]
        : message.content;
      const parts = [...partsOf(turn)];
      for (const part of content) {
        if ((part.type === "text" || part.type === "reasoning") && typeof part.text === "string") {
          const last = parts.at(-1);
          if (last?.kind === part.type) last.text.value += part.text;
          else parts.push({ kind: part.type, text: signal(part.text) });
        } else if (part.type === "tool-call") {
          const id = String(part.toolCallId);
          const name = String(part.toolName);
          const stored = meta[id];
          const call: ToolCallView = {
            id,
            name,
            ...splitToolName(name),
            ...(stored && { source: stored.source, tool: stored.tool }),
            input: part.input,
            result: signal(undefined),
            // The MCP task it ran as: the card's "Ran as MCP task" line.
            ...(stored?.task && { progress: signal({ task: stored.task }) }),
          };
          calls.set(id, call);
          parts.push({ kind: "tool", call });
        }
      }
      turn.parts.value = parts;
    } else if (message.role === "tool") {
      for (const part of message.content) {
        if (part.type !== "tool-result") continue;
        const call = calls.get(String(part.toolCallId));
        if (!call) continue;
        const stored = meta[call.id];
        const output = part.output as ToolResultOutput;
        // Stored only to keep the history valid: the call never had a result.
        if (turn.status.peek() !== "done" && !stored?.ending && isUnfinished(output)) continue;
        // A denial is in the messages too, for sessions saved before endings were kept.
        const ending = stored?.ending ??
          (output?.type === "execution-denied" ? "denied" : undefined);
        call.result.value = {
          ...resultOf(output),
          ...(ending && { ending }),
          ...(stored?.durationMs !== undefined && { durationMs: stored.durationMs }),
          ...(stored?.ui && { ui: stored.ui }),
          raw: stored?.raw ?? part.output,
        };
      }
    }
  }
  return turns;
}
