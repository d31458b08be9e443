/**
 * One legacy MCP-UI resource on screen. Like an MCP App it runs inside the sandbox port's proxy
 * (the page's own CSP would stop its scripts: a `srcdoc` frame inherits it), in an inner frame
 * with `sandbox="allow-scripts"` only: HTML as `srcdoc`, a URL list's first URL as `src`. It
 * speaks the legacy protocol: `{type, payload, messageId?}` actions (`tool`, `prompt`, `link`,
 * `intent`, `notify`) answered with `ui-message-received` and `ui-message-response`, size and
 * render-data messages. Each action is logged as a `ui.action` event.
 */
import type { Chat } from "../chat/controller.ts";
import type { ToolCallView } from "../chat/model.ts";
import { describeError } from "../state.ts";
import { callAppTool, reportUiEvent } from "./mcp_api.ts";
import { sendUserTurn } from "./mcp_chat.ts";
import type { LinkRequests } from "./mcp_consent.tsx";
import {
  createSandboxFrame,
  PROXY_READY,
  PROXY_TIMEOUT_MS,
  RESOURCE_READY,
  sandboxUrl,
  setFrameHeight,
} from "./mcp_frame.ts";
import type { BridgeLog } from "./mcp_log.tsx";
import type { LegacyResource } from "./mcp_ui_resource.ts";

/** The inner frame's sandbox for legacy resources: scripts, no origin of their own. */
const LEGACY_SANDBOX = "allow-scripts";

/** Sources that are not tool servers (the render tool, skills, agents). */
const NOT_SERVERS = new Set(["ui", "skills", "agent", ""]);

/** Options of {@link startLegacySession}. */
export interface LegacySessionOptions {
  container: HTMLElement;
  origin: string;
  resource: LegacyResource & { view: { kind: "html" | "url" } };
  call: ToolCallView;
  runId?: string;
  chat: Chat | null;
  log: BridgeLog;
  links: LinkRequests;
  /** Shows a line from the resource (`notify`, `intent`). */
  notice: (text: string) => void;
  onError: (message: string) => void;
}

/** A legacy message from the resource. */
interface LegacyMessage {
  type: string;
  payload?: Record<string, unknown>;
  messageId?: string;
}

const ACTIONS = new Set(["tool", "prompt", "link", "intent", "notify"]);

/** Starts the resource; returns the function that removes it. */
export function startLegacySession(options: LegacySessionOptions): () => void {
  const { resource, call, log, origin } = options;
  const view = resource.view;
  const frame = createSandboxFrame({ title: `MCP-UI ${resource.uri}`, height: resource.height });
  options.container.append(frame);
  const target = frame.contentWindow!;
  let ready = false;

  const post = (message: Record<string, unknown>) => {
    if (typeof message.type === "string") {
      log.add({
        direction: "to-app",
        kind: "message",
        method: message.type,
        ...(typeof message.messageId === "string" && { id: message.messageId }),
      });
    }
    target.postMessage(message, origin);
  };
  const renderData = () => ({ ...resource.renderData, toolInput: call.input });

  const act = async (type: string, payload: Record<string, unknown>): Promise<unknown> => {
    switch (type) {
      case "tool": {
        if (NOT_SERVERS.has(call.source)) throw new Error("this result has no tool server");
        const params = payload.params && typeof payload.params === "object" ? payload.params : {};
        return await callAppTool(
          call.source,
          String(payload.toolName ?? ""),
          params as Record<string, unknown>,
        );
      }
      case "prompt": {
        const prompt = String(payload.prompt ?? "").trim();
        if (!options.chat || prompt === "") throw new Error("there is no chat to send it to");
        sendUserTurn(options.chat, prompt);
        return { sent: true };
      }
      case "link": {
        const opened = await options.links.ask(String(payload.url ?? ""));
        if (!opened) throw new Error("the link was not opened");
        return { opened: true };
      }
      case "intent":
        options.notice(`Intent "${payload.intent}": ${JSON.stringify(payload.params ?? {})}`);
        return { received: true };
      default:
        options.notice(String(payload.message ?? ""));
        return { received: true };
    }
  };

  const onAction = async ({ type, payload = {}, messageId }: LegacyMessage) => {
    reportUiEvent({
      type: "ui.action",
      data: {
        name: type,
        context: payload,
        renderer: "mcp-ui",
        resourceUri: resource.uri,
        tool: call.tool,
        toolCallId: call.id,
        ...(!NOT_SERVERS.has(call.source) && { serverId: call.source }),
        ...(messageId !== undefined && { messageId }),
        ...(options.runId && { runId: options.runId }),
        ...(options.chat && { sessionId: options.chat.id }),
      },
    });
    if (messageId !== undefined) post({ type: "ui-message-received", messageId });
    try {
      const response = await act(type, payload);
      if (messageId !== undefined) {
        post({ type: "ui-message-response", messageId, payload: { response } });
      }
    } catch (error) {
      if (messageId !== undefined) {
        post({ type: "ui-message-response", messageId, payload: { error: describeError(error) } });
      }
    }
  };

  const onMessage = (event: MessageEvent) => {
    if (event.source !== target || event.origin !== origin) return;
    const data = event.data as Record<string, unknown> | null;
    if (!data || typeof data !== "object") return;
    if (data.method === PROXY_READY) {
      if (ready) return;
      ready = true;
      clearTimeout(timer);
      log.add({ direction: "from-app", kind: "notification", method: PROXY_READY });
      log.add({ direction: "to-app", kind: "notification", method: RESOURCE_READY });
      const params = view.kind === "html"
        ? { html: view.html, sandbox: LEGACY_SANDBOX, csp: {} }
        : {
          url: view.url,
          sandbox: LEGACY_SANDBOX,
          csp: { frameDomains: [new URL(view.url).origin] },
        };
      target.postMessage({ jsonrpc: "2.0", method: RESOURCE_READY, params }, origin);
      return;
    }
    if (typeof data.type !== "string") return;
    const message = data as unknown as LegacyMessage;
    log.add({
      direction: "from-app",
      kind: "message",
      method: message.type,
      ...(typeof message.messageId === "string" && { id: message.messageId }),
    });
    const payload = (message.payload ?? {}) as Record<string, unknown>;
    if (ACTIONS.has(message.type)) {
      void onAction({ ...message, payload });
    } else if (message.type === "ui-size-change") {
      if (typeof payload.height === "number") setFrameHeight(frame, payload.height);
    } else if (message.type === "ui-lifecycle-iframe-ready") {
      post({ type: "ui-lifecycle-iframe-render-data", payload: { renderData: renderData() } });
    } else if (message.type === "ui-request-render-data") {
      post({
        type: "ui-lifecycle-iframe-render-data",
        messageId: message.messageId,
        payload: { renderData: renderData() },
      });
    }
  };

  addEventListener("message", onMessage);
  const timer = setTimeout(() => {
    if (!ready) options.onError(`The sandbox at ${origin} did not answer. Is it reachable?`);
  }, PROXY_TIMEOUT_MS);
  const csp = view.kind === "url" ? { frameDomains: [new URL(view.url).origin] } : {};
  frame.src = sandboxUrl(origin, csp);

  return () => {
    clearTimeout(timer);
    removeEventListener("message", onMessage);
    options.links.declineAll();
    frame.remove();
  };
}
