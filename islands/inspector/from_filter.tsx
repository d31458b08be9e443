/**
 * "From": whose lines History and Messages show: everyone's; Lass's (the inspector's, chat's and
 * its own), or only the inspector's, chat's or Lass's own requests; or one client's of the proxy,
 * picked by its proxy session.
 */
import type { Signal } from "@preact/signals";
import type { TraceMessage, TraceRequester } from "../../wire/trace.ts";

/** `all`, `lass`, `inspector`, `chat`, `own` (Lass's own requests), or a proxy session's id. */
export type Origin = "all" | "lass" | "inspector" | "chat" | "own" | string;

/** The origins that are not proxy sessions. */
const LASS_ORIGINS = new Set(["lass", "inspector", "chat", "own"]);

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

/**
 * Whether a line of proxy `session` (none: Lass's) asked for `by` (the inspector, chat, or none:
 * Lass's own) is shown for `origin`.
 */
export function fromOrigin(
  session: string | undefined,
  origin: Origin,
  by?: TraceRequester,
): boolean {
  if (origin === "all") return true;
  if (!LASS_ORIGINS.has(origin)) return session === origin;
  if (session !== undefined) return false;
  if (origin === "lass") return true;
  return origin === "own" ? by === undefined : by === origin;
}

/** The picker. */
export function FromFilter(
  { clients, origin }: { clients: [string, string][]; origin: Signal<Origin> },
) {
  return (
    <label>
      <span>From</span>
      <select value={origin.value} onChange={(event) => origin.value = event.currentTarget.value}>
        <option value="all">everyone</option>
        {clients.length > 0 ? <option value="lass">Lass (chat, inspector)</option> : null}
        <option value="inspector">the inspector</option>
        <option value="chat">chat</option>
        <option value="own">Lass itself</option>
        {clients.map(([session, name]) => (
          <option key={session} value={session}>{name} (proxy)</option>
        ))}
      </select>
    </label>
  );
}
