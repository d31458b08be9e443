/**
 * MCP and MCP Apps types the renderers use (types only: nothing here reaches the bundle), from the
 * MCP SDK v2 client (`@modelcontextprotocol/client`, whose `Protocol` the ext-apps 2 `AppBridge`
 * extends) and ext-apps.
 */
import type {
  CallToolResult,
  ContentBlock,
  JSONRPCMessage,
  ReadResourceResult,
  Transport,
} from "@modelcontextprotocol/client";

export type {
  McpUiHostContext,
  McpUiResourceCsp,
  McpUiResourceMeta,
  McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";

export type { CallToolResult, ContentBlock, ReadResourceResult, Transport };

/** One JSON-RPC message over a transport. */
export type JsonRpcMessage = JSONRPCMessage;
