/** The app shell: top bar, sidebar, and the page of the current route. */
import { computed, effect, signal } from "@preact/signals";
import type { ComponentType } from "preact";
import { Chat } from "./chat/controller.ts";
import { ChatPage } from "./chat/page.tsx";
import { Sidebar } from "./sidebar.tsx";
import { auth, bootstrap, live, navigate, pending, route } from "./state.ts";

/** The open chat (set through {@link open}). */
const current = signal<Chat>(new Chat());

/** The session id in a chat route, `null` for a new chat, `undefined` for another page. */
function chatIdOf(path: string): string | null | undefined {
  if (path === "/" || path === "/chat") return null;
  const match = /^\/chat\/([^/]+)$/.exec(path);
  return match ? decodeURIComponent(match[1]) : undefined;
}

function open(chat: Chat): void {
  chat.onSaved = (saved) => {
    // A new chat gets its URL once it is stored, if it is still the one shown.
    if (current.peek() === saved) {
      navigate(`/chat/${encodeURIComponent(saved.id)}`, { replace: true });
    }
  };
  current.value = chat;
}

function newChat(): void {
  open(new Chat());
  navigate("/");
}

/** Follows the route: opens the chat a `/chat/<id>` URL names, or a new one for `/`. */
export function startRouting(): void {
  open(current.peek());
  effect(() => {
    const id = chatIdOf(route.value);
    const chat = current.peek();
    if (id === null) {
      if (chat.saved.peek() || chat.turns.peek().length > 0) open(new Chat());
    } else if (id !== undefined && id !== chat.id) {
      const opened = new Chat(id);
      open(opened);
      void opened.load();
    }
  });
}

/** Run ids of the open chat's turns. */
const shownRuns = computed(() =>
  new Set(current.value.turns.value.flatMap((turn) => turn.runId.value ?? []))
);

/** Pages besides the chat, loaded when first shown. */
const later = signal<ComponentType<{ path: string }> | null>(null);
let loadingLater = false;

function OtherPage({ path }: { path: string }) {
  const Page = later.value;
  if (!Page) {
    if (!loadingLater) {
      loadingLater = true;
      import("./pages/later.tsx").then((module) => later.value = module.default);
    }
    return <p class="loading">Loading…</p>;
  }
  return <Page path={path} />;
}

function TokenRefused() {
  return (
    <main class="token-problem">
      <h1>Open Lass from the terminal</h1>
      <p>
        Lass no longer accepts this tab's token: it was probably restarted, and the token is new at
        every start (unless <code>LASS_TOKEN</code>{" "}
        is set). Open the URL that Lass printed in the terminal when it started.
      </p>
    </main>
  );
}

/** The whole app. */
export function App() {
  if (auth.value === "refused") return <TokenRefused />;
  const path = route.value;
  const chatId = chatIdOf(path);
  const chat = current.value;
  const waiting = pending.value.length;
  return (
    <div class="app">
      <a
        class="skip-link"
        href="#composer"
        onClick={(event) => {
          // Focus the box without putting a fragment into the URL.
          event.preventDefault();
          document.getElementById("composer")?.focus();
        }}
      >
        Skip to the message box
      </a>
      <header class="topbar">
        <a
          class="brand"
          href="/"
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey) return;
            event.preventDefault();
            newChat();
          }}
        >
          Lass
        </a>
        {bootstrap.value ? <span class="version">{bootstrap.value.version}</span> : null}
        <span class="spacer" />
        {waiting > 0
          ? <span class="badge badge-waiting" role="status">{waiting} waiting</span>
          : null}
        <span
          class={live.value ? "live on" : "live"}
          title={live.value
            ? "Live: following the event stream"
            : "Not connected to the event stream"}
        >
          <span class="visually-hidden">{live.value ? "Live" : "Offline"}</span>
        </span>
      </header>
      <aside class="sidebar" aria-label="Chats and pending requests">
        <Sidebar
          currentId={chatId === undefined ? null : chat.saved.value ? chat.id : null}
          shownRuns={chatId === undefined ? new Set() : shownRuns.value}
          onNewChat={newChat}
          onDeleted={(id) => {
            if (current.peek().id === id) newChat();
          }}
        />
      </aside>
      <main class="page">
        {chatId === undefined ? <OtherPage path={path} /> : <ChatPage key={chat.id} chat={chat} />}
      </main>
    </div>
  );
}
