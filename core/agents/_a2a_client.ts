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
import { Buffer } from "node:buffer";
import { type EnvLookup, resolveEnvRefs } from "../config/env_refs.ts";
import { clip, isNetworkFailure } from "../errors.ts";
import type { OutgoingPart } from "./_a2a_history.ts";
import type { AgentConfig } from "./types.ts";

/** A client for one agent, made from its card. */
export interface A2aConnection {
  client: Client;
  /** The card as the agent serves it. */
  card: Record<string, unknown>;
  cardUrl: string;
  /** Whether the card says `capabilities.streaming`. */
  streaming: boolean;
  /** Whether the client speaks protocol v0.3 (through the SDK's compatibility layer). */
  legacy: boolean;
  /** The same agent spoken to in v0.3; `undefined` when this connection already is. */
  inLegacy(): Promise<A2aConnection | undefined>;
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

/**
 * Fetches the card and makes a client; v0.3 cards go through the SDK's compatibility layer.
 * `agent.url` must be resolved already (see `withResolvedUrl`).
 */
export async function connectA2a(
  agent: AgentConfig,
  options: { env: EnvLookup; signal: AbortSignal },
): Promise<A2aConnection> {
  const fetchImpl = fetchWithHeaders(resolveEnvRefs(agent.headers ?? {}, options.env));
  const { card, cardUrl } = await findCard(agent.url, fetchImpl, options.signal);
  const capabilities = card.capabilities as { streaming?: unknown } | undefined;
  const connect = async (legacy: boolean): Promise<A2aConnection> => ({
    client: await clientFor(card, { cardUrl, fetchImpl, legacy }),
    card,
    cardUrl,
    streaming: capabilities?.streaming === true,
    legacy: legacy || speaksLegacy(card),
    inLegacy: () => legacy || speaksLegacy(card) ? Promise.resolve(undefined) : connect(true),
  });
  return await connect(false);
}

/** A client for a card; with `legacy`, every interface is spoken to in v0.3. */
async function clientFor(
  card: Record<string, unknown>,
  options: { cardUrl: string; fetchImpl: typeof fetch; legacy: boolean },
): Promise<Client> {
  const { cardUrl, fetchImpl, legacy } = options;
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory({
    transports: [
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
      new RestTransportFactory({ fetchImpl, legacyCompat }),
    ],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  });
  try {
    return await factory.createFromAgentCard(
      asSpoken(withAbsoluteUrls(card, cardUrl), legacy) as unknown as AgentCard,
    );
  } catch {
    const offered = interfacesOf(card).join(", ") || "none";
    throw new Error(
      `the agent offers no interface Lass can use (it offers ${offered}; Lass speaks JSONRPC and HTTP+JSON)`,
    );
  }
}

/**
 * Whether a card has the v0.3 shape: a top-level `url` and no `supportedInterfaces`. Such an
 * agent speaks v0.3 whatever its `protocolVersion` claims (some say "1.0" with the old shape).
 */
function speaksLegacy(card: Record<string, unknown>): boolean {
  const interfaces = card.supportedInterfaces;
  return typeof card.url === "string" && !(Array.isArray(interfaces) && interfaces.length > 0);
}

/** The card as the SDK should read it: v0.3 for the old shape, or for every interface. */
function asSpoken(card: Record<string, unknown>, legacy: boolean): Record<string, unknown> {
  if (speaksLegacy(card)) {
    const claimed = typeof card.protocolVersion === "string" ? card.protocolVersion : "";
    return /^0\.3(\.|$)/.test(claimed) ? card : { ...card, protocolVersion: "0.3.0" };
  }
  if (!legacy || !Array.isArray(card.supportedInterfaces)) return card;
  return {
    ...card,
    supportedInterfaces: card.supportedInterfaces.map((entry) =>
      entry && typeof entry === "object" ? { ...entry, protocolVersion: "0.3" } : entry
    ),
  };
}

/** Whether an error of an SDK call is JSON-RPC "method not found" (-32601). */
export function isMethodNotFound(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at && depth < 3; depth++) {
    if ((at as { envelopeCode?: unknown }).envelopeCode === -32601) return true;
    at = (at as { cause?: unknown }).cause;
  }
  return false;
}

/** A user message for the agent: text, or text and files (bytes or URLs). */
export function userMessage(
  content: string | OutgoingPart[],
  ids: { contextId?: string; taskId?: string },
): Message {
  const parts = typeof content === "string" ? [{ kind: "text" as const, text: content }] : content;
  return {
    messageId: crypto.randomUUID(),
    contextId: ids.contextId ?? "",
    taskId: ids.taskId ?? "",
    role: Role.ROLE_USER,
    parts: parts.map(sdkPart),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** One part as the SDK takes it: text, raw bytes or a URL, with its media type and file name. */
function sdkPart(part: OutgoingPart): Part {
  if (part.kind === "text") {
    return {
      content: { $case: "text", value: part.text },
      metadata: undefined,
      filename: "",
      mediaType: "text/plain",
    };
  }
  return {
    content: part.kind === "bytes"
      ? { $case: "raw", value: Buffer.from(part.data) }
      : { $case: "url", value: part.url },
    metadata: undefined,
    filename: part.filename ?? "",
    mediaType: part.mediaType,
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

/**
 * The card for `url` (see {@link cardUrlOf}). When `url` has a path and no card is found below it
 * (it may be the agent's JSON-RPC endpoint, pasted instead of its base URL), the card is looked
 * for at the origin's `/.well-known/agent-card.json` too.
 */
async function findCard(
  url: string,
  fetchImpl: typeof fetch,
  signal: AbortSignal,
): Promise<{ card: Record<string, unknown>; cardUrl: string }> {
  const cardUrl = cardUrlOf(url);
  try {
    return { card: await fetchCard(cardUrl, fetchImpl, signal), cardUrl };
  } catch (error) {
    const atOrigin = new URL(`/${CARD_PATH}`, url).href;
    if (signal.aborted || !(error instanceof CardMissing) || atOrigin === cardUrl) throw error;
    try {
      return { card: await fetchCard(atOrigin, fetchImpl, signal), cardUrl: atOrigin };
    } catch (second) {
      if (signal.aborted || !(second instanceof CardMissing)) throw second;
      throw new Error(`${error.message}, and there is none at ${atOrigin} either`);
    }
  }
}

/** No card at that address: 404, 405 or 410, or a document that is not a card. */
class CardMissing extends Error {}

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
    // Only "nothing here" sends the search on to the origin; refused credentials do not.
    const Failure = [404, 405, 410].includes(response.status) ? CardMissing : Error;
    throw new Failure(
      `the agent card at ${cardUrl} could not be fetched (${response.status})${suffix}`,
    );
  }
  let card: unknown;
  try {
    card = JSON.parse(text);
  } catch {
    throw new CardMissing(`the agent card at ${cardUrl} is not JSON`);
  }
  const record = card as Record<string, unknown> | null;
  const endpoints = Array.isArray(record?.supportedInterfaces) || typeof record?.url === "string";
  if (!record || typeof record !== "object" || !endpoints) {
    throw new CardMissing(
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
