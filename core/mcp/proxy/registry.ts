/**
 * The proxy's client sessions: who is connected to which tool server through Lass, what crossed,
 * and the `mcp.proxy` events when a session opens and closes.
 */
import type { EventBus } from "../../events.ts";
import type { ProxyClient, ProxyEventData } from "../../../wire/proxy.ts";
import type { ProxyClientInfo, TraceOrigin } from "../../../wire/trace.ts";
import type { WireSink } from "../session/trace.ts";
import { clientInfoOf, type RpcMessage } from "./messages.ts";

/** How a session's trace sink is made for a server and an origin. */
export type ChannelMaker = (serverId: string, origin: TraceOrigin) => WireSink;

/** One open client session of the proxy. */
export class ProxySession {
  readonly id: string;
  readonly serverId: string;
  readonly transport: "http" | "stdio";
  readonly origin: TraceOrigin;
  readonly #since = new Date();
  #lastAt?: number;
  #messages = 0;
  #errors = 0;
  #closed = false;
  readonly #trace: WireSink;
  readonly #registry: ProxyRegistry;
  /** Stops what the session holds (its upstream connection); set by whoever opened it. */
  stop: () => Promise<void> = () => Promise.resolve();
  /**
   * Sends a message of Lass's own to the client, on a stream it has open (set by whoever carries
   * the session's stream); false when none is open.
   */
  notify: (message: RpcMessage) => boolean = () => false;

  constructor(registry: ProxyRegistry, serverId: string, transport: "http" | "stdio", id: string) {
    this.#registry = registry;
    this.id = id;
    this.serverId = serverId;
    this.transport = transport;
    this.origin = { via: "proxy", session: id };
    this.#trace = registry.channel(serverId, this.origin);
  }

  /** Whether the session was closed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The client's `clientInfo`, once it named itself. */
  get client(): ProxyClientInfo | undefined {
    return this.origin.client;
  }

  /**
   * Reports a message that crossed (`out` client → server, `in` server → client): counted, traced,
   * and the first `clientInfo` the client sends names the session.
   */
  readonly observe = (dir: "out" | "in", message: unknown): void => {
    this.#messages++;
    this.#lastAt = Date.now();
    const { error } = (message ?? {}) as { error?: unknown };
    if (error !== undefined && error !== null) this.#errors++;
    if (dir === "out" && !this.origin.client) {
      const client = clientInfoOf(message);
      if (client) this.origin.client = client;
    }
    try {
      this.#trace(dir, message);
    } catch {
      // The trace never breaks the relay.
    }
  };

  /** The session as `GET /api/mcp/:id/proxy` lists it. */
  view(): ProxyClient {
    return {
      session: this.id,
      serverId: this.serverId,
      transport: this.transport,
      ...(this.origin.client && { client: this.origin.client }),
      since: this.#since.toISOString(),
      ...(this.#lastAt !== undefined && { lastAt: new Date(this.#lastAt).toISOString() }),
      messages: this.#messages,
      errors: this.#errors,
    };
  }

  /** Milliseconds since the last message (or the start). */
  idleMs(now: number): number {
    return now - (this.#lastAt ?? this.#since.getTime());
  }

  /** Stops the upstream connection and says so once (`mcp.proxy` with `state: "closed"`). */
  async close(reason: string): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#registry.forget(this, reason);
    await this.stop().catch(() => {});
  }
}

/** Every open proxy session of the service. */
export class ProxyRegistry {
  readonly #sessions = new Map<string, ProxySession>();
  readonly #events: EventBus;
  readonly channel: ChannelMaker;

  constructor(events: EventBus, channel: ChannelMaker) {
    this.#events = events;
    this.channel = channel;
  }

  /** Opens a session of `serverId` (`mcp.proxy` with `state: "open"`). */
  open(
    serverId: string,
    transport: "http" | "stdio",
    id: string = crypto.randomUUID(),
  ): ProxySession {
    const session = new ProxySession(this, serverId, transport, id);
    this.#sessions.set(id, session);
    this.#emit(session, "open");
    return session;
  }

  /** An open session by id. */
  get(id: string): ProxySession | undefined {
    return this.#sessions.get(id);
  }

  /** The open sessions, of one server or of all, oldest first. */
  list(serverId?: string): ProxyClient[] {
    return [...this.#sessions.values()]
      .filter((session) => serverId === undefined || session.serverId === serverId)
      .map((session) => session.view());
  }

  /** The open sessions of a server. */
  sessionsOf(serverId: string): ProxySession[] {
    return [...this.#sessions.values()].filter((session) => session.serverId === serverId);
  }

  /** Closes every session of a server (its record was removed or may no longer be proxied). */
  async closeServer(serverId: string, reason: string): Promise<void> {
    const sessions = this.sessionsOf(serverId);
    await Promise.all(sessions.map((session) => session.close(reason)));
  }

  /** Closes the sessions idle for longer than `idleMs`. */
  async sweep(idleMs: number, now = Date.now()): Promise<void> {
    const idle = [...this.#sessions.values()].filter((s) => s.idleMs(now) > idleMs);
    await Promise.all(idle.map((session) => session.close("idle")));
  }

  /** Closes every session (the service stops). */
  async closeAll(): Promise<void> {
    await Promise.all([...this.#sessions.values()].map((session) => session.close("stopped")));
  }

  /** Called by a session as it closes. */
  forget(session: ProxySession, reason: string): void {
    if (this.#sessions.get(session.id) !== session) return;
    this.#sessions.delete(session.id);
    this.#emit(session, "closed", reason);
  }

  #emit(session: ProxySession, state: "open" | "closed", reason?: string): void {
    const data: ProxyEventData = {
      id: session.serverId,
      session: session.id,
      state,
      transport: session.transport,
      ...(session.client && { client: session.client }),
      ...(reason !== undefined && { reason }),
    };
    this.#events.emit("mcp.proxy", { ...data });
  }
}
