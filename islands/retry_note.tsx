/**
 * A failed server's reconnects, where its state is shown: "retrying in 4 s (attempt 3 of 5)",
 * ticking, or why Lass stopped.
 */
import { retryWords } from "../wire/words.ts";
import type { ToolServerState } from "../wire/tool_servers.ts";
import { now } from "./clock.ts";

/** The retry line of a server's state, or nothing when Lass is not reconnecting it. */
export function RetryNote({ state }: { state: ToolServerState }) {
  const retry = state.retry;
  if (!retry || (state.status !== "error" && state.status !== "connecting")) return null;
  return (
    <span class={`retry-note hint${retry.stopped ? " is-stopped" : ""}`}>
      {retryWords(retry, { connecting: state.status === "connecting", now: now() })}
    </span>
  );
}
