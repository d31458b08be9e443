/**
 * The chat page: workspace and model pickers, starter prompts on an empty chat, the turns as they
 * stream (with their tool calls and pending interactions), and the message box with Stop.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { ExportButton } from "../export/button.tsx";
import { bootError, bootstrap, pending } from "../state.ts";
import { ChatContext } from "./context.ts";
import type { Chat } from "./controller.ts";
import { TurnView } from "./turn.tsx";
import type { ServiceConfigInput } from "../../wire/config/schema.ts";
import { addCost, costWords, noCost, tokenCount } from "../../wire/usage.ts";

type Config = ServiceConfigInput & Record<string, unknown>;

/** The workspace a chat uses: its own, else the active one, else the first. */
export function workspaceOf(chat: Chat, config: Config | undefined) {
  const workspaces = config?.workspaces ?? [];
  const id = chat.workspaceId.value || config?.activeWorkspaceId || workspaces[0]?.id || "";
  return { id, workspace: workspaces.find((workspace) => workspace.id === id) };
}

/**
 * The tokens and cost of every answer of the chat so far (the stopped and failed ones too: their
 * finished steps were paid for).
 */
function SessionTotal({ chat }: { chat: Chat }) {
  // A compare turn's columns each ran, and each was paid for.
  const answers = chat.turns.value.flatMap((turn) => turn.compare?.columns ?? [turn]);
  const priced = answers.filter((turn) => turn.cost.value !== undefined);
  if (priced.length === 0) return null;
  const tokens = priced.reduce((sum, turn) => sum + tokenCount(turn.usage.value), 0);
  const total = priced.reduce((sum, turn) => addCost(sum, turn.cost.value!), noCost());
  return (
    <span
      class="session-total"
      title={total.costUnknown ? `Not priced: ${total.costUnknown}` : undefined}
    >
      Chat total: {tokens} tokens, {costWords(total, priced.length)}
    </span>
  );
}

function Pickers({ chat, config }: { chat: Chat; config: Config }) {
  const { id, workspace } = workspaceOf(chat, config);
  const llms = config.llms ?? [];
  const agent = workspace?.agentId
    ? (config.agents ?? []).find((agent) => agent.id === workspace.agentId)
    : undefined;
  const workspaceModel = llms.find((llm) => llm.id === workspace?.llmId) ?? llms[0];
  const running = chat.running.value !== null;
  const locked = chat.turns.value.length > 0 || running;
  const columns = chat.compare.value;
  return (
    <div class="pickers">
      <span class="picker">
        <label for="pick-workspace">Workspace</label>
        <select
          id="pick-workspace"
          value={id}
          disabled={locked}
          title={locked
            ? "A chat stays in its workspace: start a new chat to change it"
            : undefined}
          onChange={(event) => chat.workspaceId.value = event.currentTarget.value}
        >
          {(config.workspaces ?? []).map((workspace) => (
            <option key={workspace.id} value={workspace.id}>{workspace.name}</option>
          ))}
        </select>
      </span>
      {columns
        ? <ColumnPickers chat={chat} columns={columns} llms={llms} locked={running} />
        : (
          <span class="picker">
            <label for="pick-model">Model</label>
            <select
              id="pick-model"
              value={chat.llmId.value}
              onChange={(event) => chat.llmId.value = event.currentTarget.value}
            >
              <option value="">
                {agent
                  ? `Agent: ${agent.name}`
                  : `Workspace default${workspaceModel ? ` (${workspaceModel.name})` : ""}`}
              </option>
              {llms.map((llm) => (
                <option key={llm.id} value={llm.id}>{llm.name} · {llm.model}</option>
              ))}
            </select>
          </span>
        )}
      <label class="switch compare-switch">
        <input
          type="checkbox"
          role="switch"
          checked={columns !== null}
          disabled={running}
          onChange={(event) => chat.compare.value = event.currentTarget.checked
            ? [chat.llmId.peek(), llms.find((llm) => llm.id !== chat.llmId.peek())?.id ?? ""]
            : null}
        />{" "}
        Compare
      </label>
      {agent
        ? (
          <span class="agent-name" title={`Remote agent over ${agent.protocol}: ${agent.url}`}>
            Agent: <strong>{agent.name}</strong>
          </span>
        )
        : null}
      <SessionTotal chat={chat} />
    </div>
  );
}

/** The model of each compare column (2 to 4), with a button to add or remove one. */
function ColumnPickers(
  { chat, columns, llms, locked }: {
    chat: Chat;
    columns: string[];
    llms: NonNullable<Config["llms"]>;
    locked: boolean;
  },
) {
  const set = (index: number, llmId: string) =>
    chat.compare.value = columns.map((value, at) => at === index ? llmId : value);
  return (
    <span class="compare-pickers" role="group" aria-label="Compare columns">
      {columns.map((llmId, index) => (
        <span class="picker" key={index}>
          <label for={`pick-column-${index}`}>Column {index + 1}</label>
          <select
            id={`pick-column-${index}`}
            value={llmId}
            disabled={locked}
            onChange={(event) => set(index, event.currentTarget.value)}
          >
            <option value="">Workspace default</option>
            {llms.map((llm) => <option key={llm.id} value={llm.id}>{llm.name} · {llm.model}
            </option>)}
          </select>
          {columns.length > 2
            ? (
              <button
                type="button"
                class="icon-button"
                aria-label={`Remove column ${index + 1}`}
                disabled={locked}
                onClick={() => chat.compare.value = columns.filter((_, at) => at !== index)}
              >
                ×
              </button>
            )
            : null}
        </span>
      ))}
      {columns.length < 4
        ? (
          <button
            type="button"
            class="chip"
            disabled={locked}
            onClick={() => chat.compare.value = [...columns, ""]}
          >
            + Column
          </button>
        )
        : null}
    </span>
  );
}

function Empty({ chat, config }: { chat: Chat; config: Config }) {
  const { id, workspace } = workspaceOf(chat, config);
  const starters = workspace?.starterPrompts ?? [];
  return (
    <div class="empty-chat">
      <h1>{workspace ? workspace.name : "No workspace"}</h1>
      {workspace
        ? <p>Ask anything. Name a tool to have the model call it.</p>
        : <p>Add a workspace in the config to start chatting.</p>}
      {starters.length > 0
        ? (
          <ul class="starters" aria-label="Starter prompts">
            {starters.map((prompt) => (
              <li key={prompt}>
                <button type="button" class="chip" onClick={() => void chat.send(prompt, id)}>
                  {prompt}
                </button>
              </li>
            ))}
          </ul>
        )
        : null}
    </div>
  );
}

function Composer({ chat, workspaceId }: { chat: Chat; workspaceId: string }) {
  // The chat keeps what is typed: a message whose turn failed comes back into the box.
  const text = chat.draft;
  const running = chat.running.value !== null;
  const send = (event?: Event) => {
    event?.preventDefault();
    if (running || text.value.trim() === "" || workspaceId === "") return;
    void chat.send(text.value, workspaceId, { fromDraft: true });
  };
  return (
    <form class="composer" onSubmit={send}>
      <label for="composer" class="visually-hidden">Message</label>
      <textarea
        id="composer"
        rows={2}
        placeholder="Message (Enter to send, Shift+Enter for a new line)"
        value={text.value}
        onInput={(event) => text.value = event.currentTarget.value}
        onKeyDown={(event) => {
          if (event.key === "Enter" && !event.shiftKey && !event.isComposing) send(event);
        }}
      />
      {running
        ? (
          <button type="button" class="danger" onClick={() => chat.stop()}>
            Stop
          </button>
        )
        : (
          <button
            type="submit"
            class="primary"
            disabled={text.value.trim() === "" || workspaceId === ""}
          >
            Send
          </button>
        )}
    </form>
  );
}

/**
 * Keeps the message list at its end while the reader is there: as answers stream, as renderers
 * (A2UI surfaces, app frames) grow after the text, and when a chat opens. A reader who scrolled up
 * is left alone until they come back down or send a message; when something new arrives below
 * them, `behind` is set (the page offers "Jump to the latest", which is `jump`).
 */
function useStickToBottom(chat: Chat, turnCount: number) {
  const log = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const behind = useSignal(false);
  useEffect(() => {
    const list = log.current;
    if (!list || !content.current) return;
    behind.value = false;
    let lastTop = list.scrollTop;
    let lastHeight = list.scrollHeight;
    const follow = () => {
      if (stick.current) list.scrollTop = list.scrollHeight;
      else if (list.scrollHeight > lastHeight) behind.value = true;
      lastTop = list.scrollTop;
      lastHeight = list.scrollHeight;
    };
    // Only the reader moves the list up: growth below leaves scrollTop alone, shrinking clamps it
    // to the (new) bottom.
    const onScroll = () => {
      const gap = list.scrollHeight - list.scrollTop - list.clientHeight;
      if (gap < 40) {
        stick.current = true;
        behind.value = false;
      } else if (list.scrollTop < lastTop) stick.current = false;
      lastTop = list.scrollTop;
    };
    // Any change of size: text, cards, renderers (their shadow DOM and frames too), the list's own
    // height (the message box grows, the screen turns).
    const resized = new ResizeObserver(follow);
    resized.observe(content.current);
    resized.observe(list);
    list.addEventListener("scroll", onScroll, { passive: true });
    follow();
    return () => {
      resized.disconnect();
      list.removeEventListener("scroll", onScroll);
    };
  }, [chat]);
  // A new turn (the reader sent a message) brings the list back to its end.
  const jump = () => {
    stick.current = true;
    behind.value = false;
    if (log.current) log.current.scrollTop = log.current.scrollHeight;
  };
  useEffect(jump, [turnCount]);
  return { log, content, behind, jump };
}

/** The page of one chat. */
export function ChatPage({ chat }: { chat: Chat }) {
  const { log, content: logContent, behind, jump } = useStickToBottom(
    chat,
    chat.turns.value.length,
  );

  const config = bootstrap.value?.config;
  const state = chat.state.value;
  const turns = chat.turns.value;
  const { id: workspaceId } = workspaceOf(chat, config);
  let content;
  if (!config) {
    content = bootError.value
      ? <p class="error" role="alert">Cannot load the config: {bootError.value}</p>
      : <p class="loading">Loading…</p>;
  } else if (state === "loading") {
    content = <p class="loading">Opening the chat…</p>;
  } else if (state === "missing") {
    content = (
      <div class="empty-chat">
        <h1>This chat does not exist</h1>
        <p>It may have been deleted. Start a new chat from the sidebar.</p>
      </div>
    );
  } else if (state === "failed") {
    content = <p class="error" role="alert">Cannot open this chat: {chat.loadError.value}</p>;
  } else if (turns.length === 0) {
    content = <Empty chat={chat} config={config} />;
  } else {
    const waiting = pending.value;
    content = turns.map((turn) => <TurnView key={turn.key} turn={turn} pending={waiting} />);
  }
  return (
    <ChatContext.Provider value={chat}>
      <div class="chat-page">
        <div class="chat-header">
          {config ? <Pickers chat={chat} config={config} /> : null}
          {config ? <ExportButton workspaceId={workspaceId} label="Export this workspace" /> : null}
        </div>
        <div
          class="messages"
          ref={log}
          role="log"
          aria-label="Messages"
          aria-busy={chat.running.value !== null}
          tabIndex={0}
        >
          <div class="messages-content" ref={logContent}>{content}</div>
        </div>
        {behind.value
          ? (
            <div class="jump-latest">
              <button type="button" class="chip" onClick={jump}>
                <span aria-hidden="true">↓</span> Jump to the latest
              </button>
            </div>
          )
          : null}
        {state === "ready" ? <Composer chat={chat} workspaceId={workspaceId} /> : null}
      </div>
    </ChatContext.Provider>
  );
}
