/** The app shell: top bar, sidebar, and the page of the current route. */
import { computed, effect, signal } from "@preact/signals";
import type { ComponentType } from "preact";
import { Chat } from "./chat/controller.ts";
import { ChatPage } from "./chat/page.tsx";
import { rememberChat, runningChat } from "./chat/registry.ts";
import { onLink, Sidebar } from "./sidebar.tsx";
import { auth, bootstrap, live, navigate, pending, route } from "./state.ts";
import { closeDrawer, narrow, revealWaiting, sidebarOpen, WAITING_SHORTCUT } from "./drawer.ts";

/** {@link WAITING_SHORTCUT} from anywhere brings the first waiting request to the focus. */
addEventListener("keydown", (event) => {
  if (event.altKey && event.shiftKey && !event.ctrlKey && event.code === "KeyW") {
    if (pending.peek().length === 0) return;
    event.preventDefault();
    revealWaiting();
  }
});

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
  rememberChat(chat);
  current.value = chat;
}

function newChat(): void {
  closeDrawer();
  open(new Chat());
  navigate("/");
}

/** Follows the route: opens the chat a `/chat/<id>` URL names, or a new one for `/`. */
export function startRouting(): void {
  open(current.peek());
  // A page opened from the drawer is shown in its place.
  effect(() => {
    route.value;
    closeDrawer();
  });
  effect(() => {
    const id = chatIdOf(route.value);
    const chat = current.peek();
    if (id === null) {
      if (chat.saved.peek() || chat.turns.peek().length > 0) open(new Chat());
    } else if (id !== undefined && id !== chat.id) {
      // A chat still answering in this tab comes back as it is, with its streaming turn.
      const running = runningChat(id);
      const opened = running ?? new Chat(id);
      open(opened);
      if (!running) void opened.load();
    }
  });
}

/** Run ids of the open chat's turns. */
const shownRuns = computed(() =>
  new Set(current.value.turns.value.flatMap((turn) => turn.runId.value ?? []))
);

/** A page besides the chat: a module whose default export draws the page for a path. */
type PageModule = { default: ComponentType<{ path: string }> };

/** Pages besides the chat by path prefix, each its own chunk, loaded when first shown. */
const PAGES: [RegExp, () => Promise<PageModule>][] = [
  [/^\/settings(\/|$)/, () => import("./settings/page.tsx")],
  [/^\/inspector(\/|$)/, () => import("./inspector/page.tsx")],
  [/^\/events\/?$/, () => import("./events/page.tsx")],
  [/^\/evals\/?$/, () => import("./evals/page.tsx")],
  [/^\/playground\/?$/, () => import("./genui/playground.tsx")],
];

const loaded = signal(new Map<number, ComponentType<{ path: string }>>());
const loading = new Set<number>();
const loadError = signal<string | null>(null);

function OtherPage({ path }: { path: string }) {
  const index = PAGES.findIndex(([pattern]) => pattern.test(path));
  if (index < 0) return <NotFound path={path} />;
  const Page = loaded.value.get(index);
  if (Page) return <Page path={path} />;
  if (!loading.has(index)) {
    loading.add(index);
    PAGES[index][1]().then(
      (module) => loaded.value = new Map(loaded.peek()).set(index, module.default),
      (error) => {
        loading.delete(index);
        loadError.value = `This page could not be loaded: ${error}`;
      },
    );
  }
  if (loadError.value) return <p class="error" role="alert">{loadError.value}</p>;
  return <p class="loading">Loading…</p>;
}

function NotFound({ path }: { path: string }) {
  return (
    <section class="not-found">
      <h1>Not found</h1>
      <p>
        There is no page at <code>{path}</code>.{" "}
        <a href="/" onClick={(event) => onLink(event, "/")}>Back to the chat</a>
      </p>
    </section>
  );
}

/** The main navigation: chat and the pages beside it. */
const NAV: [string, string, RegExp][] = [
  ["/", "Chat", /^\/($|chat)/],
  ["/settings", "Settings", /^\/settings/],
  ["/inspector", "Inspector", /^\/inspector/],
  ["/events", "Events", /^\/events/],
  ["/evals", "Evals", /^\/evals/],
  ["/playground", "UI playground", /^\/playground/],
];

function Nav({ path }: { path: string }) {
  return (
    <nav class="main-nav" aria-label="Pages">
      {NAV.map(([href, label, pattern]) => (
        <a
          key={href}
          href={href}
          aria-current={pattern.test(path) ? "page" : undefined}
          onClick={(event) => onLink(event, href)}
        >
          {label}
        </a>
      ))}
    </nav>
  );
}

/** The button that shows and hides the sidebar (a drawer on narrow screens). */
function SidebarToggle() {
  const open = sidebarOpen.value;
  return (
    <button
      type="button"
      id="sidebar-toggle"
      class="icon sidebar-toggle"
      aria-label="Chats"
      aria-controls="sidebar"
      aria-expanded={open}
      title={open ? "Hide the chats" : "Show the chats"}
      onClick={() => {
        sidebarOpen.value = !open;
        // The drawer of a narrow screen takes the focus, so the keyboard goes on inside it.
        if (!open && narrow.peek()) {
          requestAnimationFrame(() =>
            document.querySelector<HTMLElement>("#sidebar button, #sidebar a")?.focus()
          );
        }
      }}
    >
      ☰
    </button>
  );
}

/** Escape in the drawer closes it and gives the focus back to its button. */
function onDrawerKey(event: KeyboardEvent): void {
  if (event.key !== "Escape" || !narrow.peek() || event.defaultPrevented) return;
  closeDrawer();
  document.getElementById("sidebar-toggle")?.focus();
}

/** A click on a link in the drawer: the drawer gives way to the page it opens. */
function onDrawerClick(event: MouseEvent): void {
  if ((event.target as Element).closest("a")) closeDrawer();
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
  const drawer = narrow.value && sidebarOpen.value;
  return (
    <div class={sidebarOpen.value ? "app" : "app sidebar-closed"}>
      <a
        class="skip-link"
        href={chatId === undefined ? "#page" : "#composer"}
        onClick={(event) => {
          // Focus the target without putting a fragment into the URL.
          event.preventDefault();
          document.getElementById(chatId === undefined ? "page" : "composer")?.focus();
        }}
      >
        {chatId === undefined ? "Skip to the page" : "Skip to the message box"}
      </a>
      <header class="topbar">
        <SidebarToggle />
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
        <Nav path={path} />
        <span class="spacer" />
        <span role="status" class="waiting-status">
          {waiting > 0
            ? (
              <button
                type="button"
                class="badge badge-waiting"
                aria-keyshortcuts={WAITING_SHORTCUT}
                title={`Show what waits for you (${WAITING_SHORTCUT})`}
                onClick={() => revealWaiting()}
              >
                {waiting} waiting
              </button>
            )
            : null}
        </span>
        <span
          class={live.value ? "live on" : "live"}
          title={live.value
            ? "Live: following the event stream"
            : "Not connected to the event stream"}
        >
          <span class="visually-hidden">{live.value ? "Live" : "Offline"}</span>
        </span>
      </header>
      {drawer ? <div class="sidebar-backdrop" onClick={closeDrawer} /> : null}
      <aside
        id="sidebar"
        class="sidebar"
        aria-label="Chats and pending requests"
        onKeyDown={onDrawerKey}
        onClick={onDrawerClick}
      >
        <Sidebar
          currentId={chatId === undefined ? null : chat.saved.value ? chat.id : null}
          shownRuns={chatId === undefined ? new Set() : shownRuns.value}
          onNewChat={newChat}
          onDeleted={(id) => {
            if (current.peek().id === id) newChat();
          }}
        />
      </aside>
      <main class="page" id="page" tabIndex={-1}>
        {chatId === undefined ? <OtherPage path={path} /> : <ChatPage key={chat.id} chat={chat} />}
      </main>
    </div>
  );
}
