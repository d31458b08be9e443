/**
 * "What crossed the bridge": every message between Lass and a View, newest last, shown collapsed
 * under the frame for whoever is testing their MCP App or MCP-UI resource.
 */
import { signal } from "@preact/signals";
import type { Direction } from "./mcp_transport.ts";

/** What a logged message was. */
export type EntryKind = "request" | "notification" | "response" | "error" | "message";

/** One message in the log. */
export interface LogEntry {
  n: number;
  direction: Direction;
  kind: EntryKind;
  /** The method (for a response: its request's), or a legacy message's `type`. */
  method: string;
  id?: string | number;
  /** A short detail: an error's message, a log line. */
  note?: string;
}

/** Entries kept per View. */
const KEPT = 200;

/** The log of one View. */
export class BridgeLog {
  readonly entries = signal<LogEntry[]>([]);
  #count = 0;
  /** Methods of requests awaiting their answer, by direction and id. */
  #open: Record<Direction, Map<string | number, string>> = {
    "to-app": new Map(),
    "from-app": new Map(),
  };

  /** Adds an entry. */
  add(entry: Omit<LogEntry, "n">): LogEntry {
    const added = { ...entry, n: ++this.#count };
    this.entries.value = [...this.entries.peek(), added].slice(-KEPT);
    return added;
  }

  /** Adds a JSON-RPC message; a response is named after the request it answers. */
  addJsonRpc(direction: Direction, message: object): LogEntry {
    const { method, id, error } = message as {
      method?: unknown;
      id?: string | number;
      error?: { message?: unknown };
    };
    if (typeof method === "string") {
      if (id !== undefined) this.#open[direction].set(id, method);
      return this.add({
        direction,
        kind: id === undefined ? "notification" : "request",
        method,
        id,
      });
    }
    const requests = this.#open[direction === "to-app" ? "from-app" : "to-app"];
    const answered = id === undefined ? undefined : requests.get(id);
    if (id !== undefined) requests.delete(id);
    return this.add({
      direction,
      kind: error ? "error" : "response",
      method: answered ?? "(unknown request)",
      id,
      ...(error && { note: String(error.message ?? "error") }),
    });
  }

  /** Adds a note to the last entry (e.g. the text of a log message). */
  note(text: string): void {
    const entries = this.entries.peek();
    const last = entries.at(-1);
    if (!last) return;
    this.entries.value = [...entries.slice(0, -1), { ...last, note: text }];
  }
}

const ARROWS: Record<Direction, string> = { "to-app": "→ view", "from-app": "← view" };

/** The log, collapsed. */
export function BridgeLogView({ log, label }: { log: BridgeLog; label: string }) {
  const entries = log.entries.value;
  return (
    <details class="mcp-log">
      <summary>{label} ({entries.length})</summary>
      {entries.length === 0 ? <p class="note">Nothing yet.</p> : (
        <ol>
          {entries.map((entry) => (
            <li key={entry.n} class={`mcp-log-${entry.kind}`} data-method={entry.method}>
              <span class="mcp-log-dir">{ARROWS[entry.direction]}</span>
              <code>{entry.method}</code>
              <span class="mcp-log-kind">
                {entry.kind}
                {entry.id !== undefined ? ` #${entry.id}` : ""}
              </span>
              {entry.note ? <span class="mcp-log-note">{entry.note}</span> : null}
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
