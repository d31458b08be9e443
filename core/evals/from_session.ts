/**
 * An eval case from a stored chat: the prompts of its user turns, and the tool calls each turn
 * made, with their arguments, as the turn's expectations. One turn gives the single-prompt form
 * of a case, several the `turns` form.
 */
import type { DraftCall, DraftCase, DraftTurn, EvalCaseDraft } from "../../wire/evals.ts";
import type { TurnEnding } from "../../wire/sessions.ts";
import { LassError } from "../errors.ts";
import type { Session } from "../sessions.ts";
import { caseYaml } from "./append.ts";

/** One user turn of a session: its user message and what the model called in answer. */
export interface SessionTurn {
  /** The turn's index among the session's user messages, from 0. */
  index: number;
  user: { role: string; content: unknown };
  calls: DraftCall[];
  /** How the turn ended when it did not finish. */
  ending?: TurnEnding;
}

/** A case made from a session, with the settings an eval file takes from the chat. */
export interface SessionCase {
  case: DraftCase;
  workspace: string;
  /** The chat's model profile; absent for a chat with a remote agent. */
  models?: string[];
  /** The turns taken, by index. */
  turns: number[];
}

/** Whether a value is a plain record. */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A tool call part as an expected call: the arguments when they are a non-empty object. */
function expectedCall(part: Record<string, unknown>): DraftCall {
  const input = part.input;
  return {
    tool: String(part.toolName),
    ...(isRecord(input) && Object.keys(input).length > 0 && { args: input }),
  };
}

/** The session's user turns, each with the tool calls of the messages up to the next one. */
export function sessionTurns(session: Session): SessionTurn[] {
  const endings = isRecord(session.meta?.endings) ? session.meta.endings : {};
  const turns: SessionTurn[] = [];
  session.messages.forEach((message, position) => {
    if (message.role === "user") {
      const ending = endings[position] as TurnEnding | undefined;
      turns.push({ index: turns.length, user: message, calls: [], ...(ending && { ending }) });
      return;
    }
    const turn = turns.at(-1);
    if (!turn || message.role !== "assistant" || !Array.isArray(message.content)) return;
    for (const part of message.content) {
      if (isRecord(part) && part.type === "tool-call") turn.calls.push(expectedCall(part));
    }
  });
  return turns;
}

/**
 * A turn's prompt: the user message's text when it is only text, else the message itself (a file
 * or an image the model saw belongs in the case too).
 */
function promptOf(user: SessionTurn["user"]): Pick<DraftTurn, "prompt" | "messages"> {
  const { content } = user;
  if (typeof content === "string") return { prompt: content };
  const parts = Array.isArray(content) ? content : [];
  const texts = parts.every((part) => isRecord(part) && part.type === "text");
  if (texts && parts.length > 0) {
    return {
      prompt: parts.map((part) => String((part as { text?: unknown }).text ?? "")).join(""),
    };
  }
  return { messages: [{ role: "user", content }] };
}

/** A turn of the case: its prompt and the calls it made. */
function draftTurn(turn: SessionTurn): DraftTurn {
  return { ...promptOf(turn.user), expect: turn.calls.length > 0 ? { calls: turn.calls } : {} };
}

/** How an unfinished turn ended, in words. */
function endingWords(ending: TurnEnding): string {
  return "error" in ending ? `it failed: ${ending.error}` : "it was stopped";
}

/** The turns picked by index: each one there and finished, in the session's order. */
function pickTurns(all: SessionTurn[], indexes: number[]): SessionTurn[] {
  const problems = indexes.flatMap((index, at) => {
    const turn = all[index];
    if (!turn) {
      return [{
        path: `turns.${at}`,
        message: all.length === 0
          ? "the session has no user turn"
          : `is ${index}; the session's turns are 0 to ${all.length - 1}`,
      }];
    }
    if (turn.ending) {
      return [{
        path: `turns.${at}`,
        message: `turn ${index} did not finish (${endingWords(turn.ending)}); ` +
          "a case is made of finished turns",
      }];
    }
    return [];
  });
  if (problems.length > 0) {
    throw new LassError(
      "invalid-request",
      `cannot make a case of these turns: ${problems[0].message}`,
      problems,
    );
  }
  return [...new Set(indexes)].sort((a, b) => a - b).map((index) => all[index]);
}

/** A case's default name: the prompt of a single picked turn, else the chat's title. */
function defaultName(session: Session, turns: SessionTurn[], picked: boolean): string {
  const prompt = turns.length === 1 && picked ? promptOf(turns[0].user).prompt : undefined;
  const line = (prompt ?? session.title).replace(/\s+/g, " ").trim() || session.id;
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/**
 * Makes a case of a session's user turns: `turns` picks them by index (failed turns count, and
 * cannot be picked); by default every finished turn. Throws 400 `invalid-request` for a turn
 * that is not there or did not finish, or a session with no finished turn.
 */
export function caseFromSession(
  session: Session,
  options: { turns?: number[]; name?: string } = {},
): SessionCase {
  const all = sessionTurns(session);
  const turns = options.turns
    ? pickTurns(all, options.turns)
    : all.filter((turn) => turn.ending === undefined);
  if (turns.length === 0) {
    throw new LassError(
      "invalid-request",
      `session ${session.id} has no finished turn to make a case of`,
    );
  }
  const name = options.name?.trim() || defaultName(session, turns, options.turns !== undefined);
  const drafts = turns.map(draftTurn);
  const testCase: DraftCase = drafts.length === 1
    ? { name, ...drafts[0] }
    : { name, turns: drafts };
  return {
    case: testCase,
    workspace: session.workspaceId,
    ...(session.llmId && !session.agentId && { models: [session.llmId] }),
    turns: turns.map((turn) => turn.index),
  };
}

/** The comment above a case made from a chat: where it came from (turns counted from 1), and when. */
export function provenance(session: Session, turns: number[], now = new Date()): string {
  const total = sessionTurns(session).length;
  const which = turns.length === total
    ? total === 1 ? "its turn" : `its ${total} turns`
    : `${turns.length === 1 ? "turn" : "turns"} ${
      turns.map((index) => index + 1).join(", ")
    } of ${total}`;
  const title = session.title.replace(/\s+/g, " ").trim();
  return ` From the chat "${title}" (session ${session.id}, ${which}), ` +
    `${now.toISOString().slice(0, 10)}`;
}

/** The answer of `POST /api/evals/cases`: the case of a session's turns, also as YAML. */
export function caseDraft(
  session: Session,
  options: { turns?: number[]; name?: string } = {},
): EvalCaseDraft {
  const made = caseFromSession(session, options);
  return {
    ...made,
    yaml: caseYaml(made.case, provenance(session, made.turns)),
    session: { id: session.id, title: session.title },
  };
}
