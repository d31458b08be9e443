/**
 * Taps an SDK transport for the wire trace and for telemetry: each message it sends and each one
 * it delivers goes to a sink first, and a request sent inside a traced tool call gets its span
 * and the trace context in `params._meta` (see `McpRequestSpans`). The instance keeps its class
 * (the SDK's stdio probe checks it): `send` and `onmessage` become own properties of the instance.
 */
import type { Transport } from "@modelcontextprotocol/client";
import type { McpRequestSpans } from "../../telemetry/mcp_spans.ts";
import type { WireSink } from "./trace.ts";

type OnMessage = NonNullable<Transport["onmessage"]>;

/**
 * Reports every message `transport` sends (`out`) and delivers to its handler (`in`) to `sink`,
 * and passes both through `spans`.
 */
export function tapTransport(
  transport: Transport,
  sink: WireSink | undefined,
  spans?: McpRequestSpans,
): void {
  const report = (dir: "out" | "in", message: unknown) => {
    try {
      sink?.(dir, message);
    } catch {
      // The trace never breaks the connection it watches.
    }
  };
  const send = transport.send;
  transport.send = (message, options) => {
    const sent = (spans?.outgoing(message) ?? message) as typeof message;
    report("out", sent);
    return send.call(transport, sent, options);
  };
  // Handlers chain (the SDK's probe and client, the raw task channel each wrap the one before):
  // a message is reported once, by the outermost handler the transport calls.
  let delivered: unknown;
  const wrap = (handler: OnMessage): OnMessage => (message, extra) => {
    if (message !== delivered) {
      delivered = message;
      report("in", message);
      spans?.incoming(message);
    }
    return handler(message, extra);
  };
  let current = transport.onmessage && wrap(transport.onmessage);
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (handler: OnMessage | undefined) => {
      current = handler && wrap(handler);
    },
  });
}
