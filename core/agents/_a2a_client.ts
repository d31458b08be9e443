/** The A2A SDK's client behind one module: the agent card, a client for v1.0 or v0.3, one-sentence errors. */
import { type AgentCard, type Message, type Part, Role } from "@a2a-js/sdk";
import {
  type Client,
  ClientFactory,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from "@a2a-js/sdk/client";
import { A2AError, isRestError } from "@a2a-js/sdk/errors";
import { type EnvLookup, resolveEnvRefs } from "../config/env_refs.ts";
import { clip, isNetworkFailure } from "../errors.ts";
import type { AgentConfig } from "./types.ts";

/** A client for one agent, made from its card. */
export interface A2aConnection {
  client: Client;
  /** The card as the agent serves it. */
  card: Record<string, unknown>;
  cardUrl: string;
  /** Whether the card says `capabilities.streaming`. */
  streaming: boolean;
}

const CARD_PATH = ".well-known/agent-card.json";
const MAX_DETAIL = 300;

/**
 * Where the agent card is: `url` itself when it names a card (`.json`, or a `/.well-known/` path),
 * else `<url>/.well-known/agent-card.json` (a path in `url` is kept).
 */
export function cardUrlOf(url: string): string {
  const parsed = new URL(url);
  if (parsed.pathname.endsWith(".json") || parsed.pathname.includes("/.well-known/")) return url;
  if (!parsed.pathname.endsWith("/")) parsed.pathname += "/";
  return new URL(CARD_PATH, parsed).href;
}

/** Fetches the card and makes a client; v0.3 cards go through the SDK's compatibility layer. */
export async function connectA2a(
  agent: AgentConfig,
  options: { env: EnvLookup; signal: AbortSignal },
): Promise<A2aConnection> {
  const fetchImpl = fetchWithHeaders(resolveEnvRefs(agent.headers ?? {}, options.env));
  const cardUrl = cardUrlOf(agent.url);
  const card = await fetchCard(cardUrl, fetchImpl, options.signal);
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  });
  let client: Client;
  try {
    client = await factory.createFromAgentCard(
      withAbsoluteUrls(card, cardUrl) as unknown as AgentCard,
    );
  } catch {
    const offered = interfacesOf(card).join(", ") || "none";
    throw new Error(
      `the agent offers no interface Lass can use (it offers ${offered}; Lass speaks JSONRPC and HTTP+JSON)`,
    );
  }
  const capabilities = card.capabilities as { streaming?: unknown } | undefined;
  return { client, card, cardUrl, streaming: capabilities?.streaming === true };
}

/** A user message for the agent. */
export function userMessage(text: string, ids: { contextId?: string; taskId?: string }): Message {
  const part: Part = {
    content: { $case: "text", value: text },
    metadata: undefined,
    filename: "",
    mediaType: "text/plain",
  };
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts: [part],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** One sentence for an error of an SDK call to the agent. */
export function describeA2aError(error: unknown, url: string): string {
  const cause = (error as { cause?: unknown })?.cause;
  if (isNetworkFailure(error) || isNetworkFailure(cause)) return `cannot reach ${url}`;
  const a2a = error instanceof A2AError ? error : cause instanceof A2AError ? cause : undefined;
  if (a2a && !isRestError(a2a)) return `the agent refused the request: ${detail(a2a.message)}`;
  const message = messageOf(error);
  const http =
    /(?:Status: |stream for \S+: |HTTP error for \S+: )(\d{3})\b[^]*?(?:Response: ([^]*))?$/
      .exec(message);
  const status = isRestError(error) ? error.statusCode : http ? Number(http[1]) : undefined;
  if (status !== undefined) return httpSentence(status, url, http?.[2] ?? messageOf(error));
  return `the A2A call to ${url} failed: ${detail(message)}`;
}

function httpSentence(status: number, url: string, body: string | undefined): string {
  const suffix = body && body !== "(empty)" ? `: ${detail(body)}` : "";
  if (status === 401 || status === 403) {
    return `the agent at ${url} refused the credentials (${status})${suffix}`;
  }
  if (status === 404) return `not found (404): ${url} is not an A2A endpoint${suffix}`;
  if (status >= 500) return `the agent at ${url} failed (${status})${suffix}`;
  return `the agent at ${url} answered with status ${status}${suffix}`;
}

async function fetchCard(
  cardUrl: string,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetchImpl(cardUrl, {
      headers: { "A2A-Version": "1.0", accept: "application/json" },
      signal,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    throw new Error(`cannot reach ${cardUrl}`, { cause: error });
  }
  const text = await response.text().catch(() => "");
  if (!response.ok) {
    const suffix = text.trim() ? `: ${detail(text)}` : "";
    throw new Error(
      `the agent card at ${cardUrl} could not be fetched (${response.status})${suffix}`,
    );
  }
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch {
    throw new Error(`the agent card at ${cardUrl} is not JSON`);
  }
  const record = card as Record<string, unknown> | null;
  const endpoints = Array.isArray(record?.supportedInterfaces) || typeof record?.url === "string";
  if (!record || typeof record !== "object" || !endpoints) {
    throw new Error(
      `the document at ${cardUrl} is not an A2A agent card (it has neither supportedInterfaces nor url)`,
    );
  }
  return record;
}

/** A `fetch` that adds the agent's headers (the SDK's own headers win). */
function fetchWithHeaders(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) {
      if (!merged.has(name)) merged.set(name, value);
    }
    return fetch(input, { ...init, headers: merged });
  };
}

/** Resolves relative interface URLs (v1.0 `supportedInterfaces`, v0.3 `url`) against the card's. */
function withAbsoluteUrls(card: Record<string, unknown>, cardUrl: string): Record<string, unknown> {
  const absolute = (url: unknown) => typeof url === "string" ? new URL(url, cardUrl).href : url;
  const fixList = (list: unknown) =>
    Array.isArray(list)
      ? list.map((entry) =>
        entry && typeof entry === "object" ? { ...entry, url: absolute(entry.url) } : entry
      )
      : list;
  const out: Record<string, unknown> = { ...card };
  if ("supportedInterfaces" in card) out.supportedInterfaces = fixList(card.supportedInterfaces);
  if ("additionalInterfaces" in card) out.additionalInterfaces = fixList(card.additionalInterfaces);
  if ("url" in card) out.url = absolute(card.url);
  return out;
}

function interfacesOf(card: Record<string, unknown>): string[] {
  const list = Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : [];
  const names = list.map((entry) => String(entry?.protocolBinding ?? "?"));
  if (typeof card.url === "string") names.push(String(card.preferredTransport ?? "JSONRPC"));
  return [...new Set(names)];
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function detail(text: string): string {
  return clip(text.replace(/\s+/g, " ").trim(), MAX_DETAIL);
}
