/**
 * Pinning's `block` for the proxy's clients: the tools a server's drift holds back from chat (added
 * or changed since pinned, until accepted) are left out of the `tools/list` answers that pass to
 * its clients, and a `tools/call` of one is answered by Lass with an error the server never sees.
 */
import type { EventBus } from "../../events.ts";
import type { DriftEventData } from "../../../wire/events.ts";
import type { PinDrift } from "../../../wire/pinning.ts";
import { CHANGED_SINCE_PINNED, heldTools } from "../pinning/held.ts";
import { isRequest, isResponse, type RpcMessage } from "./messages.ts";

/**
 * The JSON-RPC error code of a call to a held tool: "Invalid params", as a server answers a call
 * of a tool it does not list (the client's list does not have it either).
 */
export const HELD_TOOL_CODE = -32602;

/** The tools the proxy keeps from the clients of each server, from the servers' drifts. */
export class PinBlock {
  readonly #drift: (serverId: string) => PinDrift | undefined;
  /** The held names of each drift, worked out once (a review brings a new drift object). */
  readonly #held = new WeakMap<PinDrift, ReadonlySet<string>>();

  /** `drift`: the server's drift as Lass's own connection found it (what chat asks too). */
  constructor(drift: (serverId: string) => PinDrift | undefined) {
    this.#drift = drift;
  }

  /** The names of the tools held back from the clients of a server now. */
  held(serverId: string): ReadonlySet<string> {
    const drift = this.#drift(serverId);
    if (!drift) return NONE;
    let names = this.#held.get(drift);
    if (!names) {
      names = heldTools(drift);
      this.#held.set(drift, names);
    }
    return names;
  }

  /** Whether the server's clients are kept from any tool (cheap: no drift, nothing to do). */
  active(serverId: string): boolean {
    return this.held(serverId).size > 0;
  }

  /** The held tool a client's `tools/call` names, which Lass refuses; else `undefined`. */
  refused(serverId: string, message: RpcMessage): string | undefined {
    if (message.method !== "tools/call" || !isRequest(message)) return undefined;
    const tool = message.params?.name;
    return typeof tool === "string" && this.held(serverId).has(tool) ? tool : undefined;
  }

  /**
   * Lass's answer to a client's `tools/call` of a held tool (`page`: Lass's inspector of the
   * server, where the change is accepted), or `undefined` for any other message.
   */
  refusal(serverId: string, message: RpcMessage, page?: string): RpcMessage | undefined {
    const tool = this.refused(serverId, message);
    if (tool === undefined) return undefined;
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: {
        code: HELD_TOOL_CODE,
        message: `the tool ${tool} of ${serverId} ${CHANGED_SINCE_PINNED}; accept it in Lass` +
          (page ? ` (${page})` : ""),
        data: { serverId, tool, reason: CHANGED_SINCE_PINNED, ...(page && { inspector: page }) },
      },
    };
  }

  /**
   * A server's answer to a client's request of `method` as the client gets it: a `tools/list`
   * answer without the held tools, any other as it is.
   */
  answer(serverId: string, method: string, response: RpcMessage): RpcMessage {
    if (method !== "tools/list") return response;
    const held = this.held(serverId);
    const result = response.result as { tools?: unknown } | undefined;
    if (held.size === 0 || !isResponse(response) || !Array.isArray(result?.tools)) return response;
    const tools = result.tools.filter((tool) => !held.has((tool as { name?: string })?.name ?? ""));
    if (tools.length === result.tools.length) return response;
    return { ...response, result: { ...result, tools } };
  }

  /** A key for the held names of a server: it changes when a client's list would. */
  key(serverId: string): string {
    return [...this.held(serverId)].sort().join("\n");
  }
}

const NONE: ReadonlySet<string> = new Set();

/** The notification that tells a client to read the tools again. */
export const TOOLS_CHANGED: RpcMessage = {
  jsonrpc: "2.0",
  method: "notifications/tools/list_changed",
};

/**
 * Calls `changed` with a server's id after each `mcp.drift` that changes which of its tools are
 * held back (a drift found under `block`, accepted, its `pinning` changed), or the first one seen
 * of it; until the returned function is called.
 */
export function watchHeld(
  events: EventBus,
  pins: PinBlock,
  changed: (serverId: string) => void,
): () => void {
  const seen = new Map<string, string>();
  return events.subscribe((event) => {
    if (event.type !== "mcp.drift") return;
    const { serverId } = event.data as unknown as DriftEventData;
    const key = pins.key(serverId);
    if (seen.get(serverId) === key) return;
    seen.set(serverId, key);
    changed(serverId);
  });
}
