/**
 * Pinning: what a tool server offers, pinned by a hash per definition (`lass.lock.json`, or the
 * first definitions seen, kept in the data dir), and the drift of a server from its pins as the
 * `mcp.drift` event, the server state's `drift` and `lass check` carry it.
 */

/** How a server's changed definitions are handled: not checked, shown, or shown and kept from chat. */
export type PinningMode = "off" | "warn" | "block";

/** The kinds of definitions that are pinned. */
export type PinKind = "tool" | "prompt" | "resourceTemplate";

/** One pinned definition: its canonical form and the SHA-256 (hex) of its canonical JSON. */
export interface Pin {
  sha256: string;
  definition: Record<string, unknown>;
}

/** What is pinned of one server: its name and version, and each definition by name. */
export interface PinnedServer {
  name?: string;
  version?: string;
  tools: Record<string, Pin>;
  prompts: Record<string, Pin>;
  resourceTemplates: Record<string, Pin>;
}

/** The lock file, `lass.lock.json`: the pins of each server by its id. */
export interface LockFile {
  lockfileVersion: 1;
  servers: Record<string, PinnedServer>;
}

/** A piece of a word diff: text kept, added or removed. */
export interface WordPart {
  op: "same" | "add" | "del";
  text: string;
}

/** One change of a JSON value at a JSON Pointer path. */
export interface JsonChange {
  op: "add" | "remove" | "replace";
  /** A JSON Pointer into the definition, e.g. `/inputSchema/properties/n/type`. */
  path: string;
  before?: unknown;
  after?: unknown;
}

/** One definition that differs from its pin. */
export interface PinChange {
  kind: PinKind;
  name: string;
  change: "added" | "removed" | "changed";
  /** A word diff of the description, when it changed. */
  description?: WordPart[];
  /** A JSON diff of the rest of the definition (schemas, title, annotations...), when it changed. */
  schema?: JsonChange[];
}

/** Where the pins a server is compared with come from. */
export type PinSource = "lock" | "first-seen";

/** A server whose definitions differ from its pins: the server state's `drift`. */
export interface PinDrift {
  pinning: Exclude<PinningMode, "off">;
  source: PinSource;
  /** When the drift was found. */
  since: string;
  /** The server's name and version now, and as pinned, when they differ. */
  version?: { pinned?: string; now?: string };
  changes: PinChange[];
}
