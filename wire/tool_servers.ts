/**
 * The tool-server routes' answers that are not a bare `ToolServerState` (`wire/bootstrap.ts`): the
 * server's types, re-exported as types only, so a browser bundle never contains server code.
 */
export type { ImportFormat, ImportResult, ImportSecret } from "../core/mcp/import.ts";
import type { ToolServerState } from "../core/mcp/state.ts";

/** The answer of `POST /api/mcp/test`: the draft's state after connecting, and how long it took. */
export type ServerProbe = ToolServerState & { ok: boolean; latencyMs: number };

/** The MCP log levels, least severe first (`POST /api/mcp/:id/log-level`). */
export const LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One MCP log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What a completion is for: a prompt's argument or a resource template's variable. */
export type CompletionRef =
  | { type: "ref/prompt"; name: string }
  | { type: "ref/resource"; uri: string };

/** The body of `POST /api/mcp/:id/complete`. */
export interface CompletionRequest {
  ref: CompletionRef;
  argument: { name: string; value: string };
  /** Values of the other arguments, which may narrow the suggestions. */
  context?: { arguments?: Record<string, string> };
}

/** The answer of `POST /api/mcp/:id/complete`: suggested values (at most 100). */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** The answer of `POST /api/mcp/:id/ping`: the round trip in milliseconds. */
export interface PingResult {
  ok: true;
  ms: number;
}
