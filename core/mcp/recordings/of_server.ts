/** The cassette of a configured server, from its wire trace: `GET /api/mcp/:id/cassette`. */
import type { Cassette } from "../../../wire/cassette.ts";
import type { ToolServerManager } from "../manager/manager.ts";
import { TRACE_CAPACITY } from "../session/trace.ts";
import { cassetteFromTrace } from "./from_trace.ts";

/** Which part of the trace becomes the cassette. */
export interface CassetteQuery {
  /** Only messages after this trace seq. */
  since?: number;
  /** One proxy session's messages; without it, Lass's own session's. */
  session?: string;
}

/**
 * A server's cassette: the trace messages the query picks (the ring holds the last 2,000), its
 * state for what the trace lacks, and its record's secrets removed; 404 for an unknown id.
 */
export function serverCassette(
  mcp: ToolServerManager,
  id: string,
  query: CassetteQuery = {},
): Cassette {
  const state = mcp.state(id);
  const messages = mcp.trace(id, { since: query.since, limit: TRACE_CAPACITY })
    .filter((message) =>
      query.session === undefined ? message.via === undefined : message.session === query.session
    );
  return cassetteFromTrace(messages, state, { secrets: mcp.secrets(id) });
}
