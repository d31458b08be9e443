/**
 * MCP requests as spans (the OpenTelemetry MCP semantic conventions): a request that a traced
 * tool call sends gets a client span, child of the call's span, named `{method} {target}`, and
 * its `params._meta` carries the span's W3C trace context (`traceparent`, `tracestate`) so the
 * server's spans join the trace. The span ends with the response.
 */
import { currentSpan } from "./active_span.ts";
import type { SpanAttributes, TraceSpan } from "./types.ts";

/** What the spans say of the connection a transport belongs to. */
export interface McpPeer {
  /** `pipe` (stdio), `tcp` (http, sse) or `inproc` (in process). */
  networkTransport: "pipe" | "tcp" | "inproc";
  /** The server's host and port, for a remote server. */
  address?: string;
  port?: number;
  /** The Streamable HTTP session id, once known. */
  sessionId(): string | undefined;
}

type Message = { id?: string | number; method?: string; params?: Record<string, unknown> };

/** The spans of one transport's requests, by JSON-RPC id. */
export class McpRequestSpans {
  readonly #peer: McpPeer;
  readonly #open = new Map<string | number, TraceSpan>();
  /** The protocol version the session negotiated. */
  #protocolVersion: string | undefined;

  constructor(peer: McpPeer) {
    this.#peer = peer;
  }

  /** The session is open: its requests carry the protocol version it negotiated. */
  negotiated(protocolVersion: string | undefined): void {
    this.#protocolVersion = protocolVersion;
  }

  /**
   * The message to send: a request sent inside a traced tool call opens its span and comes back
   * with the trace context in `params._meta` (a new object; the caller's stays as it was).
   */
  outgoing(message: unknown): unknown {
    const parent = currentSpan();
    if (!parent) return message;
    const request = message as Message;
    if (typeof request?.method !== "string" || request.id === undefined) return message;
    const params = request.params ?? {};
    const target = targetOf(request.method, params);
    const span = parent.child(target ? `${request.method} ${target}` : request.method, {
      kind: "client",
      attributes: {
        "mcp.method.name": request.method,
        "jsonrpc.request.id": String(request.id),
        "mcp.session.id": this.#peer.sessionId(),
        "mcp.protocol.version": this.#protocolVersion,
        "network.transport": this.#peer.networkTransport,
        "server.address": this.#peer.address,
        "server.port": this.#peer.port,
        ...targetAttributes(request.method, params),
      },
    });
    this.#open.set(request.id, span);
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    return {
      ...request,
      params: {
        ...params,
        _meta: {
          ...meta,
          traceparent: span.traceparent,
          ...(span.tracestate && { tracestate: span.tracestate }),
        },
      },
    };
  }

  /** Ends the span of the request a response answers. */
  incoming(message: unknown): void {
    const response = message as {
      id?: string | number;
      result?: Record<string, unknown>;
      error?: { code?: number; message?: string };
    };
    if (this.#open.size === 0 || response?.id === undefined) return;
    const span = this.#open.get(response.id);
    if (!span || (!("result" in response) && !("error" in response))) return;
    this.#open.delete(response.id);
    if (response.error) {
      const code = String(response.error.code ?? "error");
      span.set({ "rpc.response.status_code": code });
      span.end({ type: code, message: response.error.message });
    } else if (response.result?.isError === true) {
      span.end({ type: "tool_error" });
    } else span.end();
  }

  /** The connection closed: requests still open end failed. */
  closed(): void {
    for (const span of this.#open.values()) {
      span.end({ type: "connection_closed", message: "the connection closed before the answer" });
    }
    this.#open.clear();
  }
}

/** The low-cardinality target of a span's name: the tool or prompt. */
function targetOf(method: string, params: Record<string, unknown>): string | undefined {
  if (method === "tools/call" || method === "prompts/get") {
    return typeof params.name === "string" ? params.name : undefined;
  }
  return undefined;
}

/** The attributes a method's params bring: the tool, the prompt or the resource. */
function targetAttributes(method: string, params: Record<string, unknown>): SpanAttributes {
  const name = typeof params.name === "string" ? params.name : undefined;
  const uri = typeof params.uri === "string" ? params.uri : undefined;
  switch (method) {
    case "tools/call":
      return { "gen_ai.tool.name": name, "gen_ai.operation.name": "execute_tool" };
    case "prompts/get":
      return { "gen_ai.prompt.name": name };
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
      return { "mcp.resource.uri": uri };
    default:
      return {};
  }
}
