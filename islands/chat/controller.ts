/**
 * One open chat: its turns, the history sent with each turn, streaming with stop, and saving.
 * The server appends every turn to the session (`sessionId` in the chat request), with what the
 * messages cannot hold about its tool calls in `meta.toolCalls`; a turn that failed or was stopped
 * is appended with what streamed and how it ended (`meta.endings`); each turn's model,
 * duration, tokens and cost are in `meta.usage`.
 */
import { batch, signal } from "@preact/signals";
import { ApiError } from "../api.ts";
import { api, describeError, loadSessions, serialize } from "../state.ts";
import { streamingTurns } from "../leave_warning.ts";
import { applyChunks, historyToSend, newTurn, type Turn } from "./model.ts";
import { applyCompareChunks, newCompareTurn, turnsOfSession } from "./compare_model.ts";
import type {
  ChatChunk,
  ChatRequest,
  CompareColumnRequest,
  CompareRequest,
} from "../../wire/chat.ts";
import type { ModelMessage } from "../../wire/messages.ts";

/** Where a chat is: being read from the server, shown, or not there. */
export type ChatState = "loading" | "ready" | "missing" | "failed";

function newSessionId(): string {
  return crypto.randomUUID();
}

/** Calls `run` at the next frame, or after 100 ms when frames do not come (a hidden tab). */
function onNextFrame(run: () => void): void {
  requestAnimationFrame(run);
  setTimeout(run, 100);
}

/** A column's label before the server names it. */
function columnLabel(llmId: string): string {
  return llmId || "Workspace default";
}

/** A column of the compare request. */
function columnRequest(llmId: string): CompareColumnRequest {
  return llmId ? { llmId } : {};
}

/**
 * Reads chunks and applies them at most once a frame (a batch per frame); `each` sees every chunk
 * as it comes.
 */
async function applyInFrames<C>(
  chunks: AsyncIterable<C>,
  apply: (chunks: C[]) => void,
  each?: (chunk: C) => void,
): Promise<void> {
  const queue: C[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (queue.length > 0) batch(() => apply(queue.splice(0)));
  };
  try {
    for await (const chunk of chunks) {
      queue.push(chunk);
      each?.(chunk);
      if (!scheduled) {
        scheduled = true;
        onNextFrame(flush);
      }
    }
  } finally {
    flush();
  }
}

/** An open chat. */
export class Chat {
  readonly id: string;
  readonly turns = signal<Turn[]>([]);
  readonly state = signal<ChatState>("ready");
  readonly loadError = signal<string | null>(null);
  /** The chosen workspace; empty: the active one. */
  readonly workspaceId = signal("");
  /** The chosen model profile; empty: the workspace's model (or agent). */
  readonly llmId = signal("");
  /**
   * The columns of a compare turn (2 to 4 model profile ids, "" for the workspace's model), or
   * `null` when the next message gets one answer.
   */
  readonly compare = signal<string[] | null>(null);
  /** The turn that is streaming, if any. */
  readonly running = signal<Turn | null>(null);
  /** Whether the session exists on the server. */
  readonly saved = signal(false);
  /**
   * Context for the model from the chat's UI (an MCP App's `ui/update-model-context`), by where
   * it came from. It goes with the next user message as text parts before the message, then it
   * is cleared.
   */
  readonly modelContext = signal<Record<string, string>>({});
  /** What is typed in the message box; a message that failed comes back here. */
  readonly draft = signal("");
  /** Called once a new chat's first turn is saved (the page then shows its URL). */
  onSaved?: (chat: Chat) => void;
  #history: ModelMessage[] = [];
  /** User messages the stored session has: the next turn's index in it. */
  #userTurns = 0;
  #abort: AbortController | undefined;

  constructor(id = newSessionId()) {
    this.id = id;
  }

  /** Opens a stored session. */
  async load(): Promise<void> {
    this.state.value = "loading";
    try {
      const record = await api().sessions.get(this.id);
      const meta = (record.meta ?? {}) as Parameters<typeof turnsOfSession>[1];
      batch(() => {
        this.#history = historyToSend(record.messages, meta.endings);
        this.#userTurns = record.messages.filter((message) => message.role === "user").length;
        this.turns.value = turnsOfSession(record.messages, meta);
        this.workspaceId.value = record.workspaceId;
        this.llmId.value = record.agentId ? "" : record.llmId ?? "";
        this.saved.value = true;
        this.state.value = "ready";
      });
    } catch (error) {
      batch(() => {
        this.state.value = error instanceof ApiError && error.status === 404 ? "missing" : "failed";
        this.loadError.value = describeError(error);
      });
    }
  }

  /**
   * Sends a user message and streams the answer into a new turn: one answer, or with `compare`
   * set one per column. A message typed in the box (`fromDraft`) goes back into it when the turn
   * fails, unless something new was typed.
   */
  async send(
    text: string,
    workspaceId: string,
    options: { fromDraft?: boolean } = {},
  ): Promise<void> {
    const content = text.trim();
    if (content === "" || this.running.value) return;
    if (options.fromDraft) this.draft.value = "";
    const columns = this.compare.peek();
    const turn = columns ? newCompareTurn(content, columns.map(columnLabel)) : newTurn(content);
    const context = Object.entries(this.modelContext.peek());
    const user: ModelMessage = context.length === 0 ? { role: "user", content } : {
      role: "user",
      content: [
        ...context.map(([from, text]) => ({
          type: "text" as const,
          text: `<context from="${from}">\n${text}\n</context>\n`,
        })),
        { type: "text" as const, text: content },
      ],
    };
    if (context.length > 0) this.modelContext.value = {};
    const abort = new AbortController();
    this.#abort = abort;
    batch(() => {
      this.turns.value = [...this.turns.value, turn];
      this.running.value = turn;
      streamingTurns.value++;
      if (this.workspaceId.value === "") this.workspaceId.value = workspaceId;
    });
    await serialize(this.id, async () => {
      const body: ChatRequest = {
        messages: [...this.#history, user],
        workspaceId: this.workspaceId.value,
        sessionId: this.id,
        ...(this.llmId.value && { llmId: this.llmId.value }),
      };
      // Once the server has the turn, it saves it, however it ends.
      let reached = false;
      const onReached = () => {
        reached = true;
        turn.sessionIndex = this.#userTurns++;
      };
      try {
        if (abort.signal.aborted) throw new DOMException("stopped", "AbortError");
        const answered = columns
          ? await this.#streamCompare(
            turn,
            { ...body, columns: columns.map(columnRequest) },
            abort,
            onReached,
          )
          : await this.#streamTurn(turn, body, abort, onReached);
        if (answered) this.#history = [...this.#history, user, ...answered];
        else if (turn.status.value !== "error") {
          batch(() => {
            turn.status.value = "error";
            turn.error.value = "The answer ended before it was complete.";
          });
        }
      } catch (error) {
        batch(() => {
          if (abort.signal.aborted) {
            turn.status.value = "stopped";
            for (const column of turn.compare?.columns ?? []) {
              if (column.status.peek() === "streaming") column.status.value = "stopped";
            }
          } else {
            turn.status.value = "error";
            turn.error.value = describeError(error);
          }
        });
      } finally {
        if (reached && !this.saved.value) {
          this.saved.value = true;
          this.onSaved?.(this);
        }
        batch(() => {
          this.running.value = null;
          streamingTurns.value--;
          if (options.fromDraft && turn.status.value === "error" && this.draft.value === "") {
            this.draft.value = text;
          }
        });
        this.#abort = undefined;
        void loadSessions();
      }
    });
  }

  /** Streams one turn; the messages it added, or `undefined` when it did not finish. */
  async #streamTurn(
    turn: Turn,
    body: ChatRequest,
    abort: AbortController,
    reached: () => void,
  ): Promise<ModelMessage[] | undefined> {
    const stream = await api().chat(body, abort.signal);
    reached();
    if (stream.runId) turn.runId.value = stream.runId;
    let finish: Extract<ChatChunk, { type: "finish" }> | undefined;
    await applyInFrames(stream.chunks, (chunks) => applyChunks(turn, chunks), (chunk) => {
      if (chunk.type === "finish") finish = chunk;
    });
    return finish?.messages as ModelMessage[] | undefined;
  }

  /** Streams a compare turn; the picked column's messages, or `undefined` when none finished. */
  async #streamCompare(
    turn: Turn,
    body: CompareRequest,
    abort: AbortController,
    reached: () => void,
  ): Promise<ModelMessage[] | undefined> {
    const chunks = await api().compare(body, abort.signal);
    reached();
    await applyInFrames(chunks, (batch) => applyCompareChunks(turn, batch));
    const compare = turn.compare!;
    const picked = compare.picked.peek();
    return picked === undefined ? undefined : compare.messages.peek()[picked];
  }

  /**
   * Goes on with another column of the last turn, a compare turn: the session's answer becomes
   * that column's, and so does the history the next message is sent with.
   */
  async pick(turn: Turn, column: number): Promise<void> {
    const compare = turn.compare;
    const messages = compare?.messages.peek()[column];
    if (!compare || !messages || this.running.peek() || this.turns.peek().at(-1) !== turn) return;
    const before = this.#history.slice(0, this.#history.length - this.#answerLength(turn));
    const index = compare.messageIndex.peek();
    if (index !== undefined) await api().sessions.pick(this.id, index, column);
    this.#history = [...before, ...messages];
    const chosen = compare.summary.peek()?.[column];
    batch(() => {
      // Without Compare, the next message goes to the picked column's model.
      if (chosen?.llmId) this.llmId.value = chosen.llmId;
      compare.picked.value = column;
      turn.status.value = "done";
      turn.error.value = undefined;
    });
  }

  /** How many messages of the history a turn's user message and picked answer take (the last turn). */
  #answerLength(turn: Turn): number {
    const picked = turn.compare?.picked.peek();
    if (picked === undefined) return 0;
    return 1 + (turn.compare!.messages.peek()[picked]?.length ?? 0);
  }

  /**
   * Sends a failed turn's message again: the failed turn leaves the chat (its session keeps it,
   * with its error) and a new one takes its place. The message box keeps what was typed, unless it is that message.
   */
  async retry(turn: Turn, workspaceId: string): Promise<void> {
    if (this.running.value || turn.status.value !== "error") return;
    batch(() => {
      this.turns.value = this.turns.value.filter((known) => known !== turn);
      if (this.draft.value.trim() === turn.user.trim()) this.draft.value = "";
    });
    await this.send(turn.user, workspaceId);
  }

  /** Stops the streaming turn: the request is aborted, and the server stops model and tools. */
  stop(): void {
    this.#abort?.abort();
  }
}
