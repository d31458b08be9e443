/**
 * One MCP App on screen (MCP Apps 2026-01-26): reads the View's `ui://` resource, frames the
 * sandbox proxy, and answers the View through `AppBridge`. Tool calls and resource reads go to
 * the View's own server through Lass's API (visibility is enforced there); `ui/message` becomes a
 * user turn, `ui/update-model-context` context for the next one, `ui/open-link` a question to the
 * person. Every message that crosses is logged locally, as a `ui.rpc` event, and in the server's
 * wire trace (`view-out` / `view-in`).
 *
 * The bridge is ext-apps 2 (a `Protocol` of the MCP SDK v2 client) with no MCP client of its own
 * (`null`): nothing is auto-wired to a client, so a View's `tools/call` is always an app call
 * through `POST /api/mcp/:id/call`, which the server makes with its client's `callTool` (the
 * 2026 `Mcp-Param-*` headers included), never a raw `tools/call` request.
 */
import { ProtocolError } from "@modelcontextprotocol/client";
import { AppBridge } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { Chat } from "../chat/controller.ts";
import type { ToolCallView, ToolResultView } from "../chat/model.ts";
import { bootstrap, describeError } from "../state.ts";
import { callAppTool, readResource, reportUiEvent } from "./mcp_api.ts";
import { sendUserTurn, setModelContext, textOf } from "./mcp_chat.ts";
import type { LinkRequests } from "./mcp_consent.tsx";
import { createSandboxFrame, PROXY_TIMEOUT_MS, sandboxUrl, setFrameHeight } from "./mcp_frame.ts";
import { containerContext, hostContext, themeContext, watchTheme } from "./mcp_host.ts";
import type { BridgeLog } from "./mcp_log.tsx";
import { viewTrace } from "./mcp_trace.ts";
import { type Direction, SandboxTransport } from "./mcp_transport.ts";
import type {
  CallToolResult,
  JsonRpcMessage,
  McpUiHostContext,
  McpUiResourceMeta,
  ReadResourceResult,
} from "./mcp_types.ts";

/** What the card shows about the View. */
export type AppStatus =
  | { status: "loading" }
  | { status: "ready"; border: boolean }
  /** The View is shown but has not sent `ui/initialize` in time (it may still). */
  | { status: "silent"; seconds: number }
  | { status: "error"; error: string };

/** How long a View may take, once it has its HTML, to send `ui/initialize`. */
export const INIT_TIMEOUT_MS = 10_000;

/** Options of {@link startAppSession}. */
export interface AppSessionOptions {
  /** Where the frame goes. */
  container: HTMLElement;
  /** The sandbox port's origin. */
  origin: string;
  serverId: string;
  resourceUri: string;
  call: ToolCallView;
  result: ToolResultView;
  runId?: string;
  chat: Chat | null;
  log: BridgeLog;
  links: LinkRequests;
  onStatus: (status: AppStatus) => void;
}

/** The JSON-RPC code the spec uses for a refused request. */
const DENIED = -32000;

/** An error the bridge sends back to the View as a JSON-RPC error with this code and message. */
function rpcError(message: string, code = DENIED): ProtocolError {
  return new ProtocolError(code, message);
}

/** The View's HTML and `_meta.ui` from a `resources/read` answer. */
function viewOf(read: ReadResourceResult, uri: string): { html: string; meta: McpUiResourceMeta } {
  const contents = read.contents ?? [];
  const content = contents.find((item) => item.uri === uri) ?? contents[0];
  if (!content) throw new Error(`the server returned nothing for ${uri}`);
  const html = "text" in content && typeof content.text === "string"
    ? content.text
    : "blob" in content && typeof content.blob === "string"
    ? new TextDecoder().decode(Uint8Array.from(atob(content.blob), (c) => c.charCodeAt(0)))
    : undefined;
  if (html === undefined) throw new Error(`${uri} has no text or blob`);
  const meta = (content._meta as { ui?: McpUiResourceMeta } | undefined)?.ui ?? {};
  return { html, meta };
}

/** The tool result as the View gets it: the MCP result itself, or one made from the output. */
function toolResultOf(result: ToolResultView): CallToolResult {
  const raw = result.raw as CallToolResult | undefined;
  if (raw && Array.isArray(raw.content)) return raw;
  const text = typeof result.output === "string" ? result.output : JSON.stringify(result.output);
  return { content: [{ type: "text", text: text ?? "" }], isError: result.isError };
}

/** Starts the View; returns the function that tears it down. */
export function startAppSession(options: AppSessionOptions): () => void {
  const { serverId, resourceUri, call, log } = options;
  let closed = false;
  let bridge: AppBridge | undefined;
  let transport: SandboxTransport | undefined;
  let initialized = false;
  let initializing = false;
  const cleanups: (() => void)[] = [];
  const trace = viewTrace(serverId);

  const onCross = (direction: Direction, message: JsonRpcMessage) => {
    trace(direction, message);
    const entry = log.addJsonRpc(direction, message);
    if (direction === "from-app" && entry.method === "ui/initialize") initializing = true;
    const params = (message as { params?: { name?: unknown } }).params;
    reportUiEvent({
      type: "ui.rpc",
      data: {
        method: entry.method,
        direction,
        kind: entry.kind,
        serverId,
        resourceUri,
        toolCallId: call.id,
        ...(entry.id !== undefined && { id: entry.id }),
        ...(options.runId && { runId: options.runId }),
        ...(options.chat && { sessionId: options.chat.id }),
        ...(entry.method === "tools/call" && typeof params?.name === "string" &&
          { tool: params.name }),
      },
    });
  };

  const run = async () => {
    const { html, meta } = viewOf(await readResource(serverId, resourceUri), resourceUri);
    if (closed) return;
    const frame = createSandboxFrame({
      title: `MCP App ${resourceUri}`,
      permissions: meta.permissions,
    });
    options.container.append(frame);
    cleanups.push(() => frame.remove());
    let context = hostContext({
      container: options.container,
      serverId,
      tool: call.tool,
      callId: call.id,
    });
    const app = new AppBridge(
      null,
      { name: "Lass", version: bootstrap.peek()?.version ?? "0" },
      {
        openLinks: {},
        serverTools: {},
        serverResources: {},
        logging: {},
        updateModelContext: { text: {}, structuredContent: {} },
        message: { text: {} },
        sandbox: { csp: meta.csp, permissions: meta.permissions },
      },
      { hostContext: context },
    );
    bridge = app;
    answerView(app, options);

    let resourceSent = false;
    const timer = setTimeout(() => {
      if (!resourceSent && !closed) {
        options.onStatus({
          status: "error",
          error: `The sandbox at ${options.origin} did not answer within ` +
            `${PROXY_TIMEOUT_MS / 1000} s. Is Lass's sandbox port reachable?`,
        });
      }
    }, PROXY_TIMEOUT_MS);
    cleanups.push(() => clearTimeout(timer));
    app.onsandboxready = () => {
      if (resourceSent) return;
      resourceSent = true;
      clearTimeout(timer);
      void app.sendSandboxResourceReady({ html, csp: meta.csp, permissions: meta.permissions });
      // A View that never speaks MCP Apps stays on screen, but the card says why it has nothing.
      const silent = setTimeout(() => {
        if (!initializing && !closed) {
          options.onStatus({ status: "silent", seconds: INIT_TIMEOUT_MS / 1000 });
        }
      }, INIT_TIMEOUT_MS);
      cleanups.push(() => clearTimeout(silent));
    };
    app.oninitialized = () => {
      initialized = true;
      options.onStatus({ status: "ready", border: meta.prefersBorder !== false });
      // The View was answered with the context of when the bridge was made: what changed since
      // (the theme, the width) goes out now, as nothing may go out before `initialized`.
      app.setHostContext(context);
      const input = options.call.input;
      void app.sendToolInput({
        arguments: input && typeof input === "object" ? input as Record<string, unknown> : {},
      });
      void app.sendToolResult(toolResultOf(options.result));
    };
    app.onsizechange = ({ height }) => {
      if (height !== undefined) setFrameHeight(frame, height);
    };
    // The theme and the room follow the page; the bridge sends only what changed.
    const update = (change: Partial<McpUiHostContext>) => {
      context = { ...context, ...change };
      if (initialized) app.setHostContext(context);
    };
    cleanups.push(watchTheme(() => update(themeContext())));
    const resize = new ResizeObserver(() => update(containerContext(options.container)));
    resize.observe(options.container);
    cleanups.push(() => resize.disconnect());

    transport = new SandboxTransport(frame.contentWindow!, options.origin, onCross);
    await app.connect(transport);
    if (closed) return;
    frame.src = sandboxUrl(options.origin, meta.csp);
  };

  run().catch((error) => {
    if (!closed) options.onStatus({ status: "error", error: describeError(error) });
  });

  return () => {
    closed = true;
    options.links.declineAll();
    const finish = () => {
      for (const cleanup of cleanups.splice(0)) cleanup();
      // Closing the transport closes the bridge too (and rejects what is still pending).
      void transport?.close();
    };
    if (bridge && initialized) {
      // The spec asks to wait for the View's answer before removing it (when the card is still
      // there; a card that is gone takes its frame with it).
      bridge.teardownResource({}, { timeout: 1000 }).catch(() => {}).finally(finish);
    } else {
      finish();
    }
  };
}

/** The handlers of the View's requests. */
function answerView(app: AppBridge, options: AppSessionOptions): void {
  const { serverId, chat, log } = options;
  app.oncalltool = async ({ name, arguments: args }) => {
    try {
      return await callAppTool(serverId, name, args ?? {});
    } catch (error) {
      throw rpcError(describeError(error));
    }
  };
  app.onreadresource = async ({ uri }) => {
    try {
      return await readResource(serverId, uri);
    } catch (error) {
      throw rpcError(describeError(error));
    }
  };
  app.onlistresources = () => {
    const state = bootstrap.peek()?.mcp.find((server) => server.id === serverId);
    return Promise.resolve({ resources: (state?.resources ?? []) as never[] });
  };
  app.onmessage = ({ content }) => {
    const text = textOf(content);
    if (!chat || text === "") return Promise.resolve({ isError: true });
    sendUserTurn(chat, text);
    return Promise.resolve({});
  };
  app.onupdatemodelcontext = ({ content, structuredContent }) => {
    if (!chat) return Promise.reject(rpcError("there is no chat to give context to"));
    const parts = [textOf(content)];
    if (structuredContent !== undefined) parts.push(JSON.stringify(structuredContent));
    const name = app.getAppVersion()?.name || options.resourceUri;
    setModelContext(chat, name, parts.filter((part) => part !== "").join("\n"));
    return Promise.resolve({});
  };
  app.onopenlink = async ({ url }) => (await options.links.ask(url)) ? {} : { isError: true };
  app.onrequestdisplaymode = () => Promise.resolve({ mode: "inline" as const });
  app.onloggingmessage = ({ level, data }) => {
    log.note(`${level}: ${typeof data === "string" ? data : JSON.stringify(data)}`);
  };
}
