/**
 * "From": whose lines History and Messages show: everyone's, Lass's own (chat, the inspector), or
 * one client's of the proxy, picked by its proxy session.
 */
import type { Signal } from "@preact/signals";
import type { TraceMessage } from "../../wire/trace.ts";

/** `all`, `lass`, or a proxy session's id. */
export type Origin = "all" | "lass" | string;

/** The proxy sessions of a trace with their clients' names, in order of appearance. */
export function proxyClientsOf(
  messages: readonly TraceMessage[],
): [session: string, name: string][] {
  const seen = new Map<string, string>();
  for (const message of messages) {
    if (message.session && !seen.has(message.session)) {
      seen.set(message.session, message.client?.name ?? message.session.slice(0, 8));
    }
  }
  return [...seen];
}

/** Whether a line of `session` (none: Lass's own) is shown for `origin`. */
export function fromOrigin(session: string | undefined, origin: Origin): boolean {
  if (origin === "all") return true;
  if (origin === "lass") return session === undefined;
  return session === origin;
}

/** The picker; nothing while no proxy client is in the trace. */
export function FromFilter(
  { clients, origin }: { clients: [string, string][]; origin: Signal<Origin> },
) {
  if (clients.length === 0) return null;
  return (
    <label>
      <span>From</span>
      <select value={origin.value} onChange={(event) => origin.value = event.currentTarget.value}>
        <option value="all">everyone</option>
        <option value="lass">Lass (chat, inspector)</option>
        {clients.map(([session, name]) => (
          <option key={session} value={session}>{name} (proxy)</option>
        ))}
      </select>
    </label>
  );
}
