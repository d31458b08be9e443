/**
 * The tool-server routes' answers that are not a bare `ToolServerState` (`wire/bootstrap.ts`): the
 * server's types, re-exported as types only, so a browser bundle never contains server code.
 */
export type { ImportFormat, ImportResult, ImportSecret } from "../core/mcp/import.ts";
import type { ToolServerState } from "../core/mcp/state.ts";

/** The answer of `POST /api/mcp/test`: the draft's state after connecting, and how long it took. */
export type ServerProbe = ToolServerState & { ok: boolean; latencyMs: number };
