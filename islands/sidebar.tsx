/** The sidebar: new chat, the stored chats (newest first) with rename and delete, and what waits. */
import { useSignal } from "@preact/signals";
import { InteractionCard } from "./chat/interaction.tsx";
import { SaveCaseButton } from "./evals/save_case_button.tsx";
import { chatOfRun } from "./chat/registry.ts";
import { timeAgo } from "./format.ts";
import {
  api,
  describeError,
  loadSessions,
  navigate,
  pending,
  runSessions,
  serialize,
  sessions,
  sessionsError,
} from "./state.ts";
import type { Interaction } from "../wire/interactions.ts";
import type { SessionSummary } from "../wire/sessions.ts";

/** A click on an in-app link: handled by the app unless the user asked for a new tab. */
export function onLink(event: MouseEvent, path: string): void {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) {
    return;
  }
  event.preventDefault();
  navigate(path);
}

interface ItemProps {
  session: SessionSummary;
  current: boolean;
  onDeleted: (id: string) => void;
}

function SessionItem({ session, current, onDeleted }: ItemProps) {
  const mode = useSignal<"view" | "rename" | "delete">("view");
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const title = useSignal(session.title);
  const path = `/chat/${encodeURIComponent(session.id)}`;

  const run = async (work: () => Promise<void>) => {
    busy.value = true;
    error.value = null;
    try {
      await work();
      mode.value = "view";
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };
  const rename = (event: Event) => {
    event.preventDefault();
    const wanted = title.value.trim();
    if (wanted === "" || wanted === session.title) {
      mode.value = "view";
      return;
    }
    void run(() =>
      serialize(session.id, async () => {
        const record = await api().sessions.get(session.id);
        await api().sessions.put(session.id, { ...record, title: wanted });
        await loadSessions();
      })
    );
  };
  const remove = () =>
    void run(() =>
      serialize(session.id, async () => {
        await api().sessions.remove(session.id);
        onDeleted(session.id);
        await loadSessions();
      })
    );

  if (mode.value === "rename") {
    return (
      <li class="session editing">
        <form onSubmit={rename}>
          <input
            aria-label="Chat title"
            value={title.value}
            maxLength={500}
            ref={(input) => input?.focus()}
            onInput={(event) => title.value = event.currentTarget.value}
            onKeyDown={(event) => {
              if (event.key === "Escape") mode.value = "view";
            }}
          />
          <button type="submit" class="primary" disabled={busy.value}>Save</button>
          <button type="button" onClick={() => mode.value = "view"}>Cancel</button>
        </form>
        {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      </li>
    );
  }
  return (
    <li class={current ? "session current" : "session"}>
      <a
        href={path}
        aria-current={current ? "page" : undefined}
        onClick={(event) => onLink(event, path)}
      >
        <span class="session-title">{session.title}</span>
        <span class="session-time">{timeAgo(session.updatedAt)}</span>
      </a>
      {mode.value === "delete"
        ? (
          <span class="confirm" role="group" aria-label={`Delete "${session.title}"?`}>
            <button type="button" class="danger" disabled={busy.value} onClick={remove}>
              Delete
            </button>
            <button type="button" onClick={() => mode.value = "view"}>Keep</button>
          </span>
        )
        : (
          <span class="session-actions">
            <SaveCaseButton
              sessionId={session.id}
              class="icon"
              label={`Save "${session.title}" as an eval case`}
              text="⊕"
            />
            <button
              type="button"
              class="icon"
              aria-label={`Rename "${session.title}"`}
              title="Rename"
              onClick={() => {
                title.value = session.title;
                mode.value = "rename";
              }}
            >
              ✎
            </button>
            <button
              type="button"
              class="icon"
              aria-label={`Delete "${session.title}"`}
              title="Delete"
              onClick={() => mode.value = "delete"}
            >
              ✕
            </button>
          </span>
        )}
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
    </li>
  );
}

/** The first words of a message, for a chat that has no title yet. */
function clip(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** Which chat a waiting request belongs to, as a link that opens it (or why there is none). */
function Origin({ interaction }: { interaction: Interaction }) {
  const runId = interaction.runId;
  if (interaction.kind === "proxy-hold") {
    return <>Held by Lass's proxy: {interaction.client?.name ?? "a client"} is waiting.</>;
  }
  if (!runId) return <>Not from a chat: a tool server asked outside one (e.g. the inspector).</>;
  const live = chatOfRun(runId);
  const sessionId = live?.id ?? runSessions.value.get(runId);
  if (!sessionId) return <>From a chat run outside this page (run {runId.slice(0, 8)}).</>;
  const title = sessions.value?.find((session) => session.id === sessionId)?.title ??
    (live?.turns.value[0]?.user ? clip(live.turns.value[0].user) : "a new chat");
  const path = `/chat/${encodeURIComponent(sessionId)}`;
  return (
    <>
      From the chat{" "}
      <a href={path} title="Open this chat" onClick={(event) => onLink(event, path)}>{title}</a>
    </>
  );
}

/** The props of {@link Sidebar}. */
export interface SidebarProps {
  /** The open chat's session id. */
  currentId: string | null;
  /** Run ids of the open chat: their interactions are shown in the chat, not here. */
  shownRuns: Set<string>;
  onNewChat: () => void;
  onDeleted: (id: string) => void;
}

/** The sidebar. */
export function Sidebar({ currentId, shownRuns, onNewChat, onDeleted }: SidebarProps) {
  const list = sessions.value;
  const elsewhere = pending.value.filter((interaction) =>
    !interaction.runId || !shownRuns.has(interaction.runId)
  );
  return (
    <>
      <button type="button" class="new-chat primary" onClick={onNewChat}>New chat</button>
      {elsewhere.length > 0
        ? (
          <section class="waiting" aria-labelledby="waiting-heading">
            <h2 id="waiting-heading">Waiting for you ({elsewhere.length})</h2>
            {elsewhere.map((interaction) => (
              <InteractionCard
                key={interaction.id}
                interaction={interaction}
                origin={<Origin interaction={interaction} />}
              />
            ))}
          </section>
        )
        : null}
      <nav class="sessions" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Chats</h2>
        {sessionsError.value ? <p class="error" role="alert">{sessionsError.value}</p> : null}
        {list === null
          ? <p class="hint">Loading…</p>
          : list.length === 0
          ? <p class="hint">No saved chats yet.</p>
          : (
            <ul>
              {list.map((session) => (
                <SessionItem
                  key={session.id}
                  session={session}
                  current={session.id === currentId}
                  onDeleted={onDeleted}
                />
              ))}
            </ul>
          )}
      </nav>
    </>
  );
}
