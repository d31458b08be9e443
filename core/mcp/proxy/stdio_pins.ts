/**
 * Pinning's `block` for `lass proxy <id>` over stdio, as for `/mcp/:id`: a connection of Lass's
 * own to the server (what the service keeps, and chat asks) finds the drift; the tools it holds
 * back are left out of the relayed `tools/list` answers, a call of one is answered by Lass, and
 * a change of what is held sends the client `notifications/tools/list_changed`.
 */
import type { ConfigStore } from "../../config/store.ts";
import type { EventBus } from "../../events.ts";
import type { ToolServerManager } from "../manager/manager.ts";
import { PinBlock, TOOLS_CHANGED, watchHeld } from "./pin_block.ts";
import type { StdioGate } from "./stdio_relay.ts";

/** What the gate needs of the Lass the command opened. */
export interface StdioPinDeps {
  config: ConfigStore;
  events: EventBus;
  mcp: ToolServerManager;
}

/**
 * The gate of a server whose record says `pinning: "block"` (none for any other): connects Lass's
 * own connection to it first, which compares its definitions with the pins. `page`: Lass's
 * inspector of the server, named in a refusal, when a running Lass is known.
 */
export async function stdioPinGate(
  deps: StdioPinDeps,
  serverId: string,
  page?: string,
): Promise<StdioGate | undefined> {
  const record = deps.config.config.mcpServers.find((server) => server.id === serverId);
  if (record?.pinning !== "block") return undefined;
  // A server Lass cannot reach itself is not compared (as in the service).
  await deps.mcp.connect(serverId).catch(() => {});
  const pins = new PinBlock((id) => deps.mcp.drift(id));
  return {
    refusal: (message) => pins.refusal(serverId, message, page),
    answer: (method, response) => pins.answer(serverId, method, response),
    watch: (send) =>
      watchHeld(deps.events, pins, (id) => {
        if (id === serverId) send(TOOLS_CHANGED);
      }),
  };
}
