/**
 * Streamable HTTP in front of one message channel to a tool server (a stdio process, an SSE
 * connection, the in-process demo): each client POST becomes an event stream that carries what the
 * server sends for its requests and ends with their responses; a 2025 session's GET stream carries
 * the rest. Request ids are mapped to the channel's own, so that the clients sharing one channel
 * (2026-07-28 clients have no session) never see each other's answers.
 */
import type { Transport } from "@modelcontextprotocol/client";
import type { HoldOutcome } from "./holds.ts";
import { isRequest, isResponse, type RpcMessage, SUBSCRIPTION_META } from "./messages.ts";
import type { ProxySession } from "./registry.ts";

/**
 * The holds of the bridged server: which requests wait for the user (or are answered by Lass, as
 * a call of a tool pinning holds back), the wait, and the server's answers as the client gets them.
 */
export interface HoldPoint {
  held(message: RpcMessage): boolean;
  decide(session: ProxySession, dir: "out" | "in", message: RpcMessage): Promise<HoldOutcome>;
  /** The server's response to a client's request of `method`, as it goes to the client. */
  answer(method: string, response: RpcMessage): RpcMessage;
}

/** Messages kept for a 2025 session's GET stream while none is open. */
const MAX_QUEUED = 200;

/** An open event stream to the client. */
class ClientStream {
  readonly #encoder = new TextEncoder();
  #controller?: ReadableStreamDefaultController<Uint8Array>;
  #open = true;
  readonly body: ReadableStream<Uint8Array>;
  /** Upstream ids of the requests whose responses this stream still waits for. */
  readonly waiting = new Set<number>();

  constructor(readonly session: ProxySession, onCancel: (stream: ClientStream) => void) {
    this.body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => {
        this.#open = false;
        onCancel(this);
      },
    });
  }

  get open(): boolean {
    return this.#open;
  }

  send(message: unknown): void {
    if (!this.#open) return;
    this.session.observe("in", message);
    this.#controller!.enqueue(
      this.#encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`),
    );
  }

  end(): void {
    if (!this.#open) return;
    this.#open = false;
    try {
      this.#controller!.close();
    } catch {
      // Already cancelled by the client.
    }
  }
}

/** A request of a client on its way to the server. */
interface Pending {
  clientId: string | number;
  stream: ClientStream;
  method: string;
  progressToken?: unknown;
  /** The user dropped it: the server never saw it. */
  dropped?: boolean;
}

/** Streamable HTTP for the clients of one upstream channel. */
export class MessageBridge {
  readonly #upstream: Transport;
  readonly #pending = new Map<number, Pending>();
  /** Open POST streams, newest last: a message tied to no request goes to the newest. */
  readonly #streams: ClientStream[] = [];
  #standalone?: ClientStream;
  readonly #queued: unknown[] = [];
  #nextId = 1;
  #closed = false;
  /** Called once when the upstream channel ends (the process exited, the connection dropped). */
  onClosed: () => void = () => {};
  readonly #holds?: HoldPoint;

  /** `owner`: the one session of a 2025 channel, which gets the GET stream and the rest. */
  constructor(upstream: Transport, readonly owner?: ProxySession, holds?: HoldPoint) {
    this.#upstream = upstream;
    this.#holds = holds;
    upstream.onmessage = (message) => this.#fromServer(message as RpcMessage);
    upstream.onclose = () => this.#ended();
    upstream.onerror = () => {};
  }

  /** Starts the channel (spawns the process, opens the connection). */
  async start(): Promise<void> {
    await this.#upstream.start();
  }

  /** Whether the channel has ended. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * One POST of `session`: its messages go to the server; the answer is 202 when it held no
   * request, else an event stream that ends with the last response.
   */
  async post(messages: RpcMessage[], session: ProxySession): Promise<Response> {
    if (this.#closed) throw new Error("the server's connection has ended");
    const requests = messages.filter(isRequest);
    const stream = requests.length > 0
      ? new ClientStream(session, (cancelled) => this.#cancelled(cancelled))
      : undefined;
    if (stream) this.#streams.push(stream);
    for (const message of messages) {
      if (stream && isRequest(message)) {
        const id = this.#nextId++;
        stream.waiting.add(id);
        const progressToken = message.params?._meta?.progressToken;
        this.#pending.set(id, {
          clientId: message.id!,
          stream,
          method: message.method!,
          ...(progressToken !== undefined && { progressToken }),
        });
        if (this.#holds?.held(message)) {
          void this.#heldRequest(session, message, id);
          continue;
        }
        session.observe("out", message);
        await this.#upstream.send({ ...message, id } as never);
      } else {
        session.observe("out", message);
        await this.#upstream.send(this.#upstreamIds(message, session) as never);
      }
    }
    if (!stream) return new Response(null, { status: 202 });
    return new Response(stream.body, { headers: EVENT_STREAM_HEADERS });
  }

  /**
   * A client's notification as the server must read it: a `notifications/cancelled` names the
   * request by the id the server knows it by.
   */
  #upstreamIds(message: RpcMessage, session: ProxySession): RpcMessage {
    if (message.method !== "notifications/cancelled") return message;
    const requestId = message.params?.requestId;
    for (const [id, pending] of this.#pending) {
      if (pending.clientId === requestId && pending.stream.session === session) {
        return { ...message, params: { ...message.params, requestId: id } };
      }
    }
    return message;
  }

  /** The GET stream of a 2025 session: what the server sends outside any request. */
  listen(session: ProxySession): Response {
    this.#standalone?.end();
    const stream = new ClientStream(session, (cancelled) => {
      if (this.#standalone === cancelled) this.#standalone = undefined;
    });
    this.#standalone = stream;
    for (const message of this.#queued.splice(0)) stream.send(message);
    return new Response(stream.body, { headers: EVENT_STREAM_HEADERS });
  }

  /** A message of Lass's own to the clients (as if the server sent it outside any request). */
  notify(message: RpcMessage): boolean {
    if (this.#closed) return false;
    this.#deliver(message);
    return true;
  }

  /** Ends the channel and every stream. */
  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#upstream.close().catch(() => {});
    this.#ended();
  }

  #fromServer(message: RpcMessage): void {
    if (isResponse(message) && typeof message.id === "number") {
      const pending = this.#pending.get(message.id);
      if (pending) {
        this.#pending.delete(message.id);
        const answer = this.#holds ? this.#holds.answer(pending.method, message) : message;
        pending.stream.send({ ...answer, id: pending.clientId });
        pending.stream.waiting.delete(message.id);
        if (pending.stream.waiting.size === 0) this.#finish(pending.stream);
        return;
      }
    }
    if (this.#holds?.held(message)) {
      void this.#heldServerRequest(message);
      return;
    }
    this.#deliver(message);
  }

  /** Sends what the server sent to the stream it belongs to. */
  #deliver(message: RpcMessage): void {
    const related = this.#relatedStream(message);
    if (related) {
      related.stream.send(related.message);
      return;
    }
    const newest = this.#streams.findLast((stream) => stream.open);
    if (newest) newest.send(message);
    else if (this.#standalone?.open) this.#standalone.send(message);
    else if (this.owner) {
      // The message is part of the session even when no stream is open to carry it.
      if (this.#queued.length < MAX_QUEUED) this.#queued.push(message);
    }
  }

  /** A client's request that is held: sent, answered in the server's place, or dropped. */
  async #heldRequest(session: ProxySession, message: RpcMessage, id: number): Promise<void> {
    const outcome = await this.#holds!.decide(session, "out", message);
    const pending = this.#pending.get(id);
    if (!pending || this.#closed) return;
    if (outcome.action === "forward") {
      session.observe("out", outcome.message);
      await this.#upstream.send({ ...outcome.message, id } as never).catch(() => {});
    } else if (outcome.action === "reply") {
      session.observe("out", message);
      this.#pending.delete(id);
      pending.stream.send({ ...outcome.response, id: pending.clientId });
      pending.stream.waiting.delete(id);
      if (pending.stream.waiting.size === 0) this.#finish(pending.stream);
    } else {
      // Dropped: the server never sees it, and the client waits (until it gives up).
      session.observe("out", message);
      pending.dropped = true;
    }
  }

  /** A request of the server's that is held: delivered, answered in the client's place, or dropped. */
  async #heldServerRequest(message: RpcMessage): Promise<void> {
    const session = this.owner ?? this.#streams.findLast((stream) => stream.open)?.session;
    if (!session) return this.#deliver(message);
    const outcome = await this.#holds!.decide(session, "in", message);
    if (this.#closed) return;
    if (outcome.action === "forward") return this.#deliver(outcome.message);
    session.observe("in", message);
    if (outcome.action === "reply") {
      session.observe("out", outcome.response);
      await this.#upstream.send(outcome.response as never).catch(() => {});
    }
  }

  /** The stream of the request a notification belongs to (by progress token, or subscription). */
  #relatedStream(message: RpcMessage): { stream: ClientStream; message: RpcMessage } | undefined {
    const params = message.params;
    if (!params || isRequest(message)) return undefined;
    const token = params.progressToken;
    if (token !== undefined) {
      for (const pending of this.#pending.values()) {
        if (pending.progressToken === token && pending.stream.open) {
          return { stream: pending.stream, message };
        }
      }
    }
    const subscription = params._meta?.[SUBSCRIPTION_META];
    if (typeof subscription === "number") {
      const pending = this.#pending.get(subscription);
      if (pending?.stream.open) {
        const _meta = { ...params._meta, [SUBSCRIPTION_META]: pending.clientId };
        return { stream: pending.stream, message: { ...message, params: { ...params, _meta } } };
      }
    }
    return undefined;
  }

  /** A client closed a POST stream: its requests still running are cancelled at the server. */
  #cancelled(stream: ClientStream): void {
    for (const [id, pending] of this.#pending) {
      if (pending.stream !== stream) continue;
      this.#pending.delete(id);
      if (!this.#closed && !pending.dropped) {
        this.#upstream.send({
          jsonrpc: "2.0",
          method: "notifications/cancelled",
          params: { requestId: id, reason: "the client closed the request's stream" },
        } as never).catch(() => {});
      }
    }
    this.#finish(stream);
  }

  #finish(stream: ClientStream): void {
    stream.end();
    const index = this.#streams.indexOf(stream);
    if (index >= 0) this.#streams.splice(index, 1);
  }

  #ended(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const [, pending] of this.#pending) {
      pending.stream.send({
        jsonrpc: "2.0",
        id: pending.clientId,
        error: { code: -32000, message: "the tool server's connection ended before it answered" },
      });
    }
    this.#pending.clear();
    for (const stream of this.#streams.splice(0)) stream.end();
    this.#standalone?.end();
    this.onClosed();
  }
}

const EVENT_STREAM_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
};
