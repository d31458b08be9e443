/** What a tool server's result becomes: the output the model sees, and UI the chat can show. */
import type {
  JSONObject,
  LanguageModelV4ToolResultOutput as ToolResultOutput,
} from "@ai-sdk/provider";
import type { CallToolResult } from "../mcp/session/types.ts";
import type { ToolInfo } from "../../wire/tool_servers.ts";
import type { ToolUi } from "../../wire/chat.ts";

type ContentBlock = CallToolResult["content"][number];
type ModelPart = Extract<ToolResultOutput, { type: "content" }>["value"][number];

/** MIME types of A2UI payloads: the current one and the one of v0.8/v0.9. */
const A2UI_MIME_TYPES = new Set(["application/a2ui+json", "application/json+a2ui"]);

/** The essence of a MIME type: lower case, without parameters. */
function essence(mimeType: unknown): string {
  return typeof mimeType === "string" ? mimeType.split(";")[0].trim().toLowerCase() : "";
}

/** Whether a content block is meant for the model (no audience, or one that includes it). */
function forModel(block: ContentBlock): boolean {
  const audience = (block as { annotations?: { audience?: string[] } }).annotations?.audience;
  return !Array.isArray(audience) || audience.includes("assistant");
}

/** A content block as a part the model can read; binary data stays binary, links become text. */
function modelPart(block: ContentBlock): ModelPart {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
    case "audio":
      return { type: "file", data: { type: "data", data: block.data }, mediaType: block.mimeType };
    case "resource": {
      const resource = block.resource as { uri: string; mimeType?: string; text?: string };
      if (typeof resource.text === "string") {
        return { type: "text", text: `[resource ${resource.uri}]\n${resource.text}` };
      }
      const kind = resource.mimeType ? ` (${resource.mimeType})` : "";
      return { type: "text", text: `[binary resource ${resource.uri}${kind} not shown]` };
    }
    case "resource_link":
      return {
        type: "text",
        text: `[resource link ${block.uri}${block.name ? ` "${block.name}"` : ""}]`,
      };
    default:
      return { type: "text", text: `[${(block as { type: string }).type} content not shown]` };
  }
}

/**
 * The output the model sees for a tool result. Text-only results are one text (parts joined by
 * new lines); a result with only `structuredContent` is JSON; images and audio are file parts.
 * Blocks addressed to the user only (`annotations.audience: ["user"]`) are left out. An error
 * result is the error's text.
 */
export function modelOutputOf(result: CallToolResult): ToolResultOutput {
  const parts = (result.content ?? []).filter(forModel).map(modelPart);
  const textOnly = parts.every((part) => part.type === "text");
  if (result.isError) {
    const text = parts.flatMap((p) => p.type === "text" ? [p.text] : []).join("\n");
    return { type: "error-text", value: text || "the tool reported an error" };
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return { type: "json", value: result.structuredContent as JSONObject };
  }
  if (textOnly) {
    return { type: "text", value: parts.map((p) => (p as { text: string }).text).join("\n") };
  }
  return { type: "content", value: parts };
}

/** The value of a model output as the `tool-result` chunk shows it. */
export function shownOutput(output: ToolResultOutput): unknown {
  switch (output.type) {
    case "execution-denied":
      return output.reason ?? "denied";
    case "content":
      return output.value.map((part) =>
        part.type === "file" && part.data.type === "data"
          ? { type: "file", mediaType: part.mediaType, bytes: byteLength(part.data.data) }
          : part
      );
    default:
      return output.value;
  }
}

/** The size of base64 (or raw) file data, so chunks do not repeat large payloads. */
function byteLength(data: string | Uint8Array): number {
  return typeof data === "string" ? Math.floor(data.length * 3 / 4) : data.byteLength;
}

/** Parses an A2UI payload: a list of messages, a `{messages}` wrapper, one message or JSONL. */
function a2uiMessages(text: string): unknown[] | undefined {
  try {
    const value = JSON.parse(text);
    if (Array.isArray(value)) return value;
    if (Array.isArray(value?.messages)) return value.messages;
    if (value && typeof value === "object") return [value];
  } catch {
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    try {
      return lines.map((line) => JSON.parse(line));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The UI a tool result can be shown as: an MCP App when the tool names a `ui://` resource in
 * `_meta.ui.resourceUri`; else an embedded `ui://` resource of HTML, a URL list or remote-dom
 * (legacy MCP-UI); else an embedded A2UI payload.
 */
export function uiOf(
  serverId: string,
  tool: ToolInfo | undefined,
  result: CallToolResult,
): ToolUi | undefined {
  const resourceUri = tool?.ui?.resourceUri;
  if (resourceUri) return { kind: "mcp-app", serverId, resourceUri };
  const resources = (result.content ?? []).flatMap((block) =>
    block.type === "resource" ? [block.resource as Record<string, unknown>] : []
  );
  for (const resource of resources) {
    const uri = String(resource.uri ?? "");
    const mime = essence(resource.mimeType);
    const legacy = mime === "text/html" || mime === "text/uri-list" ||
      mime.startsWith("application/vnd.mcp-ui.remote-dom");
    const app = String(resource.mimeType).includes("profile=mcp-app");
    if (uri.startsWith("ui://") && legacy && !app) return { kind: "mcp-ui", resource };
  }
  for (const resource of resources) {
    if (!A2UI_MIME_TYPES.has(essence(resource.mimeType))) continue;
    const text = typeof resource.text === "string"
      ? resource.text
      : typeof resource.blob === "string"
      ? new TextDecoder().decode(Uint8Array.from(atob(resource.blob), (c) => c.charCodeAt(0)))
      : undefined;
    const messages = text === undefined ? undefined : a2uiMessages(text);
    if (messages) return { kind: "a2ui", messages };
  }
  return undefined;
}
