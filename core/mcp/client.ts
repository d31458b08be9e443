/** The MCP SDK behind one module: open a session to a tool server over stdio, Streamable HTTP or SSE. */
import { Client } from "@modelcontextprotocol/sdk/client";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
// @ts-types="@modelcontextprotocol/sdk/validation/types"
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from "@modelcontextprotocol/sdk/validation/types.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import type { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/sse"
import type { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
// @ts-types="@modelcontextprotocol/sdk/client/auth"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
import {
  type CallToolResult,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  type CreateMessageResult as PlainMessageResult,
  type CreateMessageResultWithTools,
  type ElicitRequest,
  ElicitRequestSchema,
  type ElicitResult,
  type GetPromptResult,
  LoggingMessageNotificationSchema,
  McpError,
  type Prompt,
  PromptListChangedNotificationSchema,
  type ReadResourceResult,
  type Resource,
  ResourceListChangedNotificationSchema,
  type ResourceTemplate,
  type Tool,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

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

/** An in-process server (the SDK's `McpServer` fits): connected over a linked in-memory pair. */
export interface InProcessServer {
  connect(transport: InMemoryTransport): Promise<void>;
  close(): Promise<void>;
}

/** OAuth for a remote transport (`core/mcp/oauth/`): the SDK's provider and the fetch under it. */
export interface SessionAuth {
  readonly provider: OAuthClientProvider;
  readonly fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Receives the transport's `finishAuth`, which completes a sign-in this transport started. */
  attach(finishAuth: (code: string) => Promise<void>): void;
}

/** How to reach a tool server, with env references already resolved. */
export type TransportSpec =
  | { kind: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: "http" | "sse"; url: string; headers: Record<string, string>; auth?: SessionAuth }
  | { kind: "in-process"; server: () => InProcessServer };

/** What the session reports back to its owner. */
export interface SessionHandlers {
  sampling(params: SamplingParams, signal: AbortSignal): Promise<CreateMessageResult>;
  elicitation(params: ElicitationParams, signal: AbortSignal): Promise<ElicitResult>;
  log(level: string, data: unknown, logger?: string): void;
  stderr(line: string): void;
  listChanged(kind: "tools" | "prompts" | "resources"): void;
  /** The connection ended without `close()` being called (process exit, network loss). */
  closed(): void;
}

/** Options of a tool call. */
export interface CallOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onProgress?: (progress: number, total?: number, message?: string) => void;
}

/** An open connection to one tool server. */
export interface McpSession {
  readonly serverInfo?: { name: string; version: string; title?: string };
  readonly capabilities?: Record<string, unknown>;
  readonly instructions?: string;
  /** Lists (every page); `timeoutMs` bounds each page request. */
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
  close(): Promise<void>;
}

/** Opens sessions; a test or another runtime may pass its own. */
export type SessionOpener = (
  spec: TransportSpec,
  handlers: SessionHandlers,
  options: { timeoutMs: number },
) => Promise<McpSession>;

/** The identity and capabilities Lass announces to every tool server. */
const CLIENT_INFO = { name: "lass", version: "0.1.0" };
const CLIENT_CAPABILITIES = {
  sampling: { tools: {} },
  elicitation: { form: { applyDefaults: true }, url: {} },
  extensions: { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } },
};

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

const MAX_STDERR_LINE = 4096;

/** The SDK's code for a request that timed out. */
export const REQUEST_TIMEOUT_CODE = -32001;

/** Whether an error is the SDK's request timeout. */
export function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === REQUEST_TIMEOUT_CODE &&
    /timed out/i.test(error.message);
}

/** Reads every page of a paginated list. */
async function allPages<T>(
  fetchPage: (cursor?: string) => Promise<{ nextCursor?: string; items: T[] }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (!result.nextCursor) break;
    cursor = result.nextCursor;
  }
  return items;
}

type AnyTransport =
  | StdioClientTransport
  | StreamableHTTPClientTransport
  | SSEClientTransport
  | InMemoryTransport;

/** Each transport module loads when first needed: an in-process-only setup never pays for them. */
async function createTransport(spec: TransportSpec, handlers: SessionHandlers): Promise<{
  transport: AnyTransport;
  /** For in-process servers: connects the server side; and stops it. */
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
  /** Ends a Streamable HTTP session before closing. */
  terminate?: () => Promise<void>;
}> {
  switch (spec.kind) {
    case "stdio": {
      const { StdioClientTransport } = await import(
        "@modelcontextprotocol/sdk/client/stdio.js"
      ) as typeof import("@modelcontextprotocol/sdk/client/stdio");
      const transport = new StdioClientTransport({
        command: spec.command,
        args: spec.args,
        env: spec.env,
        cwd: spec.cwd,
        stderr: "pipe",
      });
      // Lines are cut at 4 KiB so a server that never writes a newline cannot grow the buffer.
      const decoder = new TextDecoder();
      let partial = "";
      transport.stderr?.on("data", (chunk: Uint8Array | string) => {
        partial += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
        const lines = partial.split(/\r?\n/);
        partial = lines.pop() ?? "";
        if (partial.length > MAX_STDERR_LINE) {
          lines.push(partial.slice(0, MAX_STDERR_LINE));
          partial = "";
        }
        for (const line of lines) if (line.trim() !== "") handlers.stderr(line);
      });
      return { transport };
    }
    case "http": {
      const { StreamableHTTPClientTransport } = await import(
        "@modelcontextprotocol/sdk/client/streamableHttp.js"
      ) as typeof import("@modelcontextprotocol/sdk/client/streamableHttp");
      const transport = new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: spec.headers },
        ...(spec.auth && { authProvider: spec.auth.provider, fetch: spec.auth.fetch }),
      });
      spec.auth?.attach((code) => transport.finishAuth(code));
      // Deno keeps Streamable HTTP sockets open after close() unless the session is ended first.
      return { transport, terminate: () => transport.terminateSession() };
    }
    case "sse": {
      const { SSEClientTransport } = await import(
        "@modelcontextprotocol/sdk/client/sse.js"
      ) as typeof import("@modelcontextprotocol/sdk/client/sse");
      // The SDK sends `requestInit` headers on the event stream and on every POST.
      const transport = new SSEClientTransport(new URL(spec.url), {
        requestInit: { headers: spec.headers },
        ...(spec.auth && { authProvider: spec.auth.provider, fetch: spec.auth.fetch }),
      });
      spec.auth?.attach((code) => transport.finishAuth(code));
      return { transport };
    }
    case "in-process": {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const server = spec.server();
      return {
        transport: clientSide,
        start: () => server.connect(serverSide),
        stop: () => server.close(),
      };
    }
  }
}

/** Opens a session: connects, initializes within `timeoutMs`, and wires the handlers. */
export const openSession: SessionOpener = async (spec, handlers, options) => {
  const client = new Client(CLIENT_INFO, {
    capabilities: CLIENT_CAPABILITIES,
    jsonSchemaValidator: sharedValidator,
  });
  client.setRequestHandler(
    CreateMessageRequestSchema,
    (request, extra) => handlers.sampling(request.params, extra.signal),
  );
  client.setRequestHandler(
    ElicitRequestSchema,
    (request, extra) => handlers.elicitation(request.params, extra.signal),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    const { level, data, logger } = notification.params;
    handlers.log(level, data, logger);
  });
  client.setNotificationHandler(
    ToolListChangedNotificationSchema,
    () => handlers.listChanged("tools"),
  );
  client.setNotificationHandler(
    PromptListChangedNotificationSchema,
    () => handlers.listChanged("prompts"),
  );
  client.setNotificationHandler(
    ResourceListChangedNotificationSchema,
    () => handlers.listChanged("resources"),
  );

  const { transport, start, stop, terminate } = await createTransport(spec, handlers);
  let closing = false;
  client.onclose = () => {
    if (!closing) handlers.closed();
  };
  client.onerror = (error) => handlers.log("error", `protocol error: ${error.message}`);
  await start?.();
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    closing = true;
    await client.close().catch(() => {});
    await stop?.().catch(() => {});
    throw error;
  }

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
  const capabilities = client.getServerCapabilities();
  return {
    serverInfo: client.getServerVersion(),
    capabilities,
    instructions: client.getInstructions(),
    listTools: (timeoutMs) =>
      capabilities?.tools
        ? allPages(async (cursor) => {
          const page = await client.listTools(cursor ? { cursor } : undefined, {
            timeout: timeoutMs,
          });
          return { items: page.tools, nextCursor: page.nextCursor };
        })
        : Promise.resolve([]),
    listPrompts: (timeoutMs) =>
      capabilities?.prompts
        ? allPages(async (cursor) => {
          const page = await client.listPrompts(cursor ? { cursor } : undefined, {
            timeout: timeoutMs,
          });
          return { items: page.prompts, nextCursor: page.nextCursor };
        })
        : Promise.resolve([]),
    listResources: (timeoutMs) =>
      capabilities?.resources
        ? allPages(async (cursor) => {
          const page = await client.listResources(cursor ? { cursor } : undefined, {
            timeout: timeoutMs,
          });
          return { items: page.resources, nextCursor: page.nextCursor };
        })
        : Promise.resolve([]),
    listResourceTemplates: (timeoutMs) =>
      capabilities?.resources
        ? allPages(async (cursor) => {
          const page = await client.listResourceTemplates(cursor ? { cursor } : undefined, {
            timeout: timeoutMs,
          });
          return { items: page.resourceTemplates, nextCursor: page.nextCursor };
        })
        : Promise.resolve([]),
    callTool: async (name, args, call) =>
      await client.callTool(
        { name, arguments: args },
        undefined,
        requestOptions(call),
      ) as CallToolResult,
    readResource: (uri, call) => client.readResource({ uri }, requestOptions(call)),
    getPrompt: (name, args, call) =>
      client.getPrompt({ name, arguments: args }, requestOptions(call)),
    close: async () => {
      closing = true;
      await terminate?.().catch(() => {});
      await client.close().catch(() => {});
      await stop?.().catch(() => {});
    },
  };
};
