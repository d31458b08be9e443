/**
 * What stands between a client and a server in the proxy, as one {@link HoldPoint}: the user's
 * holds and pinning's `block` (a call of a held tool is answered by Lass at once, before any hold;
 * the server's tool lists lose the held tools).
 */
import type { HoldPoint } from "./bridge.ts";
import type { HoldOutcome, ProxyHolds } from "./holds.ts";
import type { RpcMessage } from "./messages.ts";
import type { PinBlock } from "./pin_block.ts";

/** The holds and pins of one server; `page`: Lass's inspector of it, named in a refusal. */
export function gateOf(
  holds: ProxyHolds,
  pins: PinBlock,
  serverId: string,
  page?: string,
): HoldPoint {
  const refused = (message: RpcMessage): HoldOutcome | undefined => {
    const response = pins.refusal(serverId, message, page);
    return response && { action: "reply", response };
  };
  return {
    held: (message) =>
      holds.holds(serverId, message) || pins.refused(serverId, message) !== undefined,
    decide: async (session, dir, message) => {
      if (dir === "in") return await holds.decide(session, dir, message);
      const refusal = refused(message);
      if (refusal) return refusal;
      // Held for pinning alone, and accepted since: it goes on.
      if (!holds.holds(serverId, message)) return { action: "forward", message };
      const outcome = await holds.decide(session, dir, message);
      // A call the user forwarded (maybe edited to another tool) meets pinning again.
      return (outcome.action === "forward" && refused(outcome.message)) || outcome;
    },
    answer: (method, response) => pins.answer(serverId, method, response),
  };
}

/** Whether anything of the gate applies to a server now (none: messages pass untouched). */
export function gateActive(holds: ProxyHolds, pins: PinBlock, serverId: string): boolean {
  return holds.active(serverId) || pins.active(serverId);
}
