/**
 * Holds (breakpoints) of the proxy: a request whose method a server's holds name waits, as an
 * interaction (`kind: "proxy-hold"`), for the user to forward it (maybe with edited params), reply
 * in the other side's place, or drop it. Unanswered in the record's `holdTimeoutMs`, it goes on as
 * it came. Chat and the proxy share the one interactions queue.
 */
import type { InteractionRegistry } from "../../interactions.ts";
import type { ProxyHoldAnswer } from "../../../wire/interactions.ts";
import { isRequest, type RpcMessage } from "./messages.ts";
import type { ProxySession } from "./registry.ts";

/** What happens to a held request. */
export type HoldOutcome =
  | { action: "forward"; message: RpcMessage }
  | { action: "reply"; response: RpcMessage }
  | { action: "drop" };

/** Which methods are held for a server, and for how long. */
export interface HoldSettings {
  methods: ReadonlySet<string>;
  timeoutMs: number;
}

/** The holds in force for a server, as `GET /api/mcp/:id/proxy/holds` gives them. */
export interface HoldsInForce {
  holds: string[];
  timeoutMs: number;
}

/** Told a server's holds (when they may have changed), or `null` when the proxy closes. */
export type HoldsWatcher = (holds: HoldsInForce | null) => void;

/** Whether `message` is a request whose method `methods` holds (cheap: no hold, no wait). */
export function isHeld(methods: ReadonlySet<string>, message: RpcMessage): boolean {
  return methods.size > 0 && isRequest(message) && methods.has(message.method!);
}

/** The proxy's holds: the records' methods, or the ones set for this run of Lass. */
export class ProxyHolds {
  readonly #interactions: InteractionRegistry;
  readonly #settings: (serverId: string) => HoldSettings;
  /** Methods set in the inspector for this run, by server; they win over the record's. */
  readonly #set = new Map<string, ReadonlySet<string>>();
  /** Who watches the holds change, by server. */
  readonly #watchers = new Map<string, Set<HoldsWatcher>>();

  constructor(interactions: InteractionRegistry, settings: (serverId: string) => HoldSettings) {
    this.#interactions = interactions;
    this.#settings = settings;
  }

  /** The methods held for a server now. */
  methods(serverId: string): string[] {
    return [...(this.#set.get(serverId) ?? this.#settings(serverId).methods)];
  }

  /** The methods held for a server now and their timeout. */
  inForce(serverId: string): HoldsInForce {
    return { holds: this.methods(serverId), timeoutMs: this.#settings(serverId).timeoutMs };
  }

  /** Holds `methods` for this run (not saved); `null` goes back to the record's. */
  setMethods(serverId: string, methods: string[] | null): void {
    if (methods === null) this.#set.delete(serverId);
    else this.#set.set(serverId, new Set(methods));
    this.changed(serverId);
  }

  /**
   * Calls `listener` with a server's holds each time they may have changed (set for this run, or
   * the record changed), and with `null` when the proxy closes; returns the way to stop.
   */
  watch(serverId: string, listener: HoldsWatcher): () => void {
    let watchers = this.#watchers.get(serverId);
    if (!watchers) this.#watchers.set(serverId, watchers = new Set());
    watchers.add(listener);
    return () => {
      watchers.delete(listener);
      if (watchers.size === 0 && this.#watchers.get(serverId) === watchers) {
        this.#watchers.delete(serverId);
      }
    };
  }

  /** Tells the watchers of a server (or of every server) that its holds may have changed. */
  changed(serverId?: string): void {
    for (const [id, watchers] of this.#watchers) {
      if (serverId !== undefined && id !== serverId) continue;
      const holds = this.inForce(id);
      for (const listener of [...watchers]) listener(holds);
    }
  }

  /** Ends every watch (the service stops). */
  close(): void {
    const watchers = [...this.#watchers.values()].flatMap((set) => [...set]);
    this.#watchers.clear();
    for (const listener of watchers) listener(null);
  }

  /** Whether any method is held for a server. */
  active(serverId: string): boolean {
    return (this.#set.get(serverId) ?? this.#settings(serverId).methods).size > 0;
  }

  /** Whether a message is a request that is held (cheap: no hold, no wait). */
  holds(serverId: string, message: RpcMessage): boolean {
    return isHeld(this.#set.get(serverId) ?? this.#settings(serverId).methods, message);
  }

  /**
   * Waits for the user's decision on a held request of `session`; `signal` withdraws the
   * interaction (the one who waits went away).
   */
  async decide(
    session: ProxySession,
    dir: "out" | "in",
    message: RpcMessage,
    signal?: AbortSignal,
  ): Promise<HoldOutcome> {
    const { timeoutMs } = this.#settings(session.serverId);
    const { response } = this.#interactions.create({
      kind: "proxy-hold",
      serverId: session.serverId,
      session: session.id,
      ...(session.client && { client: session.client }),
      dir,
      method: message.method!,
      message: message as Record<string, unknown>,
      timeoutMs,
    }, { timeoutMs, ...(signal && { signal }) });
    let answer: ProxyHoldAnswer;
    try {
      answer = await response as ProxyHoldAnswer;
    } catch {
      // Nobody answered in time (or the interaction was withdrawn): it goes on as it came.
      return { action: "forward", message };
    }
    if (answer.action === "drop") return { action: "drop" };
    if (answer.action === "forward") {
      return {
        action: "forward",
        message: answer.params ? { ...message, params: answer.params } : message,
      };
    }
    return {
      action: "reply",
      response: "result" in answer
        ? { jsonrpc: "2.0", id: message.id, result: answer.result }
        : { jsonrpc: "2.0", id: message.id, error: answer.error },
    };
  }
}
