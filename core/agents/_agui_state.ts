/** An AG-UI agent's shared state: followed through its events, kept in the chat history between turns. */
import type { ModelMessage } from "ai";
import jsonPatch, { type Operation } from "fast-json-patch";

/** The provider-options key of AG-UI messages (see `_agui_messages.ts`). */
const KEY = "agui";

/**
 * The agent's state as the last turn left it: `providerOptions.agui.state` of the latest message
 * that carries one (a stored session keeps it, and so does a client that keeps the history).
 * `{}` when no turn recorded a state.
 */
export function stateOf(messages: ModelMessage[]): unknown {
  for (let i = messages.length - 1; i >= 0; i--) {
    const agui = messages[i].providerOptions?.[KEY];
    if (agui && "state" in agui && agui.state !== undefined) return agui.state;
  }
  return {};
}

/**
 * The state after one event: `STATE_SNAPSHOT` replaces it, `STATE_DELTA` applies its JSON Patch
 * (RFC 6902) to a copy. A patch that does not apply leaves the state as it was, as the AG-UI
 * client does. Other events return `undefined`.
 */
export function nextState(
  state: unknown,
  event: { type: string; snapshot?: unknown; delta?: unknown },
): unknown {
  if (event.type === "STATE_SNAPSHOT") return event.snapshot ?? {};
  if (event.type !== "STATE_DELTA" || !Array.isArray(event.delta)) return undefined;
  try {
    return jsonPatch.applyPatch(structuredClone(state), event.delta as Operation[], true, false)
      .newDocument;
  } catch {
    return state;
  }
}
