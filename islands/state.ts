/**
 * State the whole app shares, as signals: the route, the bootstrap (config), the stored sessions
 * and the pending interactions, kept current by one subscription to the event stream.
 */
import { batch, signal } from "@preact/signals";
import { type Api, ApiError, createApi } from "./api.ts";
import { forgetToken } from "./token.ts";
import type { Bootstrap } from "../wire/bootstrap.ts";
import type { LassEvent } from "../wire/events.ts";
import type { Interaction } from "../wire/interactions.ts";
import type { SessionSummary } from "../wire/sessions.ts";

/** The path the app shows. */
export const route = signal(location.pathname);

/** Shows `path` (a client route), adding a history entry unless `replace`. */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === location.pathname) return;
  if (options.replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  // The route is the path alone; a query (`/events?run=...`) stays for the page to read.
  route.value = location.pathname;
}

addEventListener("popstate", () => route.value = location.pathname);

/** `refused`: Lass answered 401 (it restarted with a new token). */
export const auth = signal<"ok" | "refused">("ok");

let client: Api | undefined;
let tabToken: string | undefined;

/** The API client, once {@link startApp} has run. */
export function api(): Api {
  if (!client) throw new Error("the app has not started");
  return client;
}

export const bootstrap = signal<Bootstrap | null>(null);
export const bootError = signal<string | null>(null);
export const sessions = signal<SessionSummary[] | null>(null);
export const sessionsError = signal<string | null>(null);
/** Pending interactions, oldest first. */
export const pending = signal<Interaction[]>([]);
/** Whether the event stream is connected (interactions arrive live). */
export const live = signal(false);
/** The session of each chat run seen on the event stream (`chat.start`), newest 500. */
export const runSessions = signal<ReadonlyMap<string, string>>(new Map());

function noteRunSession(runId: unknown, sessionId: unknown): void {
  if (typeof runId !== "string" || typeof sessionId !== "string") return;
  const next = new Map(runSessions.peek()).set(runId, sessionId);
  for (const oldest of next.keys()) {
    if (next.size <= 500) break;
    next.delete(oldest);
  }
  runSessions.value = next;
}

/** A sentence for an error of a call. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export async function loadBootstrap(): Promise<void> {
  try {
    bootstrap.value = await api().bootstrap();
    bootError.value = null;
  } catch (error) {
    bootError.value = describeError(error);
  }
}

export async function loadSessions(): Promise<void> {
  try {
    const list = await api().sessions.list();
    batch(() => {
      sessions.value = list;
      sessionsError.value = null;
    });
  } catch (error) {
    sessionsError.value = describeError(error);
  }
}

const chains = new Map<string, Promise<unknown>>();

/** Runs writes of one session one after another (a turn, saving its details, a rename). */
export function serialize<T>(sessionId: string, run: () => Promise<T>): Promise<T> {
  const previous = chains.get(sessionId) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(run);
  const settled = next.catch(() => {});
  chains.set(sessionId, settled);
  settled.then(() => {
    if (chains.get(sessionId) === settled) chains.delete(sessionId);
  });
  return next;
}

function debounce(run: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(run, ms);
  };
}

const reloadBootstrap = debounce(() => void loadBootstrap(), 100);
const reloadSessions = debounce(() => void loadSessions(), 150);

export function addPending(interaction: Interaction): void {
  if (pending.value.some((known) => known.id === interaction.id)) return;
  pending.value = [...pending.value, interaction];
}

export function removePending(id: string): void {
  if (pending.value.some((known) => known.id === id)) {
    pending.value = pending.value.filter((known) => known.id !== id);
  }
}

const listeners = new Set<(event: LassEvent) => void>();

/**
 * Calls `listener` with every event of the app's one event stream (`GET /api/events`) from now
 * on; returns the function that stops it. Pages use this instead of opening their own stream.
 */
export function subscribe(listener: (event: LassEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function onEvent(event: LassEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      console.error("an event listener failed", error);
    }
  }
  switch (event.type) {
    case "interaction.created":
      addPending(event.data.interaction as Interaction);
      break;
    case "interaction.resolved":
      removePending(String(event.data.id));
      break;
    case "config.changed":
      reloadBootstrap();
      break;
    case "chat.start":
      noteRunSession(event.data.runId, event.data.sessionId);
      // A chat the sidebar does not list yet (made by another client): its title is needed.
      if (
        event.data.sessionId &&
        !sessions.peek()?.some((session) => session.id === event.data.sessionId)
      ) reloadSessions();
      break;
    case "chat.finish":
      if (event.data.sessionId) reloadSessions();
      break;
  }
}

function sleep(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop.removeEventListener("abort", done);
      resolve();
    }
    stop.addEventListener("abort", done, { once: true });
  });
}

/** Follows `GET /api/events`; a dropped stream reconnects with `?since=` the last seq seen. */
async function followEvents(stop: AbortSignal): Promise<void> {
  let since: number | undefined;
  let delay = 500;
  while (!stop.aborted && auth.value === "ok") {
    try {
      if (since === undefined) {
        // The list first, then the buffered events replayed on top of it: nothing is missed.
        pending.value = await api().interactions.list();
      }
      const lines = await api().events(since, stop);
      live.value = true;
      delay = 500;
      for await (const line of lines) {
        if (line.type === "dropped") break;
        if (!("seq" in line)) continue;
        since = line.seq;
        onEvent(line);
      }
    } catch (error) {
      if (stop.aborted || (error instanceof ApiError && error.status === 401)) break;
    }
    live.value = false;
    await sleep(delay, stop);
    delay = Math.min(delay * 2, 10_000);
  }
  live.value = false;
}

/** The service token this tab talks to Lass with (for snippets that need it). */
export function serviceToken(): string | undefined {
  return tabToken;
}

/** Creates the API client with the tab's token and loads what every page needs. */
export function startApp(token: string): void {
  tabToken = token;
  const stop = new AbortController();
  client = createApi(token, {
    onUnauthorized: () => {
      forgetToken();
      auth.value = "refused";
      stop.abort();
    },
  });
  void loadBootstrap();
  void loadSessions();
  void followEvents(stop.signal);
}
