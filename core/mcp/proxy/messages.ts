/** Reading JSON-RPC messages as they cross the proxy: their kind, the client's name, SSE events. */
import type { ProxyClientInfo } from "../../../wire/trace.ts";

/** A JSON-RPC message as the proxy sees it: only the envelope matters. */
export interface RpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown> & { _meta?: Record<string, unknown> };
  result?: unknown;
  error?: unknown;
}

/** The `_meta` key of a 2026-07-28 request's client name. */
const CLIENT_INFO_META = "io.modelcontextprotocol/clientInfo";
/** The `_meta` key that ties a notification to its `subscriptions/listen` request. */
export const SUBSCRIPTION_META = "io.modelcontextprotocol/subscriptionId";

/** Whether a message is a request (a method and an id). */
export function isRequest(message: RpcMessage): boolean {
  return typeof message.method === "string" && message.id !== undefined && message.id !== null;
}

/** Whether a message is a response (an id, a result or an error, no method). */
export function isResponse(message: RpcMessage): boolean {
  return message.method === undefined && message.id !== undefined &&
    (message.result !== undefined || message.error !== undefined);
}

/**
 * The client's `clientInfo` from its 2025 `initialize` or a 2026 request's `_meta`, if the
 * message carries one.
 */
export function clientInfoOf(message: unknown): ProxyClientInfo | undefined {
  const { method, params } = (message ?? {}) as RpcMessage;
  const info = method === "initialize" ? params?.clientInfo : params?._meta?.[CLIENT_INFO_META];
  if (typeof info !== "object" || info === null) return undefined;
  const { name, version } = info as { name?: unknown; version?: unknown };
  if (typeof name !== "string" || name === "") return undefined;
  return { name, ...(typeof version === "string" && { version }) };
}

/** The messages of a POST body: one message or a batch; `undefined` when it is not JSON-RPC. */
export function parseMessages(text: string): RpcMessage[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (list.length === 0) return undefined;
  return list.every((item) => typeof item === "object" && item !== null && !Array.isArray(item))
    ? list as RpcMessage[]
    : undefined;
}

/** Splits `text/event-stream` text into events (blank-line separated, any line ending). */
class EventSplitter {
  readonly #decoder = new TextDecoder();
  #buffer = "";

  /** The events complete once `chunk` is added; with no chunk, the stream ended: the rest too. */
  push(chunk?: Uint8Array): string[] {
    this.#buffer += chunk ? this.#decoder.decode(chunk, { stream: true }) : this.#decoder.decode();
    if (this.#buffer.includes("\r")) this.#buffer = this.#buffer.replace(/\r\n?/g, "\n");
    const events: string[] = [];
    let end: number;
    while ((end = this.#buffer.indexOf("\n\n")) >= 0) {
      events.push(this.#buffer.slice(0, end));
      this.#buffer = this.#buffer.slice(end + 2);
    }
    if (!chunk && this.#buffer.trim() !== "") events.push(this.#buffer);
    return events;
  }
}

/** The JSON of an event's `data:` lines, or undefined (no data, not JSON: a keep-alive, an endpoint event). */
function eventMessage(event: string): RpcMessage | undefined {
  const data = event.split("\n").filter((line) => line.startsWith("data:"))
    .map((line) => line.slice(line.startsWith("data: ") ? 6 : 5)).join("\n");
  if (data === "") return undefined;
  try {
    return JSON.parse(data);
  } catch {
    return undefined;
  }
}

/**
 * A `text/event-stream` body passed on unchanged, the data of each event that parses as JSON handed
 * to `onMessage` on the side. One pull-based stream over the body's reader: no pipe between two
 * streams on the way (each hop costs every chunk a few promise turns).
 */
export function tapEventStream(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: unknown) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const splitter = new EventSplitter();
  const deliver = (events: string[]) => {
    for (const event of events) {
      const message = eventMessage(event);
      if (message !== undefined) onMessage(message);
    }
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        deliver(splitter.push());
        controller.close();
        return;
      }
      controller.enqueue(value);
      deliver(splitter.push(value));
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
}

/**
 * A `text/event-stream` body relayed event by event, for a server with holds: each event's message
 * is traced, and `hold` may keep it back (`null`: the event is not passed on) or change it; events
 * go on in their order. Slower than {@link tapEventStream}, which a server without holds gets.
 */
export function holdEventStream(
  onMessage: (message: unknown) => void,
  hold: (message: RpcMessage) => Promise<RpcMessage | null> | undefined,
): TransformStream<Uint8Array, Uint8Array> {
  const encoder = new TextEncoder();
  const splitter = new EventSplitter();
  const relay = async (
    events: string[],
    controller: TransformStreamDefaultController<Uint8Array>,
  ) => {
    for (const event of events) {
      const message = eventMessage(event);
      const waiting = message && hold(message);
      if (!waiting) {
        if (message) onMessage(message);
        controller.enqueue(encoder.encode(`${event}\n\n`));
        continue;
      }
      const decided = await waiting;
      if (decided === null) continue;
      onMessage(decided);
      const others = event.split("\n").filter((line) => !line.startsWith("data:"));
      controller.enqueue(
        encoder.encode(`${[...others, `data: ${JSON.stringify(decided)}`].join("\n")}\n\n`),
      );
    }
  };
  return new TransformStream({
    transform: (chunk, controller) => relay(splitter.push(chunk), controller),
    flush: (controller) => relay(splitter.push(), controller),
  });
}

/**
 * An event stream of whole events (as {@link holdEventStream} gives them) into which Lass can put
 * messages of its own between two events; `ended` is called once when the stream ends either way.
 */
export function addableEventStream(
  body: ReadableStream<Uint8Array>,
  ended: () => void,
): { body: ReadableStream<Uint8Array>; send(message: RpcMessage): boolean } {
  const encoder = new TextEncoder();
  const reader = body.getReader();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  const end = () => {
    if (open) open = false, ended();
  };
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    pull: async (c) => {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (!done) return c.enqueue(value);
      end();
      c.close();
    },
    cancel: async (reason) => {
      end();
      await reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
  return {
    body: stream,
    send: (message) => {
      if (!open) return false;
      controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
      return true;
    },
  };
}
