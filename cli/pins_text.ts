/** `lass check`'s pins as a person reads them: a word diff of each description, a JSON diff of the rest. */
import type { CheckReport } from "../core/checks.ts";
import type { JsonChange, PinChange, WordPart } from "../wire/pinning.ts";

/** A word diff with git's plain marks: `[-removed-]{+added+}`. */
export function markedWords(parts: readonly WordPart[]): string {
  return parts.map((part) =>
    part.op === "add" ? `{+${part.text}+}` : part.op === "del" ? `[-${part.text}-]` : part.text
  ).join("");
}

const SIGNS = { add: "+", remove: "-", replace: "~" } as const;

/** One JSON change on a line: `+ /path: value`, `- /path: value`, `~ /path: before → after`. */
function jsonLine(change: JsonChange): string {
  const value = (v: unknown) => JSON.stringify(v);
  const shown = change.op === "replace"
    ? `${value(change.before)} → ${value(change.after)}`
    : value(change.op === "add" ? change.after : change.before);
  return `${SIGNS[change.op]} ${change.path || "/"}: ${shown}`;
}

const KIND_WORDS = { tool: "tool", prompt: "prompt", resourceTemplate: "resource template" };

/** The lines of one change: what it is, then its word and JSON diffs, indented. */
function changeLines(serverId: string, change: PinChange): string[] {
  const lines = [`server ${serverId}: ${KIND_WORDS[change.kind]} ${change.name} ${change.change}`];
  if (change.description) lines.push(`  description: ${markedWords(change.description)}`);
  if (change.schema?.length) {
    lines.push("  definition:", ...change.schema.map((c) => `    ${jsonLine(c)}`));
  }
  return lines;
}

/** The pins part of a report: what happened to the lock, then each change; "" without a lock. */
export function formatPins(report: CheckReport): string {
  if (!report.lock) return "";
  const lines: string[] = [];
  for (const server of report.servers) {
    const pins = server.pins;
    if (!pins) continue;
    if (pins.version) {
      lines.push(
        `server ${server.id}: version ${pins.version.pinned ?? "-"} → ${pins.version.now ?? "-"}`,
      );
    }
    for (const change of pins.changes) lines.push(...changeLines(server.id, change));
  }
  const counted = report.servers.filter((server) => server.pins);
  const drifted = counted.filter((server) => server.pins!.status === "drifted").length;
  const action = report.lock.written ? "wrote" : "compared with";
  lines.push(
    `${action} ${report.lock.path}: ${counted.length} server${counted.length === 1 ? "" : "s"}` +
      (drifted > 0 ? `, ${drifted} changed since pinned` : ""),
  );
  return lines.join("\n");
}
