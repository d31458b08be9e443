/**
 * MCP and MCP Apps types the renderers use (types only: nothing here reaches the bundle). The SDK's
 * `.js` subpaths need the `@ts-types` hints under Deno, as in `core/mcp/client.ts`.
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import type {
  CallToolResult,
  ContentBlock,
  JSONRPCMessage,
  ReadResourceResult,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

export type {
  McpUiHostContext,
  McpUiResourceCsp,
  McpUiResourceMeta,
  McpUiResourcePermissions,
} from "@modelcontextprotocol/ext-apps/app-bridge";

export type { CallToolResult, ContentBlock, ReadResourceResult, Transport };

/** One JSON-RPC message over a transport. */
export type JsonRpcMessage = JSONRPCMessage;
