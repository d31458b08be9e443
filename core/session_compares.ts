/** Going on with another column of a stored compare turn (`meta.compares` of a session). */
import type { StoredCompare } from "../wire/chat.ts";
import { LassError } from "./errors.ts";

/** The parts of a stored session that picking a column reads and changes. */
interface SessionParts {
  messages: { role: "system" | "user" | "assistant" | "tool"; content: unknown }[];
  meta?: Record<string, unknown>;
  llmId?: string;
  agentId?: string;
}

/**
 * The session's messages, meta and responder after picking `column` of the compare turn whose
 * user message is at `index`. 404 `not-found` for no such turn or column; 409 `conflict` when a
 * later turn exists (it was built on the column picked before).
 */
export function pickedColumn(session: SessionParts, index: number, column: number): SessionParts {
  const compares = session.meta?.compares as Record<string, StoredCompare> | undefined;
  const compare = compares?.[String(index)];
  if (!compare || !Array.isArray(compare.columns)) {
    throw new LassError("not-found", `the session has no compare turn at message ${index}`);
  }
  const chosen = compare.columns[column];
  if (!chosen) {
    throw new LassError(
      "not-found",
      `the compare turn has ${compare.columns.length} columns; there is no column ${column}`,
    );
  }
  const later = session.messages.findIndex((message, at) => at > index && message.role === "user");
  if (later >= 0) {
    throw new LassError(
      "conflict",
      "the conversation went on after this compare turn; pick a column only on the last turn",
    );
  }
  const meta: Record<string, unknown> = {
    ...session.meta,
    compares: { ...compares, [index]: { ...compare, picked: column } },
    toolCalls: { ...(session.meta?.toolCalls as object | undefined), ...chosen.calls },
  };
  const endings = { ...(session.meta?.endings as Record<string, unknown> | undefined) };
  delete endings[index];
  if (chosen.error) endings[index] = { error: chosen.error };
  meta.endings = endings;
  return {
    messages: [
      ...session.messages.slice(0, index + 1),
      ...(chosen.messages as SessionParts["messages"]),
    ],
    meta,
    llmId: chosen.llmId,
    agentId: chosen.agentId,
  };
}
