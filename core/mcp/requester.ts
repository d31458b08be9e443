/**
 * Who asked Lass to send a request to a tool server: the inspector (the API's tool-server routes)
 * or a chat turn. It follows the work through `await`s (an `AsyncLocalStorage`), and the wire
 * trace marks each request Lass sends with it (`by` of a trace message). Requests Lass sends on
 * its own (connecting, refreshing lists, pings) have none.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { TraceRequester } from "../../wire/trace.ts";

const current = new AsyncLocalStorage<TraceRequester>();

/** Runs `work` with `requester` as the one who asks for the requests it sends. */
export function asRequester<T>(requester: TraceRequester, work: () => T): T {
  return current.run(requester, work);
}

/** Who asks for the request being sent now, if anyone. */
export function currentRequester(): TraceRequester | undefined {
  return current.getStore();
}

/** Runs `work` as Lass's own: no one asks for the requests it sends, nor for later ones it starts. */
export function withoutRequester<T>(work: () => T): T {
  // Not `exit`: under Deno 2.9 the store comes back after the first `await` inside it.
  return current.run(undefined as unknown as TraceRequester, work);
}
