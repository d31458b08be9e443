/** What Lass knows about a tool server: its state record and its tools as the model sees them. */
import type { McpServerConfig } from "../config/schema.ts";
import type { LogLevel, Prompt, Resource, ResourceTemplate, Tool } from "./client.ts";
import { modelToolName } from "./tool_names.ts";

/** The states of a tool-server connection (DESIGN.md section 5). */
export type ServerStatus = "disconnected" | "connecting" | "connected" | "needs-auth" | "error";

/** A tool as `GET /api/mcp` lists it. */
export interface ToolInfo {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** Listed in `disabledTools`: hidden from the model. */
  disabled: boolean;
  /** The name the model sees, `<serverId>__<tool>`. */
  modelName: string;
  /** Offered to the model: not disabled, and its `_meta.ui.visibility` (if any) includes "model". */
  modelVisible: boolean;
  /** MCP Apps metadata: the UI resource and who may call the tool. */
  ui?: { resourceUri?: string; visibility?: string[] };
}

/**
 * What the connection tells of one tool server: the manager's record, which a (re)connect
 * replaces; {@link ToolServerState} adds the choices the user made over the API.
 */
export interface ConnectionState {
  id: string;
  name: string;
  transport: McpServerConfig["transport"];
  status: ServerStatus;
  error?: string;
  authUrl?: string;
  serverInfo?: { name: string; version: string; title?: string };
  capabilities?: Record<string, unknown>;
  instructions?: string;
  /** The protocol era of the open connection: `modern` (2026-07-28 and later) or `legacy` (2025). */
  era?: "modern" | "legacy";
  /** The negotiated protocol version. */
  protocolVersion?: string;
  tools: ToolInfo[];
  prompts: Prompt[];
  resources: Resource[];
  resourceTemplates: ResourceTemplate[];
  connectedAt?: string;
}

/** The state of one tool server, as `GET /api/mcp` reports it (`mcp.state` events carry a part). */
export interface ToolServerState extends ConnectionState {
  /** The log level set with `POST /api/mcp/:id/log-level`; absent when never set. */
  logLevel?: LogLevel;
  /** The URIs of the resources Lass follows for the user, in the order they were subscribed. */
  subscriptions: string[];
}

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
