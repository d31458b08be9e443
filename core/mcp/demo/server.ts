/**
 * The built-in demo tool server (`command: "service:demo"`): in-process for Lass over an
 * in-memory connection (or Streamable HTTP as a `fetch` function, no socket), over stdio for
 * other clients. All serve protocol 2026-07-28 and the 2025 era from one factory.
 */
import {
  createMcpHandler,
  InMemoryTransport,
  type McpRequestContext,
  McpServer,
  type Transport,
} from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { VERSION } from "../../version.ts";
import { registerClientRequestTools } from "./client_tools.ts";
import { registerDemoPrompts } from "./prompts.ts";
import { registerReportTool } from "./report_tool.ts";
import { registerDemoResources } from "./resources.ts";
import { taskListenFetch, taskListenTransport } from "./task_listen.ts";
import { registerTaskMethods, TaskStore } from "./tasks.ts";
import { registerBasicTools } from "./tools.ts";
import { registerUiTools } from "./ui_tools.ts";
import { type UiToolCounters } from "./types.ts";

/** The name the demo server reports (`serverInfo`). */
export const DEMO_SERVER_NAME = "lass-demo";

const INSTRUCTIONS = "Lass demo tool server: small offline tools for trying MCP features such as " +
  "structured output, progress, errors, elicitation, sampling, roots, tasks, logging and " +
  "generated UI (MCP Apps, legacy MCP-UI and A2UI). All data is made up locally, so nothing " +
  "needs a network or an API key. Start with `add`, `get_weather` or `show_dashboard`.";

/**
 * What the demo keeps between requests: a server instance may be built per request, so counters
 * and running tasks live here, one per handler or stdio connection.
 */
interface DemoState {
  counters: UiToolCounters;
  tasks: TaskStore;
}

function newDemoState(): DemoState {
  return { counters: { refreshes: 0, forms: 0 }, tasks: new TaskStore() };
}

/** The state of servers built by {@link createDemoServer} alone. */
const sharedState = newDemoState();

/**
 * Builds one demo server instance with all its tools, prompts and resources. Cheap: call it per
 * request or per connection. The serving entries pass `ctx`; its era decides whether the tasks
 * extension is offered (it is, unless the instance serves the 2025 era).
 */
export function createDemoServer(ctx?: McpRequestContext): McpServer {
  return buildDemoServer(sharedState, ctx);
}

function buildDemoServer(state: DemoState, ctx?: McpRequestContext): McpServer {
  const server = new McpServer(
    { name: DEMO_SERVER_NAME, title: "Lass demo tools", version: VERSION },
    { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
  );
  registerBasicTools(server);
  registerClientRequestTools(server);
  registerReportTool(server, state.tasks);
  registerUiTools(server, state.counters);
  registerDemoPrompts(server);
  registerDemoResources(server);
  if (ctx?.era !== "legacy") registerTaskMethods(server, state.tasks);
  return server;
}

/** The demo in this process: over Streamable HTTP as a `fetch` function, or over a direct in-memory connection. */
export interface DemoHandler {
  fetch(req: Request): Promise<Response>;
  /** A new connection to the demo (both eras), the way stdio serves it: one server per connection. */
  connect(): Transport;
  /** Stops in-flight requests and running tasks. */
  close(): Promise<void>;
}

/**
 * Serves the demo over Streamable HTTP: 2026-07-28 requests, and 2025 ones statelessly (which
 * cannot carry server-to-client requests: the 2025 era gets elicitation and sampling over stdio).
 * Each handler has its own counters and tasks; listen streams may ask for task notifications.
 */
export function createDemoHandler(): DemoHandler {
  const state = newDemoState();
  const handler = createMcpHandler((ctx) => buildDemoServer(state, ctx));
  const connections = new Set<{ close(): Promise<void> }>();
  return {
    fetch: taskListenFetch((req) => handler.fetch(req), state.tasks),
    connect: () => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const served = serveStdio((ctx) => buildDemoServer(state, ctx), {
        transport: closeAware(taskListenTransport(serverSide, state.tasks), () => {
          connections.delete(served);
        }),
      });
      connections.add(served);
      return clientSide;
    },
    close: async () => {
      state.tasks.close();
      await Promise.all([...connections].map((served) => served.close().catch(() => {})));
      await handler.close();
    },
  };
}

/**
 * Serves the demo on this process' stdin/stdout (both eras) until stdin ends.
 * Nothing else may write to stdout meanwhile: it carries the protocol.
 */
export async function runDemoServerOverStdio(): Promise<void> {
  const { StdioServerTransport } = await import("@modelcontextprotocol/server/stdio");
  const state = newDemoState();
  const wire = new StdioServerTransport();
  const ended = new Promise<void>((resolve) => {
    const transport = closeAware(taskListenTransport(wire, state.tasks), resolve);
    serveStdio((ctx) => buildDemoServer(state, ctx), { transport });
  });
  await ended;
  state.tasks.close();
}

/** Wraps `inner` so that `onClosed` runs once it closes (stdin ended or the entry closed it). */
function closeAware(inner: Transport, onClosed: () => void): Transport {
  const outer: Transport = {
    start: () => inner.start(),
    send: (message, options) => inner.send(message, options),
    close: () => inner.close(),
  };
  inner.onmessage = (message, extra) => outer.onmessage?.(message, extra);
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => {
    outer.onclose?.();
    onClosed();
  };
  return outer;
}

if (import.meta.main) await runDemoServerOverStdio();
