/**
 * The MCP Apps bridge in the server's wire trace: every message between the host and a View goes
 * to `POST /api/mcp/:id/trace` (`view-out` host → View, `view-in` View → host), batched, with `ms`
 * on a response measured here. Best effort: a View never waits for it or fails because of it.
 */
import { ApiError } from "../api.ts";
import { api } from "../state.ts";
import type { Direction } from "./mcp_transport.ts";
import type { JsonRpcMessage } from "./mcp_types.ts";

/** Unsent messages kept at most: past that the oldest are dropped (a slow or hanging API). */
export const MAX_QUEUED_TRACE_MESSAGES = 500;
/** The most messages one request carries (the route's limit). */
const BATCH = 100;
/** How long messages gather before they are sent. */
const FLUSH_MS = 150;
/** Requests of one View waiting for their response, per direction, for `ms`. */
const MAX_PENDING = 200;

interface Queued {
  serverId: string;
  dir: "view-out" | "view-in";
  message: JsonRpcMessage;
  ms?: number;
}

const queue: Queued[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let sending = false;

/** A recorder for one View's bridge: pass it each message that crosses, in either direction. */
export function viewTrace(
  serverId: string,
): (direction: Direction, message: JsonRpcMessage) => void {
  const asked: Record<Direction, Map<unknown, number>> = {
    "to-app": new Map(),
    "from-app": new Map(),
  };
  return (direction, message) => {
    const { id, method } = message as { id?: unknown; method?: unknown };
    let ms: number | undefined;
    if (id !== undefined && id !== null) {
      if (typeof method === "string") {
        const mine = asked[direction];
        mine.set(id, performance.now());
        if (mine.size > MAX_PENDING) mine.delete(mine.keys().next().value);
      } else {
        const theirs = asked[direction === "to-app" ? "from-app" : "to-app"];
        const started = theirs.get(id);
        if (started !== undefined) {
          theirs.delete(id);
          ms = Math.round((performance.now() - started) * 100) / 100;
        }
      }
    }
    const dir = direction === "to-app" ? "view-out" : "view-in";
    queue.push({ serverId, dir, message, ...(ms !== undefined && { ms }) });
    if (queue.length > MAX_QUEUED_TRACE_MESSAGES) {
      queue.splice(0, queue.length - MAX_QUEUED_TRACE_MESSAGES);
    }
    timer ??= setTimeout(() => void drain(), FLUSH_MS);
  };
}

/** Sends what waits, one request at a time, each with up to 100 messages of one server. */
async function drain(): Promise<void> {
  timer = undefined;
  if (sending) return;
  sending = true;
  try {
    while (queue.length > 0) {
      const serverId = queue[0].serverId;
      const batch: Queued[] = [];
      for (let i = 0; i < queue.length && batch.length < BATCH;) {
        if (queue[i].serverId === serverId) batch.push(...queue.splice(i, 1));
        else i++;
      }
      try {
        await api().json("POST", `/api/mcp/${encodeURIComponent(serverId)}/trace`, {
          messages: batch.map(({ dir, message, ms }) => ({ dir, message, ms })),
        });
      } catch (error) {
        // Lass out of reach: the rest would fail too, drop it rather than retry each.
        if (error instanceof ApiError && error.status === 0) queue.length = 0;
      }
    }
  } finally {
    sending = false;
  }
}
