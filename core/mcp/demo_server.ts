/** The built-in demo tool server (`command: "service:demo"`): in-process for Lass, stdio for other clients. */
import process from "node:process";
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "../version.ts";
import { registerClientRequestTools } from "./_demo_client_tools.ts";
import { registerDemoPrompts } from "./_demo_prompts.ts";
import { registerDemoResources } from "./_demo_resources.ts";
import { registerBasicTools } from "./_demo_tools.ts";
import { registerUiTools } from "./_demo_ui_tools.ts";

/** The name the demo server reports in `initialize`. */
export const DEMO_SERVER_NAME = "lass-demo";

const INSTRUCTIONS = "Lass demo tool server: small offline tools for trying MCP features such as " +
  "structured output, progress, errors, elicitation, sampling, logging and generated UI " +
  "(MCP Apps, legacy MCP-UI and A2UI). All data is made up locally, so nothing needs a network " +
  "or an API key. Start with `add`, `get_weather` or `show_dashboard`.";

/** Creates a fresh demo server with all its tools, prompts and resources; connect it to any transport. */
export function createDemoServer(): McpServer {
  const server = new McpServer(
    { name: DEMO_SERVER_NAME, title: "Lass demo tools", version: VERSION },
    { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
  );
  registerBasicTools(server);
  registerClientRequestTools(server);
  registerUiTools(server);
  registerDemoPrompts(server);
  registerDemoResources(server);
  return server;
}

/**
 * Serves a new demo server on this process' stdin/stdout until stdin closes.
 * Nothing else may write to stdout meanwhile: it carries the protocol.
 */
export async function runDemoServerOverStdio(): Promise<void> {
  const { StdioServerTransport } = await import(
    "@modelcontextprotocol/sdk/server/stdio.js"
  ) as typeof import("@modelcontextprotocol/sdk/server/stdio");
  const server = createDemoServer();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  // The SDK's stdio transport never notices the end of stdin, so close the server ourselves.
  const closeOnEnd = () => void server.close();
  process.stdin.once("end", closeOnEnd);
  try {
    await server.connect(new StdioServerTransport());
    await closed;
  } finally {
    process.stdin.off("end", closeOnEnd);
  }
}

if (import.meta.main) await runDemoServerOverStdio();
