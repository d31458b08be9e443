/**
 * The MCP SDK (v2) behind one module: open a session to a tool server over stdio, Streamable
 * HTTP, SSE or in process, in the 2026-07-28 era, the 2025 era, or whichever the server speaks.
 */
import {
  type CallToolResult,
  Client,
  type CreateMessageRequest,
  type CreateMessageResult as PlainMessageResult,
  type CreateMessageResultWithTools,
  type DiscoverResult,
  type ElicitRequest,
  type ElicitResult,
  type GetPromptResult,
  type McpSubscription,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplateType as ResourceTemplate,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/client/validators/ajv";
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/client";
import { VERSION } from "../version.ts";
import { taskGenerationOf } from "./_task_support.ts";
import { type LogLevel, openControls, type SessionControls } from "./_client_controls.ts";
import type { SessionAuth } from "./oauth/provider.ts";
import type { WireSink } from "./trace.ts";
import { createTransport, looksLikeSseEndpoint } from "./_transports.ts";
import {
  ClientTasks,
  RawChannel,
  type TaskCallOptions,
  type TaskSnapshot,
} from "./_client_tasks.ts";
import {
  type EraSetting,
  type EraVerdict,
  isAuthFailure,
  isNetworkFailure,
  urlElicitationsOf,
} from "./_client_errors.ts";

export {
  type EraSetting,
  type EraVerdict,
  isNotFound,
  isSessionGone,
  isTimeout,
} from "./_client_errors.ts";
export {
  type Completion,
  type CompletionRequest,
  LOG_LEVELS,
  type LogLevel,
  type SessionControls,
} from "./_client_controls.ts";
export {
  type TaskCallOptions,
  TaskEnded,
  type TaskSnapshot,
  type TaskStatus,
} from "./_client_tasks.ts";

/** The answer to a sampling request: one content block, or blocks with tool calls when tools were offered. */
export type CreateMessageResult = PlainMessageResult | CreateMessageResultWithTools;

export type {
  CallToolResult,
  ElicitResult,
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  Tool,
};

/** The params of a server's sampling request. */
export type SamplingParams = CreateMessageRequest["params"];
/** The params of a server's elicitation request (form or url mode). */
export type ElicitationParams = ElicitRequest["params"];

/**
 * A server Lass runs in its own process (the demo server): a new in-memory connection served like
 * stdio, or a `fetch` function answering Streamable HTTP requests.
 */
export type InProcessHandler =
  | { connect(): Transport }
  | { fetch(request: Request): Promise<Response> };

export type { SessionAuth } from "./oauth/provider.ts";

/** How to reach a tool server, with env references already resolved. */
export type TransportSpec =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "http" | "sse"; url: string; headers: Record<string, string>; auth?: SessionAuth }
  | { kind: "in-process"; handler: InProcessHandler };

/** What the session reports back to its owner. */
export interface SessionHandlers {
  sampling(params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult>;
  elicitation(params: ElicitationParams, signal: AbortSignal): Promise<ElicitResult>;
  log(level: string, data: unknown, logger?: string): void;
  stderr(line: string): void;
  listChanged(kind: "tools" | "prompts" | "resources"): void;
  /** The connection ended without `close()` being called (process exit, a stream that ended). */
  closed(): void;
  /** A remote transport reported a failure; the connection may be gone (the owner checks). */
  troubled(reason: string): void;
  /**
   * A wire-trace sink for each transport the session opens (its own, and an era probe's): every
   * JSON-RPC message that crosses it. Absent: nothing is recorded.
   */
  wire?(): WireSink;
  /** The roots Lass offers the server (file URIs); without it, none. */
  roots?(): { uri: string; name?: string }[];
  /** A resource the session follows has changed. */
  resourceUpdated?(uri: string): void;
}

/** Options of a tool call. */
export interface CallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: number, total?: number, message?: string) => void;
}

/** How to open a session. */
export interface OpenOptions {
  /** Bounds the handshake (and, under `auto`, the probe with the fallback). */
  timeoutMs: number;
  /** Which protocol era to speak; default `auto`. */
  era?: EraSetting;
  /** A verdict kept from an earlier connect to the same server: skips the probe. */
  prior?: EraVerdict;
  /** The log level chosen for this server before (kept across reconnects); default `debug`. */
  logLevel?: LogLevel;
}

/** An open connection to one tool server. */
export interface McpSession {
  readonly serverInfo?: { name: string; version: string; title?: string };
  readonly capabilities?: Record<string, unknown>;
  readonly instructions?: string;
  /** `modern` (2026-07-28 and later) or `legacy` (the 2025 `initialize` handshake). */
  readonly era: "modern" | "legacy";
  /** The negotiated protocol version. */
  readonly protocolVersion?: string;
  /** What to pass as `prior` next time. */
  readonly verdict: EraVerdict;
  /** Whether the peer is across the network (http, sse). */
  readonly remote: boolean;
  /** Completion, log level, resource subscriptions, ping and roots changes (`_client_controls.ts`). */
  readonly controls: SessionControls;
  /** Lists (every page); `timeoutMs` bounds the request. */
  listTools(timeoutMs?: number): Promise<Tool[]>;
  listPrompts(timeoutMs?: number): Promise<Prompt[]>;
  listResources(timeoutMs?: number): Promise<Resource[]>;
  listResourceTemplates(timeoutMs?: number): Promise<ResourceTemplate[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<CallToolResult>;
  readResource(uri: string, options: CallOptions): Promise<ReadResourceResult>;
  getPrompt(
    name: string,
    args: Record<string, string>,
    options: CallOptions,
  ): Promise<GetPromptResult>;
  /**
   * Whether a call of `tool` goes through MCP Tasks: the server runs tasks (2025
   * `capabilities.tasks`, or the 2026 extension) and the tool allows it (2025 `execution.taskSupport`).
   */
  runsAsTask(tool: string): boolean;
  /**
   * Calls a tool that may run as a task and follows the task to its end: `onStatus` hears every
   * change, input requests go to the session's handlers, aborting the signal cancels the task.
   * A task that fails or is cancelled rejects with `TaskEnded`.
   */
  callToolTask(
    name: string,
    args: Record<string, unknown>,
    options: TaskCallOptions,
  ): Promise<CallToolResult>;
  /** The server's current view of a task (`tasks/get`). */
  getTask(taskId: string, timeoutMs: number): Promise<TaskSnapshot>;
  /** Asks the server to cancel a task (cooperative: it may still complete). */
  cancelTask(taskId: string): Promise<void>;
  /** Whether a remote server still answers HTTP at all (any status counts); local ones are. */
  reachable(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens sessions; a test or another runtime may pass its own. */
export type SessionOpener = (
  spec: TransportSpec,
  handlers: SessionHandlers,
  options: OpenOptions,
) => Promise<McpSession>;

/** The identity and capabilities Lass announces to every tool server. */
const CLIENT_INFO = { name: "lass", version: VERSION };
const CLIENT_CAPABILITIES = {
  sampling: { tools: {} },
  elicitation: { form: { applyDefaults: true }, url: {} },
  roots: { listChanged: true },
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
};
/** The 2026 revision that `modern` pins. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/**
 * The SDK compiles every tool's output schema with AJV on each `tools/list` (most of a connect's
 * time); compiled validators are shared across sessions, keyed by the schema's text.
 */
class CachingValidator implements jsonSchemaValidator {
  readonly #inner = new AjvJsonSchemaValidator();
  readonly #cache = new Map<string, JsonSchemaValidator<unknown>>();

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    const key = JSON.stringify(schema);
    let validator = this.#cache.get(key);
    if (!validator) {
      validator = this.#inner.getValidator<unknown>(schema);
      this.#cache.set(key, validator);
      if (this.#cache.size > 1000) this.#cache.delete(this.#cache.keys().next().value!);
    }
    return validator as JsonSchemaValidator<T>;
  }
}

const sharedValidator = new CachingValidator();

/**
 * Opens a session. Under `auto` the SDK probes `server/discover` and falls back to `initialize`;
 * a probe that a broken gateway answers badly (5xx, an empty answer, a hang) is retried as
 * `legacy` on a fresh connection, so `auto` reaches every server that `legacy` reaches.
 */
export const openSession: SessionOpener = async (spec, handlers, options) => {
  const era = options.era ?? "auto";
  const started = performance.now();
  if (era !== "auto" || options.prior) return await connectOnce(spec, handlers, options);
  const probeMs = probeTimeout(spec, options.timeoutMs);
  try {
    return await connectOnce(spec, handlers, { ...options, probeMs });
  } catch (error) {
    if (isAuthFailure(error) || isUnreachable(spec, error)) throw error;
    const left = options.timeoutMs - (performance.now() - started);
    return await connectOnce(spec, handlers, {
      timeoutMs: Math.max(1000, left),
      era: "legacy",
      logLevel: options.logLevel,
    });
  }
};

async function connectOnce(
  spec: TransportSpec,
  handlers: SessionHandlers,
  options: OpenOptions & { probeMs?: number },
): Promise<McpSession> {
  const era = options.era ?? "auto";
  const client = new Client(CLIENT_INFO, {
    capabilities: CLIENT_CAPABILITIES,
    jsonSchemaValidator: sharedValidator,
    versionNegotiation: {
      mode: era === "modern" ? { pin: MODERN_PROTOCOL_VERSION } : era,
      ...(options.probeMs && { probe: { timeoutMs: options.probeMs } }),
    },
    inputRequired: { maxRounds: 10 },
  });
  client.setRequestHandler(
    "sampling/createMessage",
    (request, ctx) => handlers.sampling(request.params, ctx.mcpReq.signal),
  );
  client.setRequestHandler(
    "elicitation/create",
    (request, ctx) => handlers.elicitation(request.params, ctx.mcpReq.signal),
  );
  // The record's `roots`; on 2026 the SDK answers a request's input_required roots with it too.
  client.setRequestHandler("roots/list", () => ({ roots: handlers.roots?.() ?? [] }));
  client.setNotificationHandler(
    "notifications/resources/updated",
    (notification) => handlers.resourceUpdated?.(notification.params.uri),
  );
  client.setNotificationHandler("notifications/message", (notification) => {
    const { level, data, logger } = notification.params;
    handlers.log(level, data, logger);
  });
  for (const kind of ["tools", "prompts", "resources"] as const) {
    client.setNotificationHandler(
      `notifications/${kind}/list_changed`,
      () => handlers.listChanged(kind),
    );
  }

  const opened = await createTransport(spec, { stderr: handlers.stderr, wire: handlers.wire });
  let closing = false;
  // A stdio server is stopped with its whole process tree (see `_process_tree.ts`).
  const closeClient = () => {
    const close = () => client.close().catch(() => {});
    return opened.stop ? opened.stop(close) : close();
  };
  client.onclose = () => {
    if (!closing) handlers.closed();
  };
  client.onerror = (error) => {
    if (closing) return;
    handlers.log("error", `protocol error: ${error.message}`);
    if (opened.remote) handlers.troubled(error.message);
  };
  try {
    await client.connect(opened.transport, {
      timeout: options.timeoutMs,
      ...(options.prior && { prior: options.prior }),
    });
  } catch (error) {
    closing = true;
    await closeClient();
    if (spec.kind === "http" && !isAuthFailure(error) && !isNetworkFailure(error)) {
      if (await looksLikeSseEndpoint(spec.url, spec.headers, spec.auth?.fetch)) {
        throw new Error("this looks like an SSE endpoint: use transport sse");
      }
    }
    throw error;
  }

  const modern = client.getProtocolEra() === "modern";
  const discover = client.getDiscoverResult();
  const verdict: EraVerdict = modern && discover
    ? { kind: "modern", discover: discover as DiscoverResult }
    : { kind: "legacy" };
  const capabilities = client.getServerCapabilities() as Record<string, unknown> | undefined;
  const subscription = modern ? await listen(client, capabilities) : undefined;
  subscription?.closed.then((how) => {
    if (how === "remote" && !closing) handlers.troubled("the subscription stream ended");
  });
  const reachable = (timeoutMs: number) =>
    spec.kind === "http" || spec.kind === "sse"
      ? answersHttp(spec.url, spec.headers, timeoutMs)
      : Promise.resolve(true);
  // On the 2026 era a server logs only for requests that carry the wanted level (`requestMeta`).
  const controls = await openControls(client, {
    modern,
    capabilities,
    remote: opened.remote,
    reachable,
    logLevel: options.logLevel,
  });
  const taskGeneration = taskGenerationOf(
    client.getProtocolEra(),
    client.getServerCapabilities() as Record<string, unknown> | undefined,
  );
  const tasks = new ClientTasks(client, {
    generation: taskGeneration,
    // A 2026 task server answers shapes the SDK rejects: its task traffic goes around it.
    ...(taskGeneration === "v2" && { channel: new RawChannel(opened.transport) }),
    handlers,
    clientInfo: CLIENT_INFO,
    clientCapabilities: CLIENT_CAPABILITIES,
    protocolVersion: client.getNegotiatedProtocolVersion(),
    logLevel: () => controls.logLevel,
  });

  const requestOptions = (call: CallOptions) => ({
    timeout: call.timeoutMs,
    signal: call.signal,
    onprogress: call.onProgress &&
      ((p: { progress: number; total?: number; message?: string }) =>
        call.onProgress!(p.progress, p.total, p.message)),
    resetTimeoutOnProgress: true,
    // Progress may extend the deadline, but not forever.
    maxTotalTimeout: call.timeoutMs * 10,
  });
  const listOptions = (timeoutMs?: number) => ({
    timeout: timeoutMs,
    cacheMode: "refresh" as const,
  });
  return {
    serverInfo: client.getServerVersion(),
    capabilities,
    instructions: client.getInstructions(),
    era: modern ? "modern" : "legacy",
    protocolVersion: client.getNegotiatedProtocolVersion(),
    verdict,
    remote: opened.remote,
    controls,
    listTools: async (timeoutMs) => {
      if (!capabilities?.tools) return [];
      const { tools: list } = await client.listTools(undefined, listOptions(timeoutMs));
      tasks.noteTools(list);
      return list;
    },
    listPrompts: async (timeoutMs) =>
      capabilities?.prompts
        ? (await client.listPrompts(undefined, listOptions(timeoutMs))).prompts
        : [],
    listResources: async (timeoutMs) =>
      capabilities?.resources
        ? (await client.listResources(undefined, listOptions(timeoutMs))).resources
        : [],
    listResourceTemplates: async (timeoutMs) =>
      capabilities?.resources
        ? (await client.listResourceTemplates(undefined, listOptions(timeoutMs)))
          .resourceTemplates
        : [],
    callTool: async (name, args, call) => {
      const send = () =>
        client.callTool(
          { name, arguments: args, ...controls.requestMeta() },
          requestOptions(call),
        ) as Promise<
          CallToolResult
        >;
      try {
        return await send();
      } catch (error) {
        // A 2025 server that needs the user at a URL first (-32042): ask, then try once more.
        const elicitations = urlElicitationsOf(error);
        if (!elicitations) throw error;
        const signal = call.signal ?? new AbortController().signal;
        for (const params of elicitations) {
          const answer = await handlers.elicitation(params, signal);
          if (answer.action !== "accept") {
            throw new Error(
              `the server needs you to visit ${params.url}, and that was ${
                answer.action === "decline" ? "declined" : "cancelled"
              }`,
            );
          }
        }
        return await send();
      }
    },
    readResource: (uri, call) =>
      client.readResource({ uri, ...controls.requestMeta() }, requestOptions(call)),
    getPrompt: (name, args, call) =>
      client.getPrompt({ name, arguments: args, ...controls.requestMeta() }, requestOptions(call)),
    runsAsTask: (tool) => tasks.runsAsTask(tool),
    callToolTask: (name, args, options) => tasks.call(name, args, options),
    getTask: (taskId, timeoutMs) => tasks.get(taskId, timeoutMs),
    cancelTask: (taskId) => tasks.cancel(taskId),
    reachable,
    close: async () => {
      closing = true;
      await tasks.close();
      await controls.close();
      await subscription?.close().catch(() => {});
      await opened.terminate?.().catch(() => {});
      await closeClient();
    },
  };
}

/**
 * How long the `auto` probe may take: a third of the connect timeout (1 to 5 s) over HTTP, where
 * the fallback needs the rest; half of it on stdio, where the probe includes a process start.
 */
function probeTimeout(spec: TransportSpec, timeoutMs: number): number {
  if (spec.kind === "stdio") return Math.max(1000, Math.floor(timeoutMs / 2));
  return Math.max(1000, Math.min(5000, Math.floor(timeoutMs / 3)));
}

/** Whether a failure would repeat under any era: nothing to reach, nothing to start. */
function isUnreachable(spec: TransportSpec, error: unknown): boolean {
  if (spec.kind !== "stdio") return isNetworkFailure(error);
  return /ENOENT|not found|No such file/i.test((error as Error)?.message ?? "");
}

/** Opens the 2026 `subscriptions/listen` stream for the list changes the server announces. */
async function listen(
  client: Client,
  capabilities: Record<string, unknown> | undefined,
): Promise<McpSubscription | undefined> {
  const changes = (kind: string) =>
    (capabilities?.[kind] as { listChanged?: boolean } | undefined)?.listChanged === true;
  const filter = {
    ...(changes("tools") && { toolsListChanged: true }),
    ...(changes("prompts") && { promptsListChanged: true }),
    ...(changes("resources") && { resourcesListChanged: true }),
  };
  if (Object.keys(filter).length === 0) return undefined;
  try {
    return await client.listen(filter);
  } catch {
    // A server that announces list changes but refuses to stream them still serves its tools.
    return undefined;
  }
}

/** Whether a URL answers HTTP (any status): a HEAD request, bounded by `timeoutMs`. */
async function answersHttp(
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<boolean> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { method: "HEAD", headers, signal: controller.signal });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
