/** Stored chat sessions: one JSON file per session in the data dir, written atomically. */
import { join } from "node:path";
import { detailsFromIssues, LassError } from "./errors.ts";
import { type FileSystem, SerialQueue, writeFileAtomic } from "./files.ts";
import type { SessionSummary, StoredTurnUsage, TurnEnding } from "../wire/sessions.ts";
import type { StoredCompare } from "../wire/chat.ts";
import { pickedColumn } from "./session_compares.ts";
import type { SessionInputFields } from "./session_input.ts";

/** Session ids: letters, digits, `_` and `-`, at most 128; nothing that can leave the folder. */
export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;

/** A stored chat history. */
export type Session =
  & Omit<SessionInputFields, "id" | "title" | "createdAt" | "updatedAt">
  & {
    id: string;
    title: string;
    createdAt: string;
    updatedAt: string;
  };

/** One chat turn to append: the messages the client sent and the ones the turn produced. */
export interface TurnRecord {
  workspaceId: string;
  llmId?: string;
  agentId?: string;
  request: unknown[];
  response: unknown[];
  /**
   * What the messages cannot hold about the turn's tool calls (source, duration, UI, raw result),
   * by tool-call id; merged into the session's `meta.toolCalls` so a reopened chat shows the same
   * cards.
   */
  toolCalls?: Record<string, unknown>;
  /**
   * How a turn that did not finish ended: its error's text, or that it was aborted. Kept in the
   * session's `meta.endings`, by the index of the turn's user message, so a reopened chat shows it.
   */
  ending?: TurnEnding;
  /** A compare turn's columns, kept in `meta.compares` by the index of its user message. */
  compare?: StoredCompare;
  /** The turn's tokens and price, kept in the session's `meta.usage`, by the same index. */
  usage?: StoredTurnUsage;
}

/** How an unfinished turn ended, in `meta.endings[<index of its user message>]`. */

/** Checks a session id from a URL; throws 400 `invalid-request` for anything unsafe. */
export function assertSessionId(id: string): void {
  if (!SESSION_ID_PATTERN.test(id)) {
    throw new LassError(
      "invalid-request",
      "a session id is 1-128 letters, digits, '_' or '-'",
      [{ path: "id", message: `not a valid session id: ${JSON.stringify(id.slice(0, 200))}` }],
    );
  }
}

/** A title from the first user message, for sessions saved without one. */
function titleFrom(messages: SessionInputFields["messages"]): string {
  const first = messages.find((message) => message.role === "user");
  const content = first?.content;
  const text = typeof content === "string"
    ? content
    : Array.isArray(content)
    ? content.map((part) => (part as { text?: unknown })?.text).filter((t) => typeof t === "string")
      .join(" ")
    : "";
  const line = text.replace(/\s+/g, " ").trim();
  return line === "" ? "New chat" : line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A stored session file's record, or `undefined` when the text is not one. */
function parseStored(text: string): Session | undefined {
  try {
    const value = JSON.parse(text);
    const ok = value !== null && typeof value === "object" && Array.isArray(value.messages) &&
      typeof value.createdAt === "string" && typeof value.updatedAt === "string";
    return ok ? value as Session : undefined;
  } catch {
    return undefined;
  }
}

/** Throws the error of a session whose file is not a session record. */
function damaged(id: string): never {
  throw new LassError(
    "internal",
    `the file of session ${id} is damaged; replace it with PUT /api/sessions/${id} or delete it`,
  );
}

/** The session files of one data dir, with a summary cache keyed by file mtime and size. */
export class SessionStore {
  readonly #dir: string;
  readonly #fs: FileSystem;
  readonly #writes = new SerialQueue();
  readonly #summaries = new Map<string, { stamp: string; summary: SessionSummary }>();
  #closed = false;

  constructor(dir: string, fs: FileSystem) {
    this.#dir = dir;
    this.#fs = fs;
  }

  #file(id: string): string {
    assertSessionId(id);
    return join(this.#dir, `${id}.json`);
  }

  /** All sessions, newest `updatedAt` first. Unreadable files are skipped, never fatal. */
  async list(): Promise<SessionSummary[]> {
    const names = await this.#fs.list(this.#dir);
    const ids = names.filter((name) => name.endsWith(".json")).map((name) => name.slice(0, -5))
      .filter((id) => SESSION_ID_PATTERN.test(id));
    const summaries = await Promise.all(ids.map((id) => this.#summary(id)));
    const present = new Set(ids);
    for (const id of this.#summaries.keys()) if (!present.has(id)) this.#summaries.delete(id);
    return summaries.filter((s): s is SessionSummary => s !== undefined)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  }

  async #summary(id: string): Promise<SessionSummary | undefined> {
    try {
      const info = await this.#fs.stat(this.#file(id));
      if (!info) return undefined;
      const stamp = `${info.mtimeMs}:${info.size}`;
      const cached = this.#summaries.get(id);
      if (cached?.stamp === stamp) return cached.summary;
      const session = await this.get(id);
      const summary: SessionSummary = {
        id,
        title: session.title,
        workspaceId: session.workspaceId,
        createdAt: session.createdAt,
        updatedAt: session.updatedAt,
        messageCount: session.messages.length,
      };
      this.#summaries.set(id, { stamp, summary });
      return summary;
    } catch {
      return undefined;
    }
  }

  /** One session; 404 `not-found` when there is none, 500 when its file is damaged. */
  async get(id: string): Promise<Session> {
    const text = await this.#fs.readText(this.#file(id));
    if (text === undefined) throw new LassError("not-found", `no session has id ${id}`);
    return parseStored(text) ?? damaged(id);
  }

  /**
   * Checks, before a chat turn starts, that it can be appended to session `id`: there is no such
   * session yet, or its file is intact. Throws 500 `internal` when the file is damaged.
   */
  async assertAppendable(id: string): Promise<void> {
    const text = await this.#fs.readText(this.#file(id));
    if (text !== undefined && !parseStored(text)) damaged(id);
  }

  /** Creates or replaces a session; keeps `createdAt` of an existing one. */
  async put(id: string, input: unknown): Promise<Session> {
    const file = this.#file(id);
    // The schema (and zod) loads with the first PUT, not at startup.
    const { SessionInputSchema } = await import("./session_input.ts");
    const parsed = SessionInputSchema.safeParse(input);
    if (!parsed.success) {
      throw new LassError(
        "invalid-request",
        "not a valid session",
        detailsFromIssues(parsed.error.issues),
      );
    }
    const { id: bodyId, updatedAt: _ignored, ...fields } = parsed.data;
    if (bodyId !== undefined && bodyId !== id) {
      throw new LassError("invalid-request", "the session's id does not match the path", [
        {
          path: "id",
          message: `is ${JSON.stringify(bodyId)}, the path says ${JSON.stringify(id)}`,
        },
      ]);
    }
    return await this.#writes.run(async () => {
      this.#assertOpen();
      const now = new Date().toISOString();
      // A damaged earlier file is simply replaced: PUT is how a client repairs it.
      const previous = parseStored(await this.#fs.readText(file) ?? "");
      const session: Session = {
        id,
        ...fields,
        title: fields.title?.trim() || titleFrom(fields.messages),
        createdAt: fields.createdAt ?? previous?.createdAt ?? now,
        updatedAt: now,
      };
      await writeFileAtomic(this.#fs, file, JSON.stringify(session, null, 2) + "\n", {
        mode: 0o600,
        dirMode: 0o700,
      });
      return session;
    });
  }

  /**
   * Appends a chat turn to a session, creating it when there is none: a new session gets the
   * whole request history, an existing one the request's last message (the new user message);
   * both get the response messages. The title comes from the first user message. A turn that
   * failed or was aborted is appended too, with what it streamed and its `ending`.
   */
  appendTurn(id: string, turn: TurnRecord): Promise<Session> {
    const file = this.#file(id);
    return this.#writes.run(async () => {
      this.#assertOpen();
      const now = new Date().toISOString();
      const text = await this.#fs.readText(file);
      // Unlike PUT, a turn never replaces a damaged file: the history in it would be lost.
      const previous = text === undefined ? undefined : parseStored(text) ?? damaged(id);
      const added = previous ? turn.request.slice(-1) : turn.request;
      const messages = [...(previous?.messages ?? []), ...added, ...turn.response] as Session[
        "messages"
      ];
      const userIndex = (previous?.messages.length ?? 0) + added.length - 1;
      const meta = turnMeta(previous?.meta, turn, added.length > 0 ? userIndex : undefined);
      const session: Session = {
        ...previous,
        ...(meta && { meta }),
        id,
        workspaceId: turn.workspaceId,
        ...(turn.llmId && { llmId: turn.llmId }),
        ...(turn.agentId && { agentId: turn.agentId }),
        messages,
        title: previous?.title ?? titleFrom(messages),
        createdAt: previous?.createdAt ?? now,
        updatedAt: now,
      };
      await writeFileAtomic(this.#fs, file, JSON.stringify(session, null, 2) + "\n", {
        mode: 0o600,
        dirMode: 0o700,
      });
      return session;
    });
  }

  /**
   * Goes on with another column of the compare turn at user message `index`: the messages after
   * it become that column's. 404 when there is no such compare turn or column, 409 when later
   * turns were built on the column picked before.
   */
  pickCompareColumn(id: string, index: number, column: number): Promise<Session> {
    const file = this.#file(id);
    return this.#writes.run(async () => {
      this.#assertOpen();
      const text = await this.#fs.readText(file);
      if (text === undefined) throw new LassError("not-found", `no session has id ${id}`);
      const previous = parseStored(text) ?? damaged(id);
      const session: Session = {
        ...previous,
        ...pickedColumn(previous, index, column),
        updatedAt: new Date().toISOString(),
      };
      await writeFileAtomic(this.#fs, file, JSON.stringify(session, null, 2) + "\n", {
        mode: 0o600,
        dirMode: 0o700,
      });
      return session;
    });
  }

  /** Deletes a session; 404 `not-found` when there is none with that id. */
  delete(id: string): Promise<void> {
    const file = this.#file(id);
    return this.#writes.run(async () => {
      this.#assertOpen();
      if (!await this.#fs.remove(file)) {
        throw new LassError("not-found", `no session has id ${id}`);
      }
      this.#summaries.delete(id);
    });
  }

  /** Refuses further writes and resolves when every write that was accepted is on disk. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#writes.idle();
  }

  #assertOpen(): void {
    if (this.#closed) throw new LassError("conflict", "the service is shutting down");
  }
}

/** A record-like value, or an empty one. */
function recordOf(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

/**
 * A session's `meta` after a turn: its tool calls' details merged into `toolCalls`, and by the
 * index of its user message (when it added one) its `ending`, its `compare` and its `usage`.
 */
function turnMeta(
  previous: Record<string, unknown> | undefined,
  turn: TurnRecord,
  userIndex: number | undefined,
): Record<string, unknown> | undefined {
  let meta = previous;
  if (turn.toolCalls && Object.keys(turn.toolCalls).length > 0) {
    meta = { ...meta, toolCalls: { ...recordOf(meta?.toolCalls), ...turn.toolCalls } };
  }
  if (userIndex === undefined) return meta;
  if (turn.ending) {
    meta = { ...meta, endings: { ...recordOf(meta?.endings), [userIndex]: turn.ending } };
  }
  if (turn.compare) {
    meta = { ...meta, compares: { ...recordOf(meta?.compares), [userIndex]: turn.compare } };
  }
  if (turn.usage) {
    meta = { ...meta, usage: { ...recordOf(meta?.usage), [userIndex]: turn.usage } };
  }
  return meta;
}
