/** The proxy's own answers to a client: a JSON-RPC error, a sign-in the server needs, a failed start. */
import type { ProxyTarget } from "../manager/proxy_target.ts";
import { isRequest, type RpcMessage } from "./messages.ts";
import { SignInNeeded } from "./pass_through.ts";

/** The answer when the server's connection could not start: a sign-in it needs, or why. */
export function startFailure(
  target: ProxyTarget,
  messages: RpcMessage[],
  error: unknown,
  lassOrigin: string,
): Response {
  const serverId = target.record.id;
  if (target.auth?.authUrl) {
    const page = `${lassOrigin}/inspector/${encodeURIComponent(serverId)}`;
    return signInError(page, serverId, messages, new SignInNeeded(target.auth.authUrl));
  }
  return rpcError(
    messages.find(isRequest)?.id ?? null,
    -32000,
    `Lass could not start the tool server ${serverId}: ${(error as Error)?.message ?? error}`,
    502,
  );
}

/** The answer for a server that needs the user's sign-in: a JSON-RPC error naming where. */
export function signInError(
  page: string,
  serverId: string,
  messages: RpcMessage[],
  error: SignInNeeded,
): Response {
  const message = `the tool server ${serverId} needs sign-in: sign it in in Lass (${page})` +
    (error.authUrl ? ` or open ${error.authUrl}` : "") + ", then try again";
  const data = { serverId, signInUrl: page, ...(error.authUrl && { authUrl: error.authUrl }) };
  const requests = messages.filter(isRequest);
  if (requests.length === 0) return rpcError(null, -32001, message, 401, data);
  const body = requests.map((request) => ({
    jsonrpc: "2.0",
    id: request.id,
    error: { code: -32001, message, data },
  }));
  return Response.json(body.length === 1 ? body[0] : body);
}

/** A JSON-RPC error as the whole answer. */
export function rpcError(
  id: string | number | null,
  code: number,
  message: string,
  status: number,
  data?: Record<string, unknown>,
): Response {
  return Response.json(
    { jsonrpc: "2.0", id, error: { code, message, ...(data && { data }) } },
    { status },
  );
}
