/**
 * The proxy to a Streamable HTTP server: each HTTP request of the client goes to the server as it
 * came (its body byte for byte, the MCP headers kept), with the record's headers and Lass's OAuth
 * token in place of the client's Lass token, and the answer streams back unchanged. Both protocol
 * eras pass as they are: the server's `Mcp-Session-Id` is the client's.
 */
import type { ServerAuthProvider } from "../oauth/provider.ts";
import type { FetchLike } from "../oauth/fetch.ts";
import { holdEventStream, parseMessages, type RpcMessage, tapEventStream } from "./messages.ts";

/** Where and how a pass-through reaches the server. */
export interface PassThroughTarget {
  url: string;
  /** The record's headers, env references resolved. */
  headers: Record<string, string>;
  /** The fetch to use: Lass's sign-in fetch, the in-process server's, or the global one. */
  fetch: FetchLike;
  /** OAuth for the server, when it may need sign-in. */
  auth?: ServerAuthProvider;
}

/** What the pass-through reports about one exchange. */
export interface ExchangeObserver {
  /** A message the client sent (`out`) or the server answered or sent (`in`). */
  (dir: "out" | "in", message: unknown): void;
}

/** The answer when the server needs a sign-in that only the user can give. */
export class SignInNeeded extends Error {
  constructor(readonly authUrl: string | undefined) {
    super("the server needs sign-in");
  }
}

/** Request headers never relayed: Lass's own token, the hop's, and the browser's. */
const DROPPED_REQUEST = new Set([
  "authorization",
  "x-service-token",
  "host",
  "origin",
  "referer",
  "cookie",
  "connection",
  "keep-alive",
  "content-length",
  "transfer-encoding",
  "accept-encoding",
  "upgrade",
  "proxy-authorization",
  "te",
]);

/** Response headers never relayed: the hop's, and a challenge the client could not answer. */
const DROPPED_RESPONSE = new Set([
  "connection",
  "keep-alive",
  "content-length",
  "content-encoding",
  "transfer-encoding",
  "set-cookie",
  "www-authenticate",
  "access-control-allow-origin",
  "access-control-allow-credentials",
]);

/** The exchange as sent: the method, the body's text and its parsed messages. */
export interface OutgoingExchange {
  method: string;
  headers: Headers;
  body?: string;
  messages?: RpcMessage[];
}

/**
 * Reads what the client sent: its body once (it may be sent twice, after a sign-in), unless the
 * caller read it already (`text`).
 */
export async function readExchange(req: Request, text?: string): Promise<OutgoingExchange> {
  const body = req.method === "POST" ? text ?? await req.text() : undefined;
  return {
    method: req.method,
    headers: req.headers,
    body,
    messages: body === undefined ? undefined : parseMessages(body),
  };
}

/**
 * Sends the exchange to the server and answers with its response, the messages in both reported
 * to `observe` as they pass. A client that goes away cancels the response's body, which cancels
 * the server's (the request's own signal is not used: Deno aborts it once a response is sent). A 401 is answered by a sign-in of Lass's (a refresh, a machine grant)
 * and the exchange sent once more; when only the user can sign in it throws {@link SignInNeeded}.
 */
export async function passThrough(
  exchange: OutgoingExchange,
  target: PassThroughTarget,
  observe: ExchangeObserver,
  holdIncoming?: IncomingHold,
): Promise<Response> {
  for (const message of exchange.messages ?? []) observe("out", message);
  let response = await send(exchange, target);
  if (response.status === 401 && target.auth) {
    await response.body?.cancel();
    if (!await signIn(target, response)) throw new SignInNeeded(target.auth.authUrl);
    response = await send(exchange, target);
    if (response.status === 401) {
      await response.body?.cancel();
      throw new SignInNeeded(target.auth.authUrl);
    }
  }
  return await relayResponse(response, observe, holdIncoming);
}

/**
 * Sends one message to the server on the client's session (its `Mcp-Session-Id` and protocol
 * headers): a reply the user gave in the client's place. The answer's body is not read.
 */
export async function sendToServer(
  headers: Headers,
  message: RpcMessage,
  target: PassThroughTarget,
): Promise<void> {
  const response = await send({ method: "POST", headers, body: JSON.stringify(message) }, target);
  await response.body?.cancel();
}

/** Keeps back (`null`) or changes a message of the server's on its way to the client. */
export type IncomingHold = (message: RpcMessage) => Promise<RpcMessage | null> | undefined;

async function send(
  exchange: OutgoingExchange,
  target: PassThroughTarget,
): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of exchange.headers) {
    if (!DROPPED_REQUEST.has(name)) headers.set(name, value);
  }
  for (const [name, value] of Object.entries(target.headers)) headers.set(name, value);
  const token = await target.auth?.sessionAuth.provider.tokens();
  if (token?.access_token) {
    headers.set(
      "authorization",
      `${token.token_type === "DPoP" ? "DPoP" : "Bearer"} ${token.access_token}`,
    );
  }
  // Lass's sign-in fetch (refreshes coalesced, a replaced token retried) matters only once there
  // is a token; until then a 401 is answered by `signIn`.
  const fetch = token?.access_token ? target.auth!.sessionAuth.fetch : target.fetch;
  return await fetch(target.url, {
    method: exchange.method,
    headers,
    ...(exchange.body !== undefined && { body: exchange.body }),
  });
}

/** The server's response for the client: its status and MCP headers, the body traced as it passes. */
async function relayResponse(
  response: Response,
  observe: ExchangeObserver,
  holdIncoming?: IncomingHold,
): Promise<Response> {
  const headers = new Headers();
  for (const [name, value] of response.headers) {
    if (!DROPPED_RESPONSE.has(name)) headers.set(name, value);
  }
  const type = response.headers.get("content-type") ?? "";
  if (!response.body) return new Response(null, { status: response.status, headers });
  if (type.startsWith("text/event-stream")) {
    const report = (message: unknown) => observe("in", message);
    const body = holdIncoming
      ? response.body.pipeThrough(holdEventStream(report, holdIncoming))
      : tapEventStream(response.body, report);
    return new Response(body, { status: response.status, headers });
  }
  if (type.startsWith("application/json")) {
    const text = await response.text();
    const messages = parseMessages(text) ?? [];
    const relayed = holdIncoming ? await relayMessages(messages, holdIncoming) : messages;
    for (const message of relayed) observe("in", message);
    if (relayed.length === messages.length && relayed.every((m, i) => m === messages[i])) {
      return new Response(text, { status: response.status, headers });
    }
    const batch = text.trimStart().startsWith("[");
    return new Response(JSON.stringify(batch ? relayed : relayed[0] ?? null), {
      status: response.status,
      headers,
    });
  }
  return new Response(response.body, { status: response.status, headers });
}

/** The messages of a JSON answer as the client gets them: each kept back or changed by `hold`. */
async function relayMessages(
  messages: RpcMessage[],
  hold: IncomingHold,
): Promise<RpcMessage[]> {
  const relayed: RpcMessage[] = [];
  for (const message of messages) {
    const decided = await (hold(message) ?? message);
    if (decided !== null) relayed.push(decided);
  }
  return relayed;
}

/** Runs Lass's sign-in after a 401: true when a token was obtained without the user. */
async function signIn(target: PassThroughTarget, response: Response): Promise<boolean> {
  const { auth, extractWWWAuthenticateParams } = await import("@modelcontextprotocol/client");
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  try {
    const { provider, fetch } = target.auth!.sessionAuth;
    const result = await auth(provider, {
      serverUrl: target.url,
      ...(resourceMetadataUrl && { resourceMetadataUrl }),
      ...(scope && { scope }),
      fetchFn: fetch,
    });
    return result === "AUTHORIZED";
  } catch {
    return false;
  }
}
