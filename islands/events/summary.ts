/** One line that says what an event is about, by its type; the full data is one click away. */
import { plural } from "../../wire/words.ts";
import { formatUsd } from "../../wire/usage.ts";
import { formatDuration } from "../format.ts";
import type { LassEvent } from "../../wire/events.ts";

/** A value as short text: strings as they are, anything else as compact JSON, cut to `max`. */
function short(value: unknown, max = 120): string {
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value) ?? "";
  } catch {
    text = String(value);
  }
  text = text.replace(/\s+/g, " ").trim();
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

const words = (...parts: unknown[]) =>
  parts.filter((part) => part !== undefined && part !== null && part !== "").join(" ");

const ms = (value: unknown) => typeof value === "number" ? formatDuration(value) : undefined;

const toolOf = (data: Record<string, unknown>) =>
  data.serverId ? `${data.serverId} › ${data.tool}` : String(data.tool ?? "");

/** An `mcp.drift` event's changes in a few words: `tool echo changed, tool extra added`. */
function driftSummary(changes: unknown): string {
  if (!Array.isArray(changes) || changes.length === 0) return "matches its pins again";
  const named = changes.map((c) => `${c.kind} ${c.name} ${c.change}`);
  return `changed since pinned: ${short(named.join(", "), 100)}`;
}

/** A `chat.finish` event's cost (`{usd, source}` or null) as dollars. */
function costOf(cost: unknown): string | undefined {
  const usd = (cost as { usd?: unknown } | null)?.usd;
  return typeof usd === "number" ? formatUsd(usd) : undefined;
}

/** The summary of an event. */
export function summarize(event: LassEvent): string {
  const d = event.data;
  if (d.truncated === true) return `(data too large to keep: ${d.bytes} bytes)`;
  switch (event.type) {
    case "tool.call":
      return words(toolOf(d), short(d.input, 100));
    case "tool.result":
      return words(
        toolOf(d),
        d.isError ? "failed" : "ok",
        ms(d.durationMs),
        d.error ? `– ${short(d.error, 100)}` : undefined,
      );
    case "tool.progress":
      return words(toolOf(d), `${d.progress}${d.total !== undefined ? ` / ${d.total}` : ""}`);
    case "chat.start":
      return words(
        d.model ?? d.agentId,
        d.workspaceId ? `in ${d.workspaceId}` : undefined,
        typeof d.tools === "number" ? `with ${plural(d.tools, "tool")}` : undefined,
      );
    case "chat.finish":
      return words(
        d.finishReason,
        typeof d.steps === "number" ? `after ${d.steps} step${d.steps === 1 ? "" : "s"}` : "",
        ms(d.durationMs),
        costOf(d.cost),
        // The answer's markdown marks (`code`, **bold**) are not shown as such in one line.
        d.text ? `– ${short(String(d.text).replace(/`|\*\*/g, ""), 90)}` : undefined,
      );
    case "chat.error":
      return short(d.message);
    case "chat.tools-unavailable":
      return words(
        d.tool ? `${d.serverId}.${d.tool}` : d.serverId,
        short(d.error ?? d.message ?? d, 100),
      );
    case "mcp.drift":
      return d.accepted
        ? words(d.serverId, "pins accepted")
        : words(d.serverId, driftSummary(d.changes));
    case "mcp.state":
      return words(`${d.id}:`, d.status, d.error ? `– ${short(d.error, 100)}` : undefined);
    case "mcp.log":
      return words(d.serverId, `[${d.level}]`, d.logger ? `${d.logger}:` : "", short(d.message));
    case "mcp.notification":
      return words(d.serverId, d.method);
    case "mcp.log-level":
      return words(d.serverId, `log level ${d.level}`);
    case "mcp.subscription":
      return words(d.serverId, d.subscribed ? "subscribed to" : "unsubscribed from", d.uri);
    case "mcp.resource-updated":
      return words(d.serverId, "updated", d.uri);
    case "mcp.roots":
      return words(
        d.serverId,
        typeof d.roots === "number" ? plural(d.roots, "root") : undefined,
        d.notified ? "(list_changed sent)" : "(asked for per request)",
      );
    case "interaction.created": {
      const i = (d.interaction ?? {}) as Record<string, unknown>;
      return words(i.kind, i.tool ?? i.message, i.serverId ? `(${i.serverId})` : undefined);
    }
    case "interaction.resolved":
      return words(d.kind, d.outcome, d.response ? short(d.response, 80) : undefined);
    case "config.changed":
      return words(`from ${d.source}`, `revision ${d.revision}`);
    case "config.invalid":
      return short(d.message);
    case "ui.action":
      return words(d.name, d.surfaceId ? `on ${d.surfaceId}` : undefined);
    case "ui.rpc":
      return words(d.method, d.direction, d.serverId);
    default:
      return short(d);
  }
}
