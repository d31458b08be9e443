/**
 * One connect to a tool server through the MCP SDK client: the handlers Lass answers, the
 * transport, the handshake in one era, and the session object built on the connected client.
 */
import {
  type CallToolResult,
  Client,
  type DiscoverResult,
  type McpSubscription,
} from "@modelcontextprotocol/client";
import { VERSION } from "../../version.ts";
import { taskGenerationOf } from "../tasks/support.ts";
import { openControls } from "./controls.ts";
import { KeptListen } from "./kept_listen.ts";
import {
  answersHttp,
  createTransport,
  FAILED_START_GRACE_MS,
  looksLikeSseEndpoint,
} from "./transports.ts";
import { ClientTasks } from "./tasks.ts";
import { RawChannel } from "./raw_channel.ts";
import { type EraVerdict, isAuthFailure, isNetworkFailure, urlElicitationsOf } from "./errors.ts";
import { sharedValidator } from "./validator_cache.ts";
import { outputCheck } from "./output_check.ts";
import type { WireSink } from "./trace.ts";
import type {
  CallOptions,
  ListKind,
  McpSession,
  OpenOptions,
  SessionHandlers,
  TransportSpec,
} from "./types.ts";

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
 * Connects once, in the era `options` asks for (under `auto`, the SDK's probe bounded by
 * `probeMs`), and returns the open session; a failed connect closes what it opened and throws.
 */
export async function connectOnce(
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

  // Every trace channel this connect opens (the session's, an era probe's): when the connection
  // closes, the requests still unanswered end in the trace as failed.
  const sinks: WireSink[] = [];
  const wire = handlers.wire && (() => {
    const sink = handlers.wire!();
    sinks.push(sink);
    return sink;
  });
  const opened = await createTransport(spec, {
    stderr: handlers.stderr,
    wire,
    track: handlers.track,
    probeInPlace: options.probeInPlace,
  });
  const endTrace = () => {
    for (const sink of sinks) sink.closed?.();
    opened.spans.closed();
  };
  let closing = false;
  // A stdio server is stopped with its whole process tree (see `stopProcessTree`).
  const closeClient = (graceMs?: number) => {
    const close = () => client.close().catch(() => {});
    return opened.stop ? opened.stop(close, graceMs) : close();
  };
  client.onclose = () => {
    endTrace();
    if (!closing) handlers.closed();
  };
  client.onerror = (error) => {
    if (closing) return;
    handlers.log("error", `protocol error: ${error.message}`);
    if (opened.remote) handlers.troubled(error.message);
  };
  try {
    await client.connect(opened.transport, {
      // The probe and the handshake after it share the connect timeout.
      timeout: Math.max(1000, options.timeoutMs - (options.probeMs ?? 0)),
      ...(options.prior && { prior: options.prior }),
    });
  } catch (error) {
    closing = true;
    await closeClient(FAILED_START_GRACE_MS);
    endTrace();
    if (spec.kind === "http" && !isAuthFailure(error) && !isNetworkFailure(error)) {
      if (await looksLikeSseEndpoint(spec.url, spec.headers, spec.auth?.fetch)) {
        throw new Error("this looks like an SSE endpoint: use transport sse");
      }
    }
    throw error;
  }

  opened.spans.negotiated(client.getNegotiatedProtocolVersion());
  const modern = client.getProtocolEra() === "modern";
  const discover = client.getDiscoverResult();
  const verdict: EraVerdict = modern && discover
    ? { kind: "modern", discover: discover as DiscoverResult }
    : { kind: "legacy" };
  const capabilities = client.getServerCapabilities() as Record<string, unknown> | undefined;
  const subscription = modern ? await listen(client, capabilities, handlers) : undefined;
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
    handlers,
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
    // A call ends at its deadline, progress or not, unless its record says progress extends it
    // (and then not forever).
    ...(call.progressExtendsTimeout && {
      resetTimeoutOnProgress: true,
      maxTotalTimeout: call.maxTotalTimeoutMs ?? call.timeoutMs * 10,
    }),
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
    resumeToolTask: (reference, options) => tasks.resume(reference, options),
    outputCheck: (tool) => outputCheck(sharedValidator, tasks.tool(tool)),
    getTask: (taskId, timeoutMs) => tasks.get(taskId, timeoutMs),
    cancelTask: (taskId) => tasks.cancel(taskId),
    reachable,
    close: async (options) => {
      closing = true;
      await (options?.keepTasks ? tasks.release() : tasks.close());
      await controls.close();
      await subscription?.close().catch(() => {});
      await opened.terminate?.().catch(() => {});
      await closeClient();
      endTrace();
    },
  };
}

/**
 * Opens the 2026 `subscriptions/listen` stream for the list changes the server announces, kept
 * open while the session lives: after a reopen the lists are read again (changes sent while the
 * stream was down are lost), and a stream that ends may mean a lost server (`troubled`).
 */
async function listen(
  client: Client,
  capabilities: Record<string, unknown> | undefined,
  handlers: SessionHandlers,
): Promise<KeptListen | undefined> {
  const changes = (kind: ListKind) =>
    (capabilities?.[kind] as { listChanged?: boolean } | undefined)?.listChanged === true;
  const kinds = (["tools", "prompts", "resources"] as const).filter(changes);
  if (kinds.length === 0) return undefined;
  const filter = Object.fromEntries(kinds.map((kind) => [`${kind}ListChanged`, true]));
  const open = () => client.listen(filter);
  let first: McpSubscription;
  try {
    first = await open();
  } catch {
    // A server that announces list changes but refuses to stream them still serves its tools.
    return undefined;
  }
  return new KeptListen(first, open, {
    reopened: () => {
      handlers.log("info", "the subscription stream ended and was opened again");
      for (const kind of kinds) handlers.reread(kind);
    },
    failed: (reason) => handlers.troubled(reason),
  });
}
