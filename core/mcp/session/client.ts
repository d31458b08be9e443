/**
 * The MCP SDK (v2) behind one entry point: open a session to a tool server over stdio, Streamable
 * HTTP, SSE or in process, in the 2026-07-28 era, the 2025 era, or whichever the server speaks.
 * The session's types are in this room's `types.ts`; one connect is `connectOnce`.
 */
import { isAuthFailure, isNetworkFailure, isTimeout } from "./errors.ts";
import { connectOnce } from "./connect.ts";
import type { SessionOpener, TransportSpec } from "./types.ts";

/**
 * Opens a session. Under `auto` the SDK probes `server/discover` and falls back to `initialize`;
 * a probe that a broken gateway answers badly (5xx, an empty answer, a hang) is retried as
 * `legacy` on a fresh connection, so `auto` reaches every server that `legacy` reaches.
 */
export const openSession: SessionOpener = async (spec, handlers, options) => {
  const era = options.era ?? "auto";
  const started = performance.now();
  if (era !== "auto" || options.prior) return await connectOnce(spec, handlers, options);
  const probeMs = probeTimeout(spec, options.timeoutMs);
  try {
    return await connectOnce(spec, handlers, { ...options, probeMs });
  } catch (error) {
    if (isAuthFailure(error) || isUnreachable(spec, error)) throw error;
    const left = options.timeoutMs - (performance.now() - started);
    return await connectOnce(spec, handlers, {
      timeoutMs: Math.max(1000, left),
      era: "legacy",
      logLevel: options.logLevel,
    });
  }
};

/**
 * How long the `auto` probe may take: a third of the connect timeout (1 to 5 s) over HTTP, where
 * the fallback needs the rest; half of it on stdio, where the probe includes a process start.
 */
function probeTimeout(spec: TransportSpec, timeoutMs: number): number {
  if (spec.kind === "stdio") return Math.max(1000, Math.floor(timeoutMs / 2));
  return Math.max(1000, Math.min(5000, Math.floor(timeoutMs / 3)));
}

/**
 * Whether a failure would repeat under any era: nothing to reach, nothing to start, or a stdio
 * server that did not answer `initialize` or exited before it was ready (the SDK probes on a
 * process of its own, so the session's process met only `initialize`).
 */
function isUnreachable(spec: TransportSpec, error: unknown): boolean {
  if (spec.kind !== "stdio") return isNetworkFailure(error);
  const message = (error as Error)?.message ?? "";
  return isTimeout(error) || /ENOENT|not found|No such file|connection closed/i.test(message);
}
