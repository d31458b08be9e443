/**
 * A compare turn as the chat page shows it: one answer per column, each a turn of its own (its
 * parts, status, usage), the summary once all are done, and the column the conversation goes on
 * with. Built from the chunks of `POST /api/chat/compare`, or from a session's `meta.compares`.
 */
import { signal } from "@preact/signals";
import type { ChatChunk, CompareChunk, StoredCompare } from "../../wire/chat.ts";
import type { ModelMessage } from "../../wire/messages.ts";
import {
  applyChunks,
  newTurn,
  type StoredTurnDetails,
  type Turn,
  turnsFromMessages,
} from "./model.ts";

/** A new compare turn for a user message and its column labels. */
export function newCompareTurn(user: string, labels: string[]): Turn {
  const turn = newTurn(user);
  turn.compare = {
    labels,
    columns: labels.map(() => newTurn("")),
    messages: signal(labels.map(() => undefined)),
    summary: signal(undefined),
    picked: signal(undefined),
    messageIndex: signal(undefined),
  };
  return turn;
}

/** Applies streamed compare chunks: each to its column, the summary to the turn. */
export function applyCompareChunks(turn: Turn, chunks: CompareChunk[]): void {
  const compare = turn.compare!;
  const byColumn = new Map<number, ChatChunk[]>();
  for (const chunk of chunks) {
    if (chunk.type === "compare-summary") {
      compare.summary.value = chunk.columns;
      compare.messageIndex.value = chunk.messageIndex;
      const finished = chunk.columns.findIndex((column) => column.error === undefined);
      compare.picked.value = finished < 0 ? undefined : finished;
      turn.status.value = finished < 0 ? "error" : "done";
      if (finished < 0) turn.error.value = "No column finished.";
      continue;
    }
    const { column, ...plain } = chunk;
    byColumn.set(column, [...byColumn.get(column) ?? [], plain as ChatChunk]);
    if (plain.type === "finish") {
      const messages = [...compare.messages.peek()];
      messages[column] = plain.messages as ModelMessage[];
      compare.messages.value = messages;
    }
  }
  for (const [column, own] of byColumn) {
    const target = compare.columns[column];
    if (target) applyChunks(target, own);
  }
}

/** A stored compare turn (its user message's text and `meta.compares[index]`) as a turn. */
export function compareTurnFromStored(user: string, index: number, stored: StoredCompare): Turn {
  const turn = newCompareTurn(user, stored.columns.map((column) => column.label));
  const compare = turn.compare!;
  stored.columns.forEach((column, at) => {
    const messages = column.messages as ModelMessage[];
    const [shown] = turnsFromMessages(
      [{ role: "user", content: "" }, ...messages],
      {
        toolCalls: column.calls ?? {},
        endings: column.error ? { 0: { error: column.error } } : {},
      },
    );
    const target = compare.columns[at];
    if (shown) {
      target.parts.value = shown.parts.value;
      target.status.value = shown.status.value;
      target.error.value = shown.error.value;
    }
    target.usage.value = column.usage;
    target.cost.value = {
      cost: column.cost ?? null,
      ...(column.costUnknown !== undefined && { costUnknown: column.costUnknown }),
    };
    target.durationMs.value = column.ms;
    target.model.value = column.llmId ?? column.agentId;
  });
  compare.messages.value = stored.columns.map((column) =>
    column.error ? undefined : column.messages as ModelMessage[]
  );
  compare.summary.value = stored.columns.map(({ messages: _, calls: __, ...summary }) => summary);
  compare.picked.value = stored.picked;
  compare.messageIndex.value = index;
  turn.status.value = "done";
  return turn;
}

/**
 * The turns of a stored session, its compare turns (`meta.compares`, by user message index) with
 * their columns: the messages after a compare turn's user message are its picked column's.
 */
export function turnsOfSession(
  messages: ModelMessage[],
  meta: StoredTurnDetails & { compares?: Record<string, StoredCompare> },
): Turn[] {
  const turns = turnsFromMessages(messages, meta);
  const compares = meta.compares ?? {};
  const userIndices = messages.flatMap((message, index) => message.role === "user" ? [index] : []);
  // A history that starts with an answer has a turn before the first user message.
  const offset = turns.length - userIndices.length;
  userIndices.forEach((index, k) => {
    const stored = compares[index];
    if (stored && Array.isArray(stored.columns)) {
      turns[k + offset] = compareTurnFromStored(turns[k + offset].user, index, stored);
    }
  });
  return turns;
}
