/**
 * One open chat: its turns, the history sent with each turn, streaming with stop, and saving.
 * The server appends every turn to the session (`sessionId` in the chat request), with what the
 * messages cannot hold about its tool calls in `meta.toolCalls`; a turn that failed or was stopped
 * is appended with what streamed and how it ended (`meta.endings`).
 */
import { batch, signal } from "@preact/signals";
import { ApiError } from "../api.ts";
import { api, describeError, loadSessions, serialize } from "../state.ts";
import { streamingTurns } from "../leave_warning.ts";
import { applyChunks, historyToSend, newTurn, type Turn, turnsFromMessages } from "./model.ts";
import { type TurnEnding } from "../../wire/sessions.ts";
import type { ChatChunk, ChatRequest, StoredToolCall } from "../../wire/chat.ts";
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
  #abort: AbortController | undefined;

  constructor(id = newSessionId()) {
    this.id = id;
  }

  /** Opens a stored session. */
  async load(): Promise<void> {
    this.state.value = "loading";
    try {
      const record = await api().sessions.get(this.id);
      const meta = (record.meta?.toolCalls ?? {}) as Record<string, StoredToolCall>;
      const endings = (record.meta?.endings ?? {}) as Record<string, TurnEnding>;
      batch(() => {
        this.#history = historyToSend(record.messages, endings);
        this.turns.value = turnsFromMessages(record.messages, meta, endings);
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
   * Sends a user message and streams the answer into a new turn. A message typed in the box
   * (`fromDraft`) goes back into it when the turn fails, unless something new was typed.
   */
  async send(
    text: string,
    workspaceId: string,
    options: { fromDraft?: boolean } = {},
  ): Promise<void> {
    const content = text.trim();
    if (content === "" || this.running.value) return;
    if (options.fromDraft) this.draft.value = "";
    const turn = newTurn(content);
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
      const queue: ChatChunk[] = [];
      let scheduled = false;
      const flush = () => {
        scheduled = false;
        if (queue.length > 0) batch(() => applyChunks(turn, queue.splice(0)));
      };
      let finish: Extract<ChatChunk, { type: "finish" }> | undefined;
      // Once the server has the turn, it saves it, however it ends.
      let reached = false;
      try {
        if (abort.signal.aborted) throw new DOMException("stopped", "AbortError");
        const stream = await api().chat(body, abort.signal);
        reached = true;
        if (stream.runId) turn.runId.value = stream.runId;
        for await (const chunk of stream.chunks) {
          queue.push(chunk);
          if (chunk.type === "finish") finish = chunk;
          if (!scheduled) {
            scheduled = true;
            onNextFrame(flush);
          }
        }
        flush();
        if (finish) {
          this.#history = [...this.#history, user, ...finish.messages as ModelMessage[]];
        } else if (turn.status.value !== "error") {
          batch(() => {
            turn.status.value = "error";
            turn.error.value = "The answer ended before it was complete.";
          });
        }
      } catch (error) {
        flush();
        batch(() => {
          if (abort.signal.aborted) {
            turn.status.value = "stopped";
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
