/**
 * A legacy MCP-UI resource (an embedded `ui://` resource of a tool result) read for showing:
 * raw HTML, the first http(s) URL of a `text/uri-list`, or remote-dom (not supported), with the
 * `mcpui.dev/ui-*` hints of its `_meta`.
 */

/** What a legacy resource shows. */
export type LegacyView =
  | { kind: "html"; html: string }
  | { kind: "url"; url: string }
  | { kind: "remote-dom"; mimeType: string }
  | { kind: "unsupported"; reason: string };

/** A legacy resource's content and hints. */
export interface LegacyResource {
  uri: string;
  view: LegacyView;
  /** `mcpui.dev/ui-preferred-frame-size` height in px. */
  height?: number;
  /** `mcpui.dev/ui-initial-render-data`. */
  renderData: Record<string, unknown>;
}

function decode(resource: Record<string, unknown>): string | undefined {
  if (typeof resource.text === "string") return resource.text;
  if (typeof resource.blob !== "string") return undefined;
  try {
    const bytes = Uint8Array.from(atob(resource.blob), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/** The first http(s) URL of a `text/uri-list` (RFC 2483: `#` lines are comments). */
export function firstUrl(list: string): string | undefined {
  for (const line of list.split(/\r?\n/)) {
    const candidate = line.trim();
    if (candidate === "" || candidate.startsWith("#")) continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === "http:" || url.protocol === "https:") return url.href;
    } catch {
      // Not a URL: the next line may be one.
    }
  }
  return undefined;
}

function pixels(value: unknown): number | undefined {
  const number = typeof value === "number" ? value : parseFloat(String(value));
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** Reads a legacy resource; `contentType` (an explicit override) wins over `mimeType`. */
export function readLegacyResource(resource: Record<string, unknown>): LegacyResource {
  const meta = (resource._meta ?? {}) as Record<string, unknown>;
  const size = meta["mcpui.dev/ui-preferred-frame-size"];
  const renderData = meta["mcpui.dev/ui-initial-render-data"];
  const base = {
    uri: String(resource.uri ?? ""),
    height: Array.isArray(size) ? pixels(size[1]) : undefined,
    renderData: renderData && typeof renderData === "object"
      ? renderData as Record<string, unknown>
      : {},
  };
  const mimeType = String(resource.mimeType ?? "");
  const type = String(resource.contentType ?? "") ||
    mimeType.split(";")[0].trim().toLowerCase();
  const text = decode(resource);
  if (type.startsWith("application/vnd.mcp-ui.remote-dom") || type === "remotedom") {
    return { ...base, view: { kind: "remote-dom", mimeType } };
  }
  if (text === undefined) {
    return { ...base, view: { kind: "unsupported", reason: "the resource has no text" } };
  }
  if (type === "text/html" || type === "rawhtml") {
    return { ...base, view: { kind: "html", html: text } };
  }
  if (type === "text/uri-list" || type === "externalurl") {
    const url = firstUrl(text);
    return {
      ...base,
      view: url ? { kind: "url", url } : {
        kind: "unsupported",
        reason: "the URI list has no http(s) URL",
      },
    };
  }
  return { ...base, view: { kind: "unsupported", reason: `${mimeType || "no"} MIME type` } };
}
