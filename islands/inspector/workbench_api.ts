/**
 * Typed wrappers of the routes the inspector's workbench uses: a server's trace (followed),
 * argument completion, the log level, resource subscriptions and ping. They go through
 * the app's one API client.
 */
import { api } from "../state.ts";
import type { TraceMessage } from "../../wire/trace.ts";
import type { Completion, CompletionRef, LogLevel, PingResult } from "../../wire/tool_servers.ts";

const path = (id: string, action: string) => `/api/mcp/${encodeURIComponent(id)}/${action}`;

/** The workbench's routes. */
export const workbenchApi = {
  /** The recorded messages after `since`, then the live ones, until `signal` aborts. */
  followTrace: (id: string, since: number | undefined, signal: AbortSignal) =>
    api().lines<TraceMessage>(
      path(id, `trace?follow=1${since === undefined ? "" : `&since=${since}`}`),
      signal,
    ),
  complete: (
    id: string,
    body: { ref: CompletionRef; argument: { name: string; value: string } } & {
      context?: { arguments: Record<string, string> };
    },
  ) => api().json<Completion>("POST", path(id, "complete"), body),
  setLogLevel: (id: string, level: LogLevel) =>
    api().json<{ ok: true }>("POST", path(id, "log-level"), { level }),
  subscribe: (id: string, uri: string) =>
    api().json<{ ok: true }>("POST", path(id, "subscribe"), { uri }),
  unsubscribe: (id: string, uri: string) =>
    api().json<{ ok: true }>("POST", path(id, "unsubscribe"), { uri }),
  /** Round-trip time in ms, and how it was measured (`ping`, `server/discover` or HEAD). */
  ping: (id: string) => api().json<PingResult>("POST", path(id, "ping"), {}),
};
