/**
 * A server's trace read as a timeline: each request paired with its response by JSON-RPC id (in
 * the direction it was asked), with its status and duration; notifications and log messages as
 * they came; and what a past request needs to be sent again.
 */
import type { TraceDirection, TraceMessage, TraceRequester } from "../../wire/trace.ts";

/** What every line of the timeline has. */
interface TimelineLine {
  key: string;
  /** The message's seq and time (for an exchange, the request's, or the lone response's). */
  seq: number;
  time: string;
  /** The direction (of an exchange's request): `out` Lass sent it, `in` the server did. */
  dir: TraceDirection;
  method: string;
  /** What it is about: a tool or prompt name, a URI. */
  subject: string;
  /** For a proxied exchange: the proxy session and the client's name. */
  session?: string;
  client?: string;
  /** Who asked Lass to send it: the inspector or a chat turn (none: Lass's own, or proxied). */
  by?: TraceRequester;
}

/** A request and its response (or the response alone, when its request left the trace). */
export interface Exchange extends TimelineLine {
  kind: "exchange";
  request?: TraceMessage;
  response?: TraceMessage;
  /** `cancelled`: a `notifications/cancelled` for it went the same way (it may get no answer). */
  status: "ok" | "error" | "pending" | "cancelled";
  ms?: number;
  /** A tool call that runs as an MCP task: the `tasks/get` and `tasks/result` requests about it. */
  polls?: Exchange[];
}

/** A notification (a log message has a `level`). */
export interface Notice extends TimelineLine {
  kind: "notice";
  message: TraceMessage;
  level?: string;
}

/** One line of the timeline. */
export type TimelineItem = Exchange | Notice;

/**
 * A timeline, oldest first, and the method of every message and who asked for it (a response gets
 * its request's).
 */
export interface Timeline {
  items: TimelineItem[];
  methods: Map<number, string>;
  requesters: Map<number, TraceRequester>;
}

/** The requests about a task that History folds under the call that started it. */
const POLLS = new Set(["tasks/get", "tasks/result"]);

/** The id of the task a tool call's result started (2025 `task`, or the 2026 extension's). */
function taskIdOf(response: TraceMessage): string | undefined {
  const result = bodyOf(response).result;
  if (!isRecord(result)) return undefined;
  const task = isRecord(result.task) ? result.task : result;
  return typeof task.taskId === "string" ? task.taskId : undefined;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const text = (value: unknown) => typeof value === "string" ? value : "";

/** The direction an answer to a message sent in `dir` travels. */
const ANSWER: Record<TraceDirection, TraceDirection> = {
  out: "in",
  in: "out",
  "view-out": "view-in",
  "view-in": "view-out",
};

/**
 * Where a request lives until its answer: by its proxy session (a proxied client numbers its
 * requests on its own), direction and id.
 */
const keyOf = (session: string | undefined, dir: TraceDirection, id: unknown) =>
  `${session ?? ""}:${dir}:${JSON.stringify(id)}`;

/** A message's body: the message, or for a clipped one what was kept of it. */
function bodyOf(message: TraceMessage): Json {
  return isRecord(message.message) ? message.message : {};
}

/** What a request or notification is about, in a few words. */
export function subjectOf(method: string, params: unknown): string {
  if (!isRecord(params)) return "";
  switch (method) {
    case "tools/call":
    case "prompts/get":
      return text(params.name);
    case "resources/read":
    case "resources/subscribe":
    case "resources/unsubscribe":
    case "notifications/resources/updated":
      return text(params.uri);
    case "completion/complete": {
      const ref = isRecord(params.ref) ? params.ref : {};
      const argument = isRecord(params.argument) ? params.argument : {};
      return `${text(ref.name) || text(ref.uri)} ${text(argument.name)}=${
        JSON.stringify(argument.value ?? "")
      }`;
    }
    case "logging/setLevel":
      return text(params.level);
    case "notifications/message": {
      const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
      return `${params.logger ? `${text(params.logger)}: ` : ""}${data ?? ""}`;
    }
    case "notifications/progress": {
      const of = params.total === undefined ? "" : `/${params.total}`;
      return `${params.progress}${of}${params.message ? ` ${text(params.message)}` : ""}`;
    }
    case "notifications/cancelled":
      return text(params.reason);
    default:
      return "";
  }
}

/** Whether a response says the request failed: a JSON-RPC error, or a tool result's `isError`. */
function failed(response: TraceMessage): boolean {
  const body = bodyOf(response);
  if (body.error !== undefined) return true;
  if (isRecord(body.result)) return body.result.isError === true;
  // A clipped response keeps the start of its JSON text, where the error member would be.
  return typeof body.clipped === "string" && /^\{[^{]*"error"\s*:/.test(body.clipped);
}

/** The proxy session and client name of a proxied message (nothing for Lass's own). */
function proxyOf(message: TraceMessage): { session?: string; client?: string } {
  if (message.via !== "proxy") return {};
  return {
    session: message.session,
    client: message.client?.name ?? `client ${message.session?.slice(0, 8) ?? ""}`,
  };
}

/** The subject of each message, worked out once (the timeline is read again as messages come). */
const subjects = new WeakMap<TraceMessage, string>();

/** Reads a trace (oldest first) as a timeline. */
export function timelineOf(messages: readonly TraceMessage[]): Timeline {
  const items: TimelineItem[] = [];
  const methods = new Map<number, string>();
  const requesters = new Map<number, TraceRequester>();
  const open = new Map<string, Exchange>();
  /** Tool calls that started a task, by the task's id (per proxy session). */
  const taskCalls = new Map<string, Exchange>();
  for (const message of messages) {
    const body = bodyOf(message);
    const method = text(body.method);
    const hasId = body.id !== undefined && body.id !== null;
    if (method !== "") {
      methods.set(message.seq, method);
      const params = isRecord(body.params) ? body.params : undefined;
      let subject = subjects.get(message);
      if (subject === undefined) {
        subject = subjectOf(method, params).slice(0, 300);
        subjects.set(message, subject);
      }
      const base = {
        key: `m${message.seq}`,
        seq: message.seq,
        time: message.time,
        dir: message.dir,
        method,
        subject,
        ...proxyOf(message),
        ...(message.by && { by: message.by }),
      };
      if (message.by) requesters.set(message.seq, message.by);
      if (method === "notifications/cancelled") {
        const cancelled = open.get(keyOf(message.session, message.dir, params?.requestId));
        if (cancelled) cancelled.status = "cancelled";
      }
      if (!hasId) {
        const level = method === "notifications/message" ? text(params?.level) : "";
        items.push({ kind: "notice", ...base, message, ...(level && { level }) });
        continue;
      }
      // An id used again (a new connection counts from 0) starts a new exchange.
      const exchange: Exchange = { kind: "exchange", ...base, request: message, status: "pending" };
      open.set(keyOf(message.session, message.dir, body.id), exchange);
      const call = POLLS.has(method)
        ? taskCalls.get(`${message.session ?? ""}:${text(params?.taskId)}`)
        : undefined;
      if (call) (call.polls ??= []).push(exchange);
      else items.push(exchange);
      continue;
    }
    if (!hasId) continue;
    const key = keyOf(message.session, ANSWER[message.dir], body.id);
    const exchange = open.get(key);
    open.delete(key);
    const status = failed(message) ? "error" : "ok";
    if (exchange) {
      exchange.response = message;
      if (exchange.status !== "cancelled") exchange.status = status;
      exchange.ms = message.ms;
      methods.set(message.seq, exchange.method);
      if (exchange.by) requesters.set(message.seq, exchange.by);
      const taskId = exchange.method === "tools/call" ? taskIdOf(message) : undefined;
      if (taskId) taskCalls.set(`${message.session ?? ""}:${taskId}`, exchange);
    } else {
      items.push({
        kind: "exchange",
        key: `m${message.seq}`,
        seq: message.seq,
        time: message.time,
        dir: ANSWER[message.dir],
        method: "",
        subject: "",
        response: message,
        status,
        ms: message.ms,
      });
    }
  }
  return { items, methods, requesters };
}

/** A past request of the inspector's kinds, as the inspector's routes take it again. */
export type Rerun =
  | { kind: "tool"; name: string; args: Record<string, unknown> }
  | { kind: "prompt"; name: string; args: Record<string, string> }
  | { kind: "resource"; uri: string };

/** What sending a request again takes, for `tools/call`, `prompts/get` and `resources/read`. */
export function rerunOf(exchange: Exchange): Rerun | null {
  const request = exchange.request;
  if (!request || request.truncated || exchange.dir !== "out") return null;
  const params = bodyOf(request).params;
  if (!isRecord(params)) return null;
  const args = isRecord(params.arguments) ? params.arguments : {};
  if (exchange.method === "tools/call" && typeof params.name === "string") {
    return { kind: "tool", name: params.name, args };
  }
  if (exchange.method === "prompts/get" && typeof params.name === "string") {
    const strings = Object.entries(args).filter((e): e is [string, string] =>
      typeof e[1] === "string"
    );
    return { kind: "prompt", name: params.name, args: Object.fromEntries(strings) };
  }
  if (exchange.method === "resources/read" && typeof params.uri === "string") {
    return { kind: "resource", uri: params.uri };
  }
  return null;
}
