/**
 * `/mcp/:serverId`: a Streamable HTTP MCP endpoint that relays every message between the client
 * and the configured server. A Streamable HTTP server is passed through request by request; any
 * other (stdio, SSE, the in-process demo) is bridged: a 2025 client session gets its own
 * connection (its own process), 2026-07-28 clients, which have no session, share one per server.
 */
import { createTransport } from "../session/transports.ts";
import type { ProxyTarget } from "../manager/proxy_target.ts";
import { MessageBridge } from "./bridge.ts";
import {
  answerHeld,
  holdOutgoing,
  incomingGate,
  withLassMessages,
  withReplies,
} from "./held_http.ts";
import type { ProxyHolds } from "./holds.ts";
import { rpcError, signInError, startFailure } from "./answers.ts";
import { gateActive, gateOf } from "./gate.ts";
import { clientInfoOf, isRequest, type RpcMessage } from "./messages.ts";
import type { PinBlock } from "./pin_block.ts";
import { passThrough, type PassThroughTarget, readExchange, SignInNeeded } from "./pass_through.ts";
import type { ProxyRegistry, ProxySession } from "./registry.ts";

/** A proxy session that no message crossed for this long is closed. */
const PROXY_IDLE_MS = 30 * 60_000;

/** What the endpoint needs from the service. */
export interface ProxyDeps {
  registry: ProxyRegistry;
  /** Which requests wait for the user before they are relayed. */
  holds: ProxyHolds;
  /** The tools pinning's `block` keeps from the clients. */
  pins: PinBlock;
  /** The server as the proxy reaches it; throws 404 for an unknown id or `proxy: false`. */
  target(serverId: string): Promise<ProxyTarget>;
  /** A line a process the proxy started wrote to stderr (`session`: the one it serves alone). */
  stderr(serverId: string, session: ProxySession | undefined, line: string): void;
}

/** A 2025 session: the client's `Mcp-Session-Id` and what carries it. */
interface LegacySession {
  session: ProxySession;
  /** The bridged channel; absent for a passed-through server (its session is the server's). */
  bridge?: MessageBridge;
}

/** The proxy endpoint of the service. */
export class ProxyEndpoint {
  readonly #deps: ProxyDeps;
  /** By server id and `Mcp-Session-Id`. */
  readonly #legacy = new Map<string, LegacySession>();
  /** Sessionless clients (2026-07-28, or a stateless 2025 server) by server id and client name. */
  readonly #sessionless = new Map<string, ProxySession>();
  /** The channel 2026-07-28 clients of a bridged server share, by server id. */
  readonly #shared = new Map<string, Promise<MessageBridge>>();
  #sweptAt = 0;

  constructor(deps: ProxyDeps) {
    this.#deps = deps;
  }

  /**
   * Answers one HTTP request of a client of `serverId`; `lassOrigin` is where the client reached
   * Lass (a sign-in error names the inspector's page there); `body`, a POST's body when the caller
   * read it already.
   */
  async handle(
    req: Request,
    serverId: string,
    lassOrigin: string,
    body?: string,
  ): Promise<Response> {
    const target = await this.#deps.target(serverId);
    if (req.method !== "POST" && req.method !== "GET" && req.method !== "DELETE") {
      return new Response(null, { status: 405, headers: { allow: "GET, POST, DELETE" } });
    }
    this.#sweep();
    const exchange = await readExchange(req, body);
    if (req.method === "POST" && !exchange.messages) {
      return rpcError(null, -32700, "Parse error: the body is not a JSON-RPC message", 400);
    }
    const header = req.headers.get("mcp-session-id") ?? undefined;
    return target.spec.kind === "http"
      ? await this.#passThrough(target, exchange, header, lassOrigin)
      : await this.#bridged(target, exchange.messages, req.method, header, lassOrigin);
  }

  /** Closes idle sessions, at most once a minute (on a request: no timer keeps Lass awake). */
  #sweep(): void {
    const now = Date.now();
    if (now - this.#sweptAt < 60_000) return;
    this.#sweptAt = now;
    void this.#deps.registry.sweep(PROXY_IDLE_MS, now);
  }

  /** Ends every session and shared channel. */
  async close(): Promise<void> {
    const shared = [...this.#shared.values()];
    this.#shared.clear();
    await this.#deps.registry.closeAll();
    await Promise.all(shared.map(async (bridge) => (await bridge.catch(() => undefined))?.close()));
  }

  /** Ends the sessions of a server whose record was removed, changed or no longer proxied. */
  async closeServer(serverId: string, reason: string): Promise<void> {
    const shared = this.#shared.get(serverId);
    this.#shared.delete(serverId);
    await this.#deps.registry.closeServer(serverId, reason);
    await (await shared?.catch(() => undefined))?.close();
  }

  /**
   * Sends a message of Lass's own (a `notifications/tools/list_changed`) to the 2025 sessions of
   * a server that have a stream open to carry it; how many got it.
   */
  notifyServer(serverId: string, message: RpcMessage): number {
    return this.#deps.registry.sessionsOf(serverId).filter((session) => session.notify(message))
      .length;
  }

  async #passThrough(
    target: ProxyTarget,
    exchange: Awaited<ReturnType<typeof readExchange>>,
    header: string | undefined,
    lassOrigin: string,
  ): Promise<Response> {
    const spec = target.spec as Extract<ProxyTarget["spec"], { kind: "http" | "sse" }>;
    const serverId = target.record.id;
    const messages = exchange.messages ?? [];
    const initialize = messages.some((message) => message.method === "initialize");
    const key = header === undefined ? undefined : `${serverId}\n${header}`;
    let session = key === undefined ? undefined : this.#legacy.get(key)?.session;
    if (!session) {
      if (initialize) session = this.#deps.registry.open(serverId, "http");
      else if (key !== undefined) {
        // A session Lass did not see begin (Lass restarted): it is followed from here on.
        session = this.#deps.registry.open(serverId, "http");
        this.#legacy.set(key, { session });
        this.#forgetOnClose(session, key);
      } else session = this.#clientSession(serverId, messages);
    }
    const passTarget: PassThroughTarget = {
      url: spec.url,
      headers: spec.headers,
      fetch: (url, init) => fetch(url, init),
      auth: target.auth,
    };
    const gated = gateActive(this.#deps.holds, this.#deps.pins, serverId);
    const page = inspectorPage(lassOrigin, serverId);
    const point = gateOf(this.#deps.holds, this.#deps.pins, serverId, page);
    let replies: RpcMessage[] = [];
    if (gated && messages.some((message) => point.held(message))) {
      const held = await holdOutgoing(messages, session, point);
      if (held.send.length === 0) return answerHeld(held, session);
      replies = held.replies;
      const batch = exchange.body?.trimStart().startsWith("[") ?? false;
      exchange = {
        ...exchange,
        messages: held.send,
        body: JSON.stringify(batch ? held.send : held.send[0]),
      };
    }
    // A 2025 session's GET stream is read event by event, so that Lass can add its own messages.
    const listening = exchange.method === "GET" && key !== undefined;
    const incoming = gated || listening
      ? incomingGate({
        point,
        session,
        asked: messages,
        headers: exchange.headers,
        target: passTarget,
      })
      : undefined;
    let response: Response;
    try {
      response = await withReplies(
        await passThrough(exchange, passTarget, session.observe, incoming),
        replies,
        session,
      );
    } catch (error) {
      if (initialize && key === undefined) await session.close("server");
      if (error instanceof SignInNeeded) {
        return signInError(page, serverId, messages, error);
      }
      return rpcError(
        messages.find(isRequest)?.id ?? null,
        -32000,
        `Lass cannot reach the tool server ${serverId}: ${(error as Error)?.message ?? error}`,
        502,
      );
    }
    if (initialize) {
      const upstream = response.headers.get("mcp-session-id");
      if (upstream && response.ok) {
        const upstreamKey = `${serverId}\n${upstream}`;
        this.#legacy.set(upstreamKey, { session });
        this.#forgetOnClose(session, upstreamKey);
      } else if (response.ok) {
        this.#sessionless.set(sessionlessKey(serverId, session.client), session);
      } else await session.close("server");
    }
    if (key !== undefined && (exchange.method === "DELETE" || response.status === 404)) {
      await session.close(exchange.method === "DELETE" ? "client" : "server");
    }
    return listening ? withLassMessages(response, session) : response;
  }

  async #bridged(
    target: ProxyTarget,
    messages: RpcMessage[] | undefined,
    method: string,
    header: string | undefined,
    lassOrigin: string,
  ): Promise<Response> {
    const serverId = target.record.id;
    const legacy = header === undefined ? undefined : this.#legacy.get(`${serverId}\n${header}`);
    if (header !== undefined && !legacy) {
      return rpcError(null, -32001, "Session not found: the proxy session has ended", 404);
    }
    if (method === "DELETE") {
      if (!legacy) return new Response(null, { status: 405, headers: { allow: "GET, POST" } });
      await legacy.session.close("client");
      return new Response(null, { status: 200 });
    }
    if (method === "GET") {
      if (!legacy) return new Response(null, { status: 405, headers: { allow: "POST" } });
      return legacy.bridge!.listen(legacy.session);
    }
    if (legacy) return await relayed(legacy.bridge!, messages!, legacy.session);
    if (messages!.some((message) => message.method === "initialize")) {
      return await this.#openLegacy(target, messages!, lassOrigin);
    }
    let bridge: MessageBridge;
    try {
      bridge = await this.#sharedBridge(target, lassOrigin);
    } catch (error) {
      return startFailure(target, messages!, error, lassOrigin);
    }
    return await relayed(bridge, messages!, this.#clientSession(serverId, messages!));
  }

  /** A 2025 client's `initialize`: a connection of its own to the server. */
  async #openLegacy(
    target: ProxyTarget,
    messages: RpcMessage[],
    lassOrigin: string,
  ): Promise<Response> {
    const serverId = target.record.id;
    const session = this.#deps.registry.open(serverId, "http");
    let bridge: MessageBridge;
    try {
      bridge = await this.#openBridge(target, session, session, lassOrigin);
    } catch (error) {
      await session.close("server");
      return startFailure(target, messages, error, lassOrigin);
    }
    session.notify = (message) => bridge.notify(message);
    const key = `${serverId}\n${session.id}`;
    this.#legacy.set(key, { session, bridge });
    this.#forgetOnClose(session, key);
    const response = await relayed(bridge, messages, session);
    response.headers.set("mcp-session-id", session.id);
    return response;
  }

  /** A connection to the server, relayed; `owner` gets what no request of the client asked for. */
  async #openBridge(
    target: ProxyTarget,
    stopper: ProxySession | undefined,
    owner: ProxySession | undefined,
    lassOrigin: string,
  ): Promise<MessageBridge> {
    const serverId = target.record.id;
    const opened = await createTransport(target.spec, {
      stderr: (line) => this.#deps.stderr(serverId, owner, line),
    });
    const page = inspectorPage(lassOrigin, serverId);
    const gate = gateOf(this.#deps.holds, this.#deps.pins, serverId, page);
    const bridge = new MessageBridge(opened.transport, owner, gate);
    const stop = async () => {
      if (opened.stop) await opened.stop(() => bridge.close());
      else await bridge.close();
    };
    if (stopper) {
      stopper.stop = stop;
      bridge.onClosed = () => void stopper.close("server");
    }
    await bridge.start().catch(async (error) => {
      await stop().catch(() => {});
      throw error;
    });
    return bridge;
  }

  /** The channel sessionless clients of a bridged server share, opened on first use. */
  #sharedBridge(target: ProxyTarget, lassOrigin: string): Promise<MessageBridge> {
    const serverId = target.record.id;
    let shared = this.#shared.get(serverId);
    if (!shared) {
      shared = this.#openBridge(target, undefined, undefined, lassOrigin).then((bridge) => {
        const previous = bridge.onClosed;
        bridge.onClosed = () => {
          previous();
          if (this.#shared.get(serverId) === shared) this.#shared.delete(serverId);
        };
        return bridge;
      });
      this.#shared.set(serverId, shared);
      shared.catch(() => this.#shared.get(serverId) === shared && this.#shared.delete(serverId));
    }
    return shared;
  }

  /** The session of a sessionless client, by the name it gives (or the last one seen). */
  #clientSession(serverId: string, messages: RpcMessage[]): ProxySession {
    const client = messages.map(clientInfoOf).find((info) => info !== undefined);
    const key = sessionlessKey(serverId, client);
    let session = this.#sessionless.get(key);
    if (!session || session.closed) {
      session = this.#deps.registry.open(serverId, "http");
      if (client) session.origin.client = client;
      const opened = session;
      this.#sessionless.set(key, opened);
      const stop = opened.stop;
      opened.stop = async () => {
        if (this.#sessionless.get(key) === opened) this.#sessionless.delete(key);
        await stop();
      };
    }
    return session;
  }

  /** Forgets a 2025 session's id when the session closes. */
  #forgetOnClose(session: ProxySession, key: string): void {
    const stop = session.stop;
    session.stop = async () => {
      if (this.#legacy.get(key)?.session === session) this.#legacy.delete(key);
      await stop();
    };
  }
}

/**
 * A POST relayed on a bridge; a channel that has ended (the process exited between two requests)
 * is a JSON-RPC error for the client, and the end of a session that had the channel to itself.
 */
async function relayed(
  bridge: MessageBridge,
  messages: RpcMessage[],
  session: ProxySession,
): Promise<Response> {
  try {
    return await bridge.post(messages, session);
  } catch (error) {
    if (bridge.owner) await session.close("server");
    return rpcError(
      messages.find(isRequest)?.id ?? null,
      -32000,
      `the tool server's connection has ended: ${(error as Error)?.message ?? error}`,
      502,
    );
  }
}

function sessionlessKey(serverId: string, client: { name: string; version?: string } | undefined) {
  return `${serverId}\n${client ? `${client.name}@${client.version ?? ""}` : ""}`;
}

/** Lass's inspector of a server, where its sign-in and its pins are. */
function inspectorPage(lassOrigin: string, serverId: string): string {
  return `${lassOrigin}/inspector/${encodeURIComponent(serverId)}`;
}
