/**
 * MCP requests as spans (`McpRequestSpans`), on a recording span: which messages get a span and
 * the trace context, what the span says of the request and its answer, and that nothing changes
 * outside a traced tool call.
 */
import assert from "node:assert/strict";
import { McpRequestSpans } from "../../core/telemetry/mcp_spans.ts";
import { runInSpan } from "../../core/telemetry/active_span.ts";
import type {
  SpanAttributes,
  SpanFailure,
  SpanOptions,
  TraceSpan,
} from "../../core/telemetry/types.ts";

/** A span that records its children, attributes and end. */
class RecordingSpan implements TraceSpan {
  readonly traceId = "0af7651916cd43dd8448eb211c80319c";
  readonly children: RecordingSpan[] = [];
  attributes: SpanAttributes = {};
  ended?: { failure?: SpanFailure };
  constructor(readonly name: string, readonly spanId: string, readonly options: SpanOptions = {}) {
    this.attributes = { ...options.attributes };
  }
  get traceparent() {
    return `00-${this.traceId}-${this.spanId}-01`;
  }
  set(attributes: SpanAttributes) {
    Object.assign(this.attributes, attributes);
  }
  child(name: string, options?: SpanOptions) {
    const child = new RecordingSpan(
      name,
      (this.children.length + 1).toString(16).padStart(16, "0"),
      options,
    );
    this.children.push(child);
    return child;
  }
  end(failure?: SpanFailure) {
    this.ended ??= { failure };
  }
}

const http = new McpRequestSpans({
  networkTransport: "tcp",
  address: "tools.example",
  port: 8443,
  sessionId: () => "session-7",
});
http.negotiated("2025-11-25");

Deno.test("outside a traced tool call a request goes out as it is and opens no span", () => {
  const request = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
  assert.equal(http.outgoing(request), request);
});

Deno.test("a tools/call inside a tool call's span gets a client span and traceparent in params._meta", () => {
  const tool = new RecordingSpan("execute_tool x__add", "00000000000000aa");
  const meta = { progressToken: 4 };
  const request = {
    jsonrpc: "2.0",
    id: 9,
    method: "tools/call",
    params: { name: "add", arguments: { a: 1 }, _meta: meta },
  };
  const sent = runInSpan(tool, () => http.outgoing(request)) as typeof request & {
    params: { _meta: Record<string, unknown> };
  };
  const [span] = tool.children;
  assert.equal(span.name, "tools/call add");
  assert.equal(span.options.kind, "client");
  assert.deepEqual(span.attributes, {
    "mcp.method.name": "tools/call",
    "jsonrpc.request.id": "9",
    "mcp.session.id": "session-7",
    "mcp.protocol.version": "2025-11-25",
    "network.transport": "tcp",
    "server.address": "tools.example",
    "server.port": 8443,
    "gen_ai.tool.name": "add",
    "gen_ai.operation.name": "execute_tool",
  });
  assert.deepEqual(sent.params._meta, { progressToken: 4, traceparent: span.traceparent });
  assert.deepEqual(sent.params.arguments, { a: 1 });
  assert.deepEqual(meta, { progressToken: 4 }, "the caller's _meta is not changed");
  assert.equal(request.params._meta, meta);
  assert.equal(span.ended, undefined, "open until the answer");
  http.incoming({ jsonrpc: "2.0", id: 9, result: { content: [] } });
  assert.deepEqual(span.ended, { failure: undefined });
});

Deno.test("the answer ends the span: a JSON-RPC error by its code, an isError result as tool_error", () => {
  const tool = new RecordingSpan("execute_tool t", "00000000000000bb");
  runInSpan(tool, () => {
    http.outgoing({
      jsonrpc: "2.0",
      id: "a",
      method: "resources/read",
      params: { uri: "file:///x" },
    });
    http.outgoing({ jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "t" } });
    http.outgoing({ jsonrpc: "2.0", id: "c", method: "prompts/get", params: { name: "p" } });
    http.outgoing({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "c" },
    });
  });
  const [read, call, prompt] = tool.children;
  assert.equal(tool.children.length, 3, "a notification opens no span");
  assert.equal(read.name, "resources/read");
  assert.equal(read.attributes["mcp.resource.uri"], "file:///x");
  assert.equal(prompt.name, "prompts/get p");
  assert.equal(prompt.attributes["gen_ai.prompt.name"], "p");
  http.incoming({ jsonrpc: "2.0", id: "a", error: { code: -32002, message: "no such resource" } });
  http.incoming({ jsonrpc: "2.0", id: "b", result: { content: [], isError: true } });
  // A request from the server with the same id is not an answer.
  http.incoming({ jsonrpc: "2.0", id: "c", method: "ping" });
  assert.deepEqual(read.ended, { failure: { type: "-32002", message: "no such resource" } });
  assert.equal(read.attributes["rpc.response.status_code"], "-32002");
  assert.deepEqual(call.ended, { failure: { type: "tool_error" } });
  assert.equal(prompt.ended, undefined);
  http.closed();
  assert.equal((prompt as RecordingSpan).ended?.failure?.type, "connection_closed");
});
