/**
 * `notifications/tasks` for the demo tool servers: a `subscriptions/listen` whose filter names
 * `taskIds` (MCP Tasks, 2026-07-28) gets the full task after every change. The SDK's listen
 * router knows only list changes and drops `taskIds`, so this sits in front of it: over HTTP around
 * the handler's `fetch` (rewriting its SSE stream), over stdio around the transport. The other
 * filter fields stay with the SDK; a filter with only `taskIds` is served here alone.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  type JSONRPCMessage,
  SUBSCRIPTION_ID_META_KEY,
  type Transport,
} from "@modelcontextprotocol/server";
import {
  type DetailedTask,
  missingTasksCapability,
  TASKS_EXTENSION_ID,
  type TaskStore,
} from "./tasks.ts";

type Json = Record<string, unknown>;
type RequestId = string | number;

/** A `subscriptions/listen` request that asks for task notifications. */
interface TaskListen {
  id: RequestId;
  /** The ids asked for. */
  taskIds: string[];
  /** The request without `taskIds`, or undefined when nothing else was asked for. */
  rest?: Json;
  declaresTasks: boolean;
}

/** Reads a listen request that names `taskIds`; anything else is undefined. */
function taskListenOf(message: unknown): TaskListen | undefined {
  const request = message as Json | null;
  if (request?.method !== "subscriptions/listen" || request.id === undefined) return undefined;
  const params = request.params as Json | undefined;
  const filter = params?.notifications as Json | undefined;
  if (!Array.isArray(filter?.taskIds)) return undefined;
  const { taskIds, ...others } = filter;
  const meta = params?._meta as Json | undefined;
  const capabilities = meta?.[CLIENT_CAPABILITIES_META_KEY] as Json | undefined;
  const extensions = capabilities?.extensions as Json | undefined;
  return {
    id: request.id as RequestId,
    taskIds: (taskIds as unknown[]).filter((id): id is string => typeof id === "string"),
    rest: Object.values(others).some((v) => v !== undefined && v !== false)
      ? { ...request, params: { ...params, notifications: others } }
      : undefined,
    declaresTasks: typeof extensions?.[TASKS_EXTENSION_ID] === "object",
  };
}

/** The -32021 answer for a listen that asks for tasks without declaring the extension. */
function missingCapabilityAnswer(id: RequestId) {
  const error = missingTasksCapability();
  return {
    jsonrpc: "2.0" as const,
    id,
    error: { code: error.code, message: error.message, data: error.data },
  };
}

function stamped(method: string, params: Json, subscriptionId: RequestId): Json {
  const meta = { ...params._meta as Json | undefined, [SUBSCRIPTION_ID_META_KEY]: subscriptionId };
  return { jsonrpc: "2.0", method, params: { ...params, _meta: meta } };
}

/**
 * Watches the tasks a listen agreed to: `send` gets their current state now and every change
 * after; returns the function that stops it.
 */
function watchTasks(
  store: TaskStore,
  taskIds: string[],
  subscriptionId: RequestId,
  send: (message: Json) => void,
): () => void {
  const watched = new Set(taskIds);
  const notify = (task: DetailedTask) => {
    if (watched.has(task.taskId)) send(stamped("notifications/tasks", { ...task }, subscriptionId));
  };
  const stop = store.onChange(notify);
  for (const taskId of taskIds) notify(store.get(taskId));
  return stop;
}

/** The ids of `taskIds` that the store knows: the ones the server agrees to report on. */
function knownTasks(store: TaskStore, taskIds: string[]): string[] {
  return taskIds.filter((taskId) => {
    try {
      store.get(taskId);
      return true;
    } catch {
      return false;
    }
  });
}

const SSE_HEADERS = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache, no-transform",
};

/** `fetch` of a demo handler, with `notifications/tasks` on listen streams that ask for them. */
export function taskListenFetch(
  fetch: (req: Request) => Promise<Response>,
  store: TaskStore,
): (req: Request) => Promise<Response> {
  return async (req) => {
    if (req.method !== "POST") return await fetch(req);
    let listen: TaskListen | undefined;
    try {
      listen = taskListenOf(JSON.parse(await req.clone().text()));
    } catch {
      listen = undefined;
    }
    if (!listen) return await fetch(req);
    if (!listen.declaresTasks) {
      return Response.json(missingCapabilityAnswer(listen.id), { status: 400 });
    }
    const taskIds = knownTasks(store, listen.taskIds);
    const encoder = new TextEncoder();
    const frame = (message: Json) =>
      encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
    let stop = () => {};
    if (!listen.rest) {
      const subscriptionId = listen.id;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          const ack = { notifications: { taskIds } };
          controller.enqueue(
            frame(stamped("notifications/subscriptions/acknowledged", ack, subscriptionId)),
          );
          stop = watchTasks(store, taskIds, subscriptionId, (m) => controller.enqueue(frame(m)));
          req.signal.addEventListener("abort", () => {
            stop();
            try {
              controller.close();
            } catch {
              // Already cancelled by the reader.
            }
          }, { once: true });
        },
        cancel: () => stop(),
      });
      return new Response(body, { headers: SSE_HEADERS });
    }
    const headers = new Headers(req.headers);
    headers.delete("content-length");
    const forwarded = new Request(req, { headers, body: JSON.stringify(listen.rest) });
    const response = await fetch(forwarded);
    if (!response.body || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      return response;
    }
    // Frames pass whole; the ack gains `taskIds`, then task notifications join the stream.
    const decoder = new TextDecoder();
    let buffered = "";
    const subscriptionId = listen.id;
    const rewrite = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        buffered += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffered.indexOf("\n\n")) !== -1) {
          const text = buffered.slice(0, end + 2);
          buffered = buffered.slice(end + 2);
          const data = text.split("\n").find((line) => line.startsWith("data: "));
          const message = data ? JSON.parse(data.slice(6)) : undefined;
          if (message?.method !== "notifications/subscriptions/acknowledged") {
            controller.enqueue(encoder.encode(text));
            continue;
          }
          message.params.notifications = { ...message.params.notifications, taskIds };
          controller.enqueue(frame(message));
          stop = watchTasks(store, taskIds, subscriptionId, (m) => controller.enqueue(frame(m)));
        }
      },
      flush: () => stop(),
    });
    return new Response(response.body.pipeThrough(rewrite), {
      status: response.status,
      headers: response.headers,
    });
  };
}

/** `inner` (a stdio transport), with `notifications/tasks` for listens that ask for them. */
export function taskListenTransport(inner: Transport, store: TaskStore): Transport {
  /** Open task subscriptions by listen id. */
  const watching = new Map<RequestId, () => void>();
  /** Listens handed to the SDK, waiting for its acknowledgement. */
  const pending = new Map<RequestId, string[]>();
  const send = (message: Json) => void inner.send(message as JSONRPCMessage).catch(() => {});
  const end = (id: RequestId) => {
    watching.get(id)?.();
    watching.delete(id);
    pending.delete(id);
  };
  const outer: Transport = {
    start: () => inner.start(),
    close: () => inner.close(),
    send: async (message, options) => {
      const out = message as Json;
      const params = out.params as Json | undefined;
      const subscriptionId = (params?._meta as Json | undefined)?.[SUBSCRIPTION_ID_META_KEY] as
        | RequestId
        | undefined;
      const taskIds = subscriptionId === undefined ? undefined : pending.get(subscriptionId);
      if (out.method === "notifications/subscriptions/acknowledged" && taskIds) {
        pending.delete(subscriptionId!);
        const notifications = { ...params!.notifications as Json, taskIds };
        await inner.send(
          { ...out, params: { ...params, notifications } } as unknown as JSONRPCMessage,
          options,
        );
        watching.set(subscriptionId!, watchTasks(store, taskIds, subscriptionId!, send));
        return;
      }
      if (out.id !== undefined && !("method" in out)) end(out.id as RequestId);
      await inner.send(message, options);
    },
  };
  inner.onmessage = (message, extra) => {
    const listen = taskListenOf(message);
    if (listen && !listen.declaresTasks) return send(missingCapabilityAnswer(listen.id));
    if (listen) {
      const taskIds = knownTasks(store, listen.taskIds);
      if (listen.rest) {
        pending.set(listen.id, taskIds);
        return outer.onmessage?.(listen.rest as JSONRPCMessage, extra);
      }
      send(
        stamped(
          "notifications/subscriptions/acknowledged",
          { notifications: { taskIds } },
          listen.id,
        ),
      );
      watching.set(listen.id, watchTasks(store, taskIds, listen.id, send));
      return;
    }
    const note = message as Json;
    if (note.method === "notifications/cancelled") {
      const requestId = (note.params as Json | undefined)?.requestId as RequestId | undefined;
      if (requestId !== undefined && watching.has(requestId) && !pending.has(requestId)) {
        end(requestId);
      }
    }
    outer.onmessage?.(message, extra);
  };
  inner.onerror = (error) => outer.onerror?.(error);
  inner.onclose = () => {
    for (const id of [...watching.keys()]) end(id);
    outer.onclose?.();
  };
  return outer;
}
