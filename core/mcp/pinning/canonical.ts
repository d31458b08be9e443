/**
 * The canonical form of what a server offers: each tool, prompt and resource template reduced to
 * the fields a model or a user reads, as JSON with sorted keys, and its SHA-256.
 */
import { createHash } from "node:crypto";
import type { ConnectionState } from "../../../wire/tool_servers.ts";
import type { Pin, PinKind, PinnedServer } from "../../../wire/pinning.ts";

/** JSON with object keys sorted at every level and no spaces: the same text for the same value. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sorted(value));
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, field]) => field !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, field]) => [key, sorted(field)]));
}

/** The SHA-256 of a text's UTF-8 bytes, in hex. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** A definition with its hash; fields that are `undefined` are left out. */
export function pinOf(definition: Record<string, unknown>): Pin {
  const canonical = sorted(definition) as Record<string, unknown>;
  return { sha256: sha256(JSON.stringify(canonical)), definition: canonical };
}

/** The fields pinned of each kind: what the model or the user sees of it. */
const FIELDS: Record<PinKind, readonly string[]> = {
  tool: ["name", "title", "description", "inputSchema", "outputSchema", "annotations"],
  prompt: ["name", "title", "description", "arguments"],
  resourceTemplate: ["name", "title", "uriTemplate", "description", "mimeType", "annotations"],
};

/** The canonical definition of one item of a kind. */
export function definitionOf(kind: PinKind, item: object): Record<string, unknown> {
  const source = item as Record<string, unknown>;
  return Object.fromEntries(
    FIELDS[kind].filter((field) => source[field] !== undefined).map((f) => [f, source[f]]),
  );
}

function pinsOf(kind: PinKind, items: readonly { name: string }[]): Record<string, Pin> {
  const pins: Record<string, Pin> = {};
  for (const item of items) pins[item.name] = pinOf(definitionOf(kind, item));
  return pins;
}

/** What a connected server offers, pinned: its name and version and every definition. */
export function pinServer(state: ConnectionState): PinnedServer {
  return {
    ...(state.serverInfo && { name: state.serverInfo.name, version: state.serverInfo.version }),
    tools: pinsOf("tool", state.tools),
    prompts: pinsOf("prompt", state.prompts),
    resourceTemplates: pinsOf("resourceTemplate", state.resourceTemplates),
  };
}

/**
 * Whether two servers' pins hold the same definitions (names and hashes of every kind): the
 * common case of a review, answered without loading the differ.
 */
export function samePins(pinned: PinnedServer, now: PinnedServer): boolean {
  const same = (before: Record<string, Pin> = {}, after: Record<string, Pin>) => {
    const names = Object.keys(after);
    return Object.keys(before).length === names.length &&
      names.every((name) => before[name]?.sha256 === after[name].sha256);
  };
  return same(pinned.tools, now.tools) && same(pinned.prompts, now.prompts) &&
    same(pinned.resourceTemplates, now.resourceTemplates);
}
