/**
 * The span a tool call runs in, carried through the async calls it makes (the manager, the MCP
 * client, the transport) so that each MCP request it sends becomes its child and carries the
 * trace to the server. Nothing is stored while telemetry is off.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { TraceSpan } from "./types.ts";

const activeSpan = new AsyncLocalStorage<TraceSpan>();

/** Runs `work` with `span` as the span of the MCP requests it sends. */
export function runInSpan<T>(span: TraceSpan, work: () => T): T {
  return activeSpan.run(span, work);
}

/** The span the current tool call runs in, if telemetry traces it. */
export function currentSpan(): TraceSpan | undefined {
  return activeSpan.getStore();
}
