/** A server's lists with its pins reviewed: the state shows the drift, announced once applied. */
import type { ServiceConfig } from "../../../wire/config/schema.ts";
import type { ConnectionState } from "../../../wire/tool_servers.ts";
import type { PinKeeper } from "../pinning/keeper.ts";
import type { Entry } from "./entry.ts";

/** A state with its `drift` reviewed, and the announcement to make once it is the entry's. */
export interface PinnedState {
  state: ConnectionState;
  announce(): void;
}

/** A state without its `drift`. */
export function withoutDrift(state: ConnectionState): ConnectionState {
  if (state.drift === undefined) return state;
  const { drift: _drift, ...rest } = state;
  return rest;
}

/**
 * Reviews a connected server's lists against its pins (without a keeper, or for a server that
 * is not connected, the state goes as it is). A review that fails (files) is logged and leaves
 * the state without a drift.
 */
export async function reviewPins(
  keeper: PinKeeper | undefined,
  entry: Entry,
  state: ConnectionState,
  warn: (message: string) => void,
): Promise<PinnedState> {
  const plain = withoutDrift(state);
  if (!keeper || state.status !== "connected") return { state: plain, announce: () => {} };
  try {
    const review = await keeper.review(entry.record, plain);
    return {
      state: review.drift ? { ...plain, drift: review.drift } : plain,
      announce: () => {
        if (review.news) keeper.announce(entry.record.id, review.drift);
      },
    };
  } catch (error) {
    warn(`pinning could not compare the definitions: ${(error as Error).message}`);
    return { state: plain, announce: () => {} };
  }
}

/**
 * After a config change: connected servers whose `pinning` changed are reviewed again (off drops
 * the drift; warn and block compare), without a reconnect.
 */
export function repinChanged(
  entries: ReadonlyMap<string, Entry>,
  previous: ServiceConfig,
  review: (entry: Entry, state: ConnectionState) => Promise<PinnedState>,
): void {
  const modes = new Map(previous.mcpServers.map((record) => [record.id, record.pinning]));
  for (const [id, entry] of entries) {
    const session = entry.session;
    if (!modes.has(id) || modes.get(id) === entry.record.pinning) continue;
    if (!session || entry.state.status !== "connected") continue;
    review(entry, entry.state).then((pinned) => {
      if (entry.session !== session) return;
      entry.state = pinned.state;
      pinned.announce();
    }).catch(() => {});
  }
}
