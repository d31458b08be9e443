/**
 * What changed between a server's pins and what it offers now: per definition added, removed or
 * changed, with a word diff of its description and a JSON diff (JSON Pointer paths) of the rest.
 */
import { diffWords } from "diff";
import jsonPatch from "fast-json-patch";
import type {
  JsonChange,
  PinChange,
  PinDrift,
  PinKind,
  PinnedServer,
  WordPart,
} from "../../../wire/pinning.ts";

/** The kinds in the order changes are listed, with the field of {@link PinnedServer} of each. */
const KINDS: readonly [PinKind, "tools" | "prompts" | "resourceTemplates"][] = [
  ["tool", "tools"],
  ["prompt", "prompts"],
  ["resourceTemplate", "resourceTemplates"],
];

/** A word diff of two texts: the parts kept, removed and added, in reading order. */
export function wordDiff(before: string, after: string): WordPart[] {
  return diffWords(before, after).map((part) => ({
    op: part.added ? "add" : part.removed ? "del" : "same",
    text: part.value,
  }));
}

/** The changes that turn one JSON value into another, each at its JSON Pointer path. */
export function jsonDiff(before: object, after: object): JsonChange[] {
  return jsonPatch.compare(before, after).map((operation) => {
    const old = operation.op === "add"
      ? undefined
      : jsonPatch.getValueByPointer(before, operation.path);
    return {
      op: operation.op as JsonChange["op"],
      path: operation.path,
      ...(old !== undefined && { before: old }),
      ...("value" in operation && { after: operation.value }),
    };
  });
}

/** How one definition changed: the description's word diff and the rest's JSON diff. */
function changeOf(
  kind: PinKind,
  name: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): PinChange {
  const { description: oldText, ...oldRest } = before;
  const { description: newText, ...newRest } = after;
  const schema = jsonDiff(oldRest, newRest);
  return {
    kind,
    name,
    change: "changed",
    ...(oldText !== newText &&
      { description: wordDiff(String(oldText ?? ""), String(newText ?? "")) }),
    ...(schema.length > 0 && { schema }),
  };
}

/** Every definition added, removed or changed since it was pinned (by its SHA-256), in name order. */
export function diffPins(pinned: PinnedServer, now: PinnedServer): PinChange[] {
  const changes: PinChange[] = [];
  for (const [kind, field] of KINDS) {
    const before = pinned[field] ?? {};
    const after = now[field];
    const names = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const name of names) {
      const old = before[name];
      const current = after[name];
      if (!old) changes.push({ kind, name, change: "added" });
      else if (!current) changes.push({ kind, name, change: "removed" });
      else if (old.sha256 !== current.sha256) {
        changes.push(changeOf(kind, name, old.definition, current.definition));
      }
    }
  }
  return changes;
}

/** The server's version now and as pinned, when they differ. */
export function versionChange(pinned: PinnedServer, now: PinnedServer): PinDrift["version"] {
  const label = (server: PinnedServer) =>
    server.name === undefined ? undefined : `${server.name} ${server.version ?? ""}`.trim();
  const before = label(pinned);
  const after = label(now);
  if (before === after) return undefined;
  return { ...(before && { pinned: before }), ...(after && { now: after }) };
}
