/**
 * The protocol controls of a tool server, in the contract's terms: argument completion, the log
 * level, resource subscriptions, ping, re-reading the lists, and announcing changed roots.
 */
import { LassError } from "../../errors.ts";
import type { EventBus } from "../../events.ts";
import type {
  Completion,
  CompletionRequest,
  LogLevel,
  PingResult,
  PingVia,
} from "../../../wire/tool_servers.ts";
import type { McpSession } from "../session/types.ts";
import { type CallHost, runRequest } from "./calls.ts";
import { type Entry, stateOf } from "./entry.ts";
import { readList } from "./establish.ts";
import type { ToolServerState } from "../../../wire/tool_servers.ts";

/**
 * Suggestions for a prompt argument or a resource-template variable: none without the capability,
 * and none while the server is not connected (suggestions, asked for while typing, never connect
 * a server, so one the user just disconnected stays so).
 */
export async function complete(
  host: CallHost,
  entry: Entry,
  request: CompletionRequest,
): Promise<Completion> {
  if (entry.state.status !== "connected") return { values: [] };
  const id = entry.record.id;
  const target = request.ref.type === "ref/prompt"
    ? `the prompt ${request.ref.name}`
    : `the resource template ${request.ref.uri}`;
  return await runRequest(
    host,
    entry,
    `completing ${request.argument.name} of ${target} on ${id}`,
    (session) => session.controls.complete(request, entry.record.timeoutMs),
    { notFound: `the tool server ${id} has no ${target.slice(4)}` },
  );
}

/**
 * Sets the level of log messages a server sends (2025 `logging/setLevel`; on 2026 the level each
 * request asks for). The choice is kept for the server's next connections. 409 for a server that
 * does not announce logging.
 */
export async function setLogLevel(host: CallHost, entry: Entry, level: LogLevel): Promise<void> {
  const id = entry.record.id;
  await host.connected(entry);
  if (!entry.state.capabilities?.logging) {
    throw new LassError(
      "conflict",
      `the tool server ${id} does not announce logging (capabilities.logging), so it has no log level`,
    );
  }
  await runRequest(
    host,
    entry,
    `setting the log level of ${id}`,
    (session) => session.controls.setLogLevel(level, entry.record.timeoutMs),
  );
  entry.logLevel = level;
  host.events.emit("mcp.log-level", { serverId: id, level });
}

/**
 * Follows a resource: its updates become `mcp.resource-updated` events, also after a reconnect.
 * 409 for a server that cannot send resource updates.
 */
export async function subscribe(host: CallHost, entry: Entry, uri: string): Promise<void> {
  const id = entry.record.id;
  await host.connected(entry);
  const resources = entry.state.capabilities?.resources as { subscribe?: boolean } | undefined;
  const refused = () =>
    new LassError(
      "conflict",
      `the tool server ${id} does not offer resource subscriptions (capabilities.resources.subscribe)`,
    );
  if (resources?.subscribe !== true) throw refused();
  const honoured = await runRequest(
    host,
    entry,
    `subscribing to ${uri} on ${id}`,
    async (session) => {
      await session.controls.subscribe(uri, entry.record.timeoutMs);
      return session.controls.subscriptions.includes(uri);
    },
    { notFound: `the tool server ${id} has no resource ${uri}` },
  );
  if (!honoured) throw refused();
  entry.subscriptions.add(uri);
  host.events.emit("mcp.subscription", { serverId: id, uri, subscribed: true });
}

/** Stops following a resource; a resource that was not followed changes nothing. */
export async function unsubscribe(host: CallHost, entry: Entry, uri: string): Promise<void> {
  const id = entry.record.id;
  if (!entry.subscriptions.delete(uri)) return;
  host.events.emit("mcp.subscription", { serverId: id, uri, subscribed: false });
  const session = entry.session;
  if (!session || entry.state.status !== "connected") return;
  await runRequest(
    host,
    entry,
    `unsubscribing from ${uri} on ${id}`,
    (current) => current.controls.unsubscribe(uri, entry.record.timeoutMs),
  );
}

/**
 * Checks that a server answers and measures the round trip: MCP `ping` on 2025; on 2026-07-28,
 * which has no ping, a `server/discover` round trip over stdio or in process and the HEAD request
 * of the healing code over HTTP. The answer says which it used.
 */
export async function ping(host: CallHost, entry: Entry): Promise<PingResult> {
  const id = entry.record.id;
  let via: PingVia = "ping";
  const ms = await runRequest(host, entry, `pinging ${id}`, (current) => {
    via = current.controls.pingKind;
    return current.controls.ping(entry.record.timeoutMs);
  });
  return { ok: true, ms, via };
}

/** Reads the tools, prompts, resources and resource templates again and returns the new state. */
export async function refreshLists(host: CallHost, entry: Entry): Promise<ToolServerState> {
  const id = entry.record.id;
  let used: McpSession | undefined;
  const lists = await runRequest(host, entry, `listing what ${id} offers`, (session) => {
    used = session;
    return Promise.all(
      (["tools", "prompts", "resources"] as const).map((kind) =>
        readList(session, entry.record, kind)
      ),
    );
  });
  // The state may have moved on meanwhile (a reconnect lists for itself).
  if (entry.session !== used) return stateOf(entry);
  const pinned = await host.review(entry, Object.assign({}, entry.state, ...lists));
  if (entry.session === used) {
    entry.state = pinned.state;
    pinned.announce();
  }
  return stateOf(entry);
}

/**
 * A connected server's roots changed in the config: it is told (2025), or asks anew in its next
 * request that needs them (2026). Reported as an `mcp.roots` event.
 */
export function announceRoots(
  entry: Entry,
  report: { events: EventBus; log: (entry: Entry, level: string, message: string) => void },
): void {
  const session = entry.session;
  if (!session) return;
  session.controls.rootsChanged().then(
    (notified) =>
      report.events.emit("mcp.roots", {
        serverId: entry.record.id,
        roots: entry.record.roots?.length ?? 0,
        notified,
      }),
    (error) =>
      report.log(entry, "warning", `telling the server its roots changed failed: ${error.message}`),
  );
}

/** A new session follows the resources the server's earlier sessions followed; failures are logged. */
export async function restoreSubscriptions(
  entry: Entry,
  session: McpSession,
  log: (entry: Entry, level: string, message: string) => void,
): Promise<void> {
  await Promise.all(
    [...entry.subscriptions].map((uri) =>
      session.controls.subscribe(uri, entry.record.timeoutMs).catch((error) =>
        log(entry, "warning", `subscribing to ${uri} again failed: ${error.message}`)
      )
    ),
  );
}
