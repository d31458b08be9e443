/** The service's proxy: its sessions, traced into the servers' wire traces, and its endpoint. */
import type { ConfigStore } from "../../config/store.ts";
import type { EventBus } from "../../events.ts";
import type { InteractionRegistry } from "../../interactions.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import type { ToolServerManager } from "../manager/manager.ts";
import { ProxyEndpoint } from "./endpoint.ts";
import { type HoldSettings, ProxyHolds } from "./holds.ts";
import { ProxyRegistry } from "./registry.ts";
import { PinBlock, TOOLS_CHANGED, watchHeld } from "./pin_block.ts";

/** The proxy endpoint and the registry of its client sessions. */
export interface ToolServerProxy {
  endpoint: ProxyEndpoint;
  registry: ProxyRegistry;
  holds: ProxyHolds;
  /** Ends every session; stops watching the config. */
  close(): Promise<void>;
}

/**
 * Builds the proxy of a service. A record that is removed, changed or no longer proxied ends its
 * sessions (their clients see the session end and may start a new one).
 */
export function createProxy(
  manager: ToolServerManager,
  events: EventBus,
  config: ConfigStore,
  interactions: InteractionRegistry,
): ToolServerProxy {
  const registry = new ProxyRegistry(events, (id, origin) => manager.proxyChannel(id, origin));
  const settings = new WeakMap<McpServerConfig, HoldSettings>();
  const none: HoldSettings = { methods: new Set(), timeoutMs: 60_000 };
  const holds = new ProxyHolds(interactions, (id) => {
    const record = config.config.mcpServers.find((server) => server.id === id);
    if (!record) return none;
    let found = settings.get(record);
    if (!found) {
      found = { methods: new Set(record.holds ?? []), timeoutMs: record.holdTimeoutMs };
      settings.set(record, found);
    }
    return found;
  });
  const pins = new PinBlock((id) => manager.drift(id));
  const endpoint = new ProxyEndpoint({
    registry,
    holds,
    pins,
    target: (id) => manager.proxyTarget(id),
    stderr: (id, session, line) => manager.proxyStderr(id, session?.id ?? "shared", line),
  });
  const unsubscribe = config.subscribe((next, previous) => {
    holds.changed();
    const before = new Map(previous.mcpServers.map((record) => [record.id, record]));
    const after = new Map(next.mcpServers.map((record) => [record.id, record]));
    for (const [id, record] of before) {
      const now = after.get(id);
      if (!now) endpoint.closeServer(id, "removed").catch(() => {});
      else if (!now.proxy) endpoint.closeServer(id, "not proxied").catch(() => {});
      else if (JSON.stringify(now) !== JSON.stringify(record)) {
        endpoint.closeServer(id, "changed").catch(() => {});
      }
    }
  });
  // The clients read the tools again when what pinning holds back changes.
  const unwatch = watchHeld(events, pins, (id) => endpoint.notifyServer(id, TOOLS_CHANGED));
  return {
    endpoint,
    registry,
    holds,
    close: async () => {
      unsubscribe();
      unwatch();
      holds.close();
      await endpoint.close();
    },
  };
}
