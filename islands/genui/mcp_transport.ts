/**
 * The MCP transport between `AppBridge` and the sandbox proxy's window. Unlike the SDK's
 * `PostMessageTransport` it posts only to the sandbox origin (never `"*"`: if the frame were
 * navigated elsewhere, tool results would not follow) and accepts only that window at that origin.
 * Every message that crosses is shown to `onCross`, for the bridge log.
 */
import type { JsonRpcMessage, Transport } from "./mcp_types.ts";

/** Which way a message crossed the bridge. */
export type Direction = "to-app" | "from-app";

function isJsonRpc(data: unknown): data is JsonRpcMessage {
  return typeof data === "object" && data !== null &&
    (data as { jsonrpc?: unknown }).jsonrpc === "2.0";
}

/** A transport over `postMessage` to one window at one origin. */
export class SandboxTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JsonRpcMessage) => void;
  #listener?: (event: MessageEvent) => void;

  constructor(
    readonly target: Window,
    readonly origin: string,
    readonly onCross?: (direction: Direction, message: JsonRpcMessage) => void,
  ) {}

  start(): Promise<void> {
    this.#listener = (event) => {
      if (event.source !== this.target || event.origin !== this.origin) return;
      if (!isJsonRpc(event.data)) return;
      this.onCross?.("from-app", event.data);
      this.onmessage?.(event.data);
    };
    addEventListener("message", this.#listener);
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    this.onCross?.("to-app", message);
    this.target.postMessage(message, this.origin);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#listener) removeEventListener("message", this.#listener);
    this.#listener = undefined;
    this.onclose?.();
    return Promise.resolve();
  }
}
