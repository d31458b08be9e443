/** Stored chat sessions (`/api/sessions`). */
import type { ModelMessage } from "./messages.ts";
import type { PricedUsage } from "./usage.ts";

/** How a stored turn that did not finish ended (`meta.endings` of a session, by user message index). */
export type TurnEnding = { error: string } | { aborted: true };

/**
 * What a session keeps about one turn's tokens and price, in `meta.usage[<index of the turn's user
 * message>]`: the `finish` chunk's `usage`, `cost` and `costUnknown`, or for a turn that did not
 * finish, those of the steps it finished.
 */
export interface StoredTurnUsage extends PricedUsage {
  /** The model (or agent) that answered, as the `start` chunk named it. */
  model?: string;
  durationMs?: number;
  /** The turn's run (its events: `GET /api/events?runId=`). */
  runId?: string;
}

/** One line of `GET /api/sessions`. */
export interface SessionSummary {
  id: string;
  title: string;
  workspaceId: string;
  createdAt: string;
  updatedAt: string;
  messageCount: number;
}

/** A stored session as `GET /api/sessions/:id` and `PUT` answer it. */
export interface SessionRecord {
  id: string;
  title: string;
  workspaceId: string;
  llmId?: string;
  agentId?: string;
  messages: ModelMessage[];
  meta?: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** The body of `PUT /api/sessions/:id`; a record as `GET` returned it is accepted too. */
export interface SessionInput {
  workspaceId: string;
  messages: ModelMessage[];
  title?: string;
  llmId?: string;
  agentId?: string;
  meta?: Record<string, unknown>;
  createdAt?: string;
  id?: string;
  updatedAt?: string;
}

/** The answer of `GET /api/sessions`. */
export interface SessionList {
  sessions: SessionSummary[];
}
