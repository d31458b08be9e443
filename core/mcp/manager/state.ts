/** A tool server's state record as the manager builds it: empty, from its tools, with the record's settings. */
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import type { Tool } from "../session/types.ts";
import type { ConnectionState, ToolInfo } from "../../../wire/tool_servers.ts";
import { modelToolName } from "../tool_names.ts";

/** The state of a server that is not connected. */
export function emptyState(record: McpServerConfig): ConnectionState {
  return {
    id: record.id,
    name: record.name,
    transport: record.transport,
    status: "disconnected",
    tools: [],
    prompts: [],
    resources: [],
    resourceTemplates: [],
  };
}

/** The data of an `mcp.state` event: the status and what explains it, without the lists. */
export function stateEvent(state: ConnectionState): Record<string, unknown> {
  return {
    id: state.id,
    status: state.status,
    ...(state.error && { error: state.error }),
    ...(state.authUrl && { authUrl: state.authUrl }),
    ...(state.era && { era: state.era, protocolVersion: state.protocolVersion }),
    ...(state.retry && { retry: state.retry }),
  };
}

/** The tool as Lass lists it: names for the model, disabled and visibility flags, MCP Apps info. */
export function toolInfo(serverId: string, tool: Tool, disabledTools: readonly string[]): ToolInfo {
  const meta = (tool._meta ?? {}) as Record<string, unknown>;
  const ui = (meta.ui ?? {}) as { resourceUri?: unknown; visibility?: unknown };
  const resourceUri = typeof ui.resourceUri === "string"
    ? ui.resourceUri
    : typeof meta["ui/resourceUri"] === "string"
    ? meta["ui/resourceUri"] as string
    : undefined;
  const visibility = Array.isArray(ui.visibility)
    ? ui.visibility.filter((v): v is string => typeof v === "string")
    : undefined;
  const disabled = disabledTools.includes(tool.name);
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    description: tool.description ?? "",
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema && { outputSchema: tool.outputSchema as Record<string, unknown> }),
    ...(tool.annotations && { annotations: tool.annotations as Record<string, unknown> }),
    disabled,
    modelName: modelToolName(serverId, tool.name),
    modelVisible: !disabled && (visibility === undefined || visibility.includes("model")),
    ...((resourceUri || visibility) && { ui: { resourceUri, visibility } }),
  };
}

/** A state with a record's use-time settings applied: its name and which tools are disabled. */
export function withSettings(state: ConnectionState, record: McpServerConfig): ConnectionState {
  const disabledTools = record.disabledTools ?? [];
  const tools = state.tools.map((tool) => {
    const disabled = disabledTools.includes(tool.name);
    const visibility = tool.ui?.visibility;
    return {
      ...tool,
      disabled,
      modelVisible: !disabled && (visibility === undefined || visibility.includes("model")),
    };
  });
  return { ...state, name: record.name, tools };
}
