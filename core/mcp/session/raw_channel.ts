/**
 * A raw JSON-RPC channel tapped into a session's transport, for a 2026 task server whose answers
 * the SDK client would reject: requests with ids of its own, their answers and progress.
 */
import { SdkError, SdkErrorCode, type Transport } from "@modelcontextprotocol/client";
import type { DispatchOptions, JsonRpcResponse } from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue } from "@modelcontextprotocol/ext-tasks/core";
import { paramHeaders } from "./param_headers.ts";

type Message = { id?: string | number; method?: string; params?: Record<string, unknown> } & {
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

interface Pending {
  settle(response: JsonRpcResponse): void;
  fail(error: unknown): void;
  /** Re-arms the request's deadline (progress arrived). */
  rearm(): void;
  token?: string;
}

const RAW_ID_PREFIX = "lass-task-";

/**
 * The extra headers of one raw request: those ext-tasks asks for, and for a `tools/call` the
 * SEP-2243 `Mcp-Param-*` mirror of its arguments (the SDK's `callTool` would send them too).
 */
function headersOf(
  method: string,
  params: Record<string, unknown> | undefined,
  options: DispatchOptions,
  inputSchemaOf: (tool: string) => unknown,
): { headers?: Record<string, string> } {
  const headers: Record<string, string> = { ...options.context?.headers };
  if (method === "tools/call" && typeof params?.name === "string") {
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    Object.assign(headers, paramHeaders(inputSchemaOf(params.name), args));
  }
  return Object.keys(headers).length > 0 ? { headers } : {};
}

/**
 * A raw JSON-RPC channel under the SDK client: requests with ids of its own go out through the
 * session's transport, and their answers (and progress for their tokens) are taken out of the
 * incoming messages before the client sees them. Install it after `Client.connect`.
 */
export class RawChannel {
  readonly #transport: Transport;
  /** The input schema of a listed tool, for the `Mcp-Param-*` headers of its calls. */
  inputSchemaOf: (tool: string) => unknown = () => undefined;
  readonly #pending = new Map<string, Pending>();
  readonly #progress = new Map<
    string,
    (progress: number, total?: number, message?: string) => void
  >();
  #next = 0;

  constructor(transport: Transport) {
    this.#transport = transport;
    const inner = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if (!this.#take(message as Message)) inner?.(message, extra);
    };
    // Requests still waiting when the connection ends get no answer: fail them.
    const innerClose = transport.onclose;
    transport.onclose = () => {
      const closed = new SdkError(SdkErrorCode.ConnectionClosed, "the connection closed");
      for (const pending of [...this.#pending.values()]) pending.fail(closed);
      innerClose?.();
    };
  }

  /** A progress token whose notifications go to `listener`, until `release` is called. */
  progressToken(
    listener: (progress: number, total?: number, message?: string) => void,
  ): { token: string; release: () => void } {
    const token = `${RAW_ID_PREFIX}progress-${++this.#next}`;
    this.#progress.set(token, listener);
    return { token, release: () => this.#progress.delete(token) };
  }

  /** Sends one request (as ext-tasks framed it) and waits for its answer. */
  dispatch = (request: JsonValue, options: DispatchOptions = {}): Promise<JsonRpcResponse> => {
    const { method, params } = request as { method: string; params?: Record<string, unknown> };
    const id = `${RAW_ID_PREFIX}${++this.#next}`;
    const token = (params?._meta as { progressToken?: unknown } | undefined)?.progressToken;
    const signal = options.signal;
    const timeoutMs = options.context?.requestTimeoutMs;
    const stream = new AbortController();
    return new Promise<JsonRpcResponse>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        this.#pending.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const abandon = () => {
        // 2026 cancellation: close the request's stream (HTTP) or say so (stdio).
        if (this.#transport.hasPerRequestStream) stream.abort();
        else {
          this.#transport.send({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason: "cancelled by Lass" },
          }).catch(() => {});
        }
      };
      const onAbort = () => {
        done();
        abandon();
        reject(signal!.reason);
      };
      const arm = () => {
        if (!timeoutMs) return;
        clearTimeout(timer);
        timer = setTimeout(() => {
          done();
          abandon();
          reject(new SdkError(SdkErrorCode.RequestTimeout, `${method} timed out`));
        }, timeoutMs);
      };
      const fail = (error: unknown) => {
        if (!this.#pending.has(id)) return;
        done();
        reject(error);
      };
      this.#pending.set(id, {
        settle: (response) => {
          done();
          resolve(response);
        },
        fail,
        rearm: () => {
          if (options.context?.resetTimeoutOnProgress) arm();
        },
        ...(typeof token === "string" && { token }),
      });
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      arm();
      this.#transport.send({ jsonrpc: "2.0", id, method, params } as never, {
        requestSignal: stream.signal,
        onRequestStreamEnd: () =>
          fail(
            new SdkError(
              SdkErrorCode.ConnectionClosed,
              `the server closed the stream of ${method} before it answered`,
            ),
          ),
        ...(headersOf(method, params, options, this.inputSchemaOf)),
      }).catch(fail);
    });
  };

  /** Whether an incoming message was ours (and is now handled). */
  #take(message: Message): boolean {
    if (message.method === "notifications/progress") {
      const params = message.params as
        | { progressToken?: unknown; progress: number; total?: number; message?: string }
        | undefined;
      const token = params?.progressToken;
      const listener = typeof token === "string" ? this.#progress.get(token) : undefined;
      if (!listener || !params) return false;
      for (const pending of this.#pending.values()) if (pending.token === token) pending.rearm();
      listener(params.progress, params.total, params.message);
      return true;
    }
    if (message.method !== undefined || typeof message.id !== "string") return false;
    const pending = this.#pending.get(message.id);
    if (!pending) return message.id.startsWith(RAW_ID_PREFIX);
    pending.settle(
      message.error
        ? { kind: "error", error: message.error as never }
        : { kind: "result", result: (message.result ?? {}) as JsonValue },
    );
    return true;
  }
}
