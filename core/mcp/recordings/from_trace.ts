/**
 * A cassette from wire-trace messages: Lass's own session or one proxy session alike (the caller
 * picks the messages). Requests pair with their answers by JSON-RPC id; what the server sent in
 * between goes to the exchange it belongs to; secrets are removed on the way out.
 */
import type { TraceMessage } from "../../../wire/trace.ts";
import {
  type Cassette,
  CASSETTE_VERSION,
  type CassetteEvent,
  type CassetteExchange,
  type CassetteLists,
} from "../../../wire/cassette.ts";
import { redactCassette } from "./redact.ts";
import type { CassetteSource } from "./types.ts";

/** What makes a cassette besides the messages. */
export interface FromTraceOptions {
  /** Values to remove wherever they appear (the record's resolved secrets, OAuth tokens). */
  secrets?: readonly string[];
  /** When it was recorded; default now. */
  recordedAt?: string;
}

interface Rpc {
  id?: string | number | null;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: CassetteExchange["error"];
}

/** An exchange being built: its request's time, and whether its answer came. */
interface Open {
  exchange: CassetteExchange;
  start: number;
  answeredAt?: number;
  progressToken?: unknown;
}

const HANDSHAKES = new Set(["initialize", "server/discover"]);
const LIST_METHODS: Record<string, [keyof CassetteLists, string]> = {
  "tools/list": ["tools", "tools"],
  "prompts/list": ["prompts", "prompts"],
  "resources/list": ["resources", "resources"],
  "resources/templates/list": ["resourceTemplates", "resourceTemplates"],
};
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

/**
 * Builds a cassette from trace messages (oldest first; `view-*` messages are left out). The
 * handshake and the lists come from the messages when they hold them, else from `source` (a
 * server's state); the result holds no secret of `options.secrets` nor of credential-named fields.
 */
export function cassetteFromTrace(
  messages: readonly TraceMessage[],
  source: CassetteSource,
  options: FromTraceOptions = {},
): Cassette {
  const exchanges: Open[] = [];
  const pending = new Map<string, Open>();
  const handshakes = new Map<string, string>();
  const serverRequests = new Map<string, CassetteEvent>();
  let handshake: Record<string, unknown> | undefined;
  let era = source.era;
  let last: Open | undefined;
  for (const traced of messages) {
    if (traced.dir !== "out" && traced.dir !== "in") continue;
    const message = traced.message as Rpc;
    if (message === null || typeof message !== "object") continue;
    const time = Date.parse(traced.time);
    const key = idKey(message.id);
    const isRequest = typeof message.method === "string";
    if (traced.dir === "out") {
      if (isRequest && key !== undefined) {
        if (HANDSHAKES.has(message.method!)) {
          handshakes.set(key, message.method!);
          continue;
        }
        const open: Open = {
          exchange: {
            request: {
              method: message.method!,
              ...(message.params !== undefined && { params: message.params }),
            },
          },
          start: time,
          progressToken: (message.params?._meta as Record<string, unknown> | undefined)
            ?.progressToken,
        };
        if (traced.truncated) open.exchange.truncated = true;
        exchanges.push(open);
        pending.set(key, open);
      } else if (!isRequest && key !== undefined) {
        // The client's answer to a server request.
        const event = serverRequests.get(key);
        if (event) event.reply = withoutEnvelope(message);
      }
      continue;
    }
    if (!isRequest && key !== undefined) {
      const method = handshakes.get(key);
      if (method !== undefined) {
        handshakes.delete(key);
        if (message.result && typeof message.result === "object") {
          handshake = message.result as Record<string, unknown>;
          era = method === "server/discover" ? "modern" : "legacy";
        }
        continue;
      }
      const open = pending.get(key);
      if (!open) continue;
      pending.delete(key);
      if (message.error !== undefined) open.exchange.error = message.error;
      else open.exchange.result = message.result;
      open.exchange.ms = traced.ms ?? Math.max(0, time - open.start);
      open.answeredAt = time;
      if (traced.truncated) open.exchange.truncated = true;
      last = open;
      continue;
    }
    // A notification or a request of the server: it belongs to the request it names, else to
    // the newest one still running, else it came after the last answer.
    const owner = ownerOf(message, pending) ?? last;
    if (!owner) continue;
    const after = owner.answeredAt !== undefined;
    const event: CassetteEvent = {
      at: Math.max(0, time - (after ? owner.answeredAt! : owner.start)),
      message: message as Record<string, unknown>,
      ...(after && { after: true as const }),
    };
    (owner.exchange.events ??= []).push(event);
    if (traced.truncated) owner.exchange.truncated = true;
    if (isRequest && key !== undefined) serverRequests.set(key, event);
  }
  const cassette: Cassette = {
    lassCassette: CASSETTE_VERSION,
    recordedAt: options.recordedAt ?? new Date().toISOString(),
    server: serverOf(source, era, handshake),
    lists: listsOf(exchanges.map((open) => open.exchange), source),
    exchanges: exchanges.map((open) => open.exchange),
  };
  return redactCassette(cassette, options.secrets ?? []);
}

function idKey(id: unknown): string | undefined {
  return typeof id === "string" || typeof id === "number" ? `${typeof id}:${id}` : undefined;
}

function withoutEnvelope(message: Rpc): Record<string, unknown> {
  const { id: _, ...rest } = message as Record<string, unknown>;
  return rest;
}

/** The running exchange a server message belongs to: by its progress token or subscription. */
function ownerOf(message: Rpc, pending: Map<string, Open>): Open | undefined {
  const params = message.params ?? {};
  const running = [...pending.values()];
  if (params.progressToken !== undefined) {
    const owner = running.find((open) => open.progressToken === params.progressToken);
    if (owner) return owner;
  }
  const subscription = (params._meta as Record<string, unknown> | undefined)?.[SUBSCRIPTION_ID];
  if (subscription !== undefined) {
    const listen = running.find((open) => open.exchange.request.method === "subscriptions/listen");
    if (listen) return listen;
  }
  return running.at(-1);
}

/** The server part: the source's identity, with the handshake's answer when it was seen. */
function serverOf(
  source: CassetteSource,
  era: "legacy" | "modern" | undefined,
  handshake: Record<string, unknown> | undefined,
): Cassette["server"] {
  const fromHandshake = (handshake ?? {}) as {
    protocolVersion?: string;
    supportedVersions?: string[];
    serverInfo?: { name: string; version: string };
    capabilities?: Record<string, unknown>;
    instructions?: string;
  };
  const serverInfo = fromHandshake.serverInfo ?? source.serverInfo;
  const instructions = fromHandshake.instructions ?? source.instructions;
  const protocolVersion = source.protocolVersion ?? fromHandshake.protocolVersion ??
    fromHandshake.supportedVersions?.[0];
  return {
    id: source.id,
    ...(source.name !== undefined && { name: source.name }),
    ...(source.transport !== undefined && { transport: source.transport }),
    era: era ?? "legacy",
    ...(protocolVersion !== undefined && { protocolVersion }),
    ...(serverInfo !== undefined && { serverInfo }),
    capabilities: fromHandshake.capabilities ?? source.capabilities ?? {},
    ...(instructions !== undefined && { instructions }),
    ...(handshake !== undefined && { handshake }),
  };
}

/** The lists as the last complete reading of each in the messages had them, else the source's. */
function listsOf(exchanges: CassetteExchange[], source: CassetteSource): CassetteLists {
  const seen: Partial<Record<keyof CassetteLists, Record<string, unknown>[]>> = {};
  for (const exchange of exchanges) {
    const list = LIST_METHODS[exchange.request.method];
    if (!list || exchange.result === undefined) continue;
    const [kind, field] = list;
    const items = (exchange.result as Record<string, unknown>)?.[field];
    if (!Array.isArray(items)) continue;
    const first = exchange.request.params?.cursor === undefined;
    seen[kind] = first ? [...items] : [...(seen[kind] ?? []), ...items];
  }
  return {
    tools: seen.tools ?? objects(source.tools).map(withoutLassFields),
    prompts: seen.prompts ?? objects(source.prompts),
    resources: seen.resources ?? objects(source.resources),
    resourceTemplates: seen.resourceTemplates ?? objects(source.resourceTemplates),
  };
}

function objects(list: readonly object[] | undefined): Record<string, unknown>[] {
  return [...(list ?? [])] as Record<string, unknown>[];
}

/** A tool of a server's state without what Lass adds to it (its model name, `disabled`, ...). */
function withoutLassFields(tool: Record<string, unknown>): Record<string, unknown> {
  const { disabled: _d, modelName: _m, modelVisible: _v, ui: _u, ...rest } = tool;
  return rest;
}
