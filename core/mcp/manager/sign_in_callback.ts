/** The OAuth callback as the manager answers it: the sign-in completed, and the server reconnected. */
import type { ToolServerState } from "../../../wire/tool_servers.ts";
import { type OAuthSignIn, SignInFailure } from "../oauth/sign_in.ts";
import type { Entry } from "./entry.ts";

/** What `GET /oauth/callback` did: signed in (and the server's state after its reconnect), or not. */
export type SignInResult =
  | { ok: true; serverId: string; state?: ToolServerState }
  | { ok: false; reason: SignInFailure["kind"]; serverId?: string };

/** What completing a sign-in needs of the manager. */
export interface SignInHost {
  oauth?: OAuthSignIn;
  find(id: string): Entry | undefined;
  log(entry: Entry, level: string, message: string): void;
  reconnect(id: string): Promise<ToolServerState>;
}

/**
 * Completes a sign-in from the callback's query and reconnects the server. An unknown or expired
 * `state` changes nothing. A refused or failed sign-in is logged for its server, which reconnects
 * to offer a fresh sign-in URL.
 */
export async function completeSignIn(
  host: SignInHost,
  params: URLSearchParams,
): Promise<SignInResult> {
  if (!host.oauth) return { ok: false, reason: "unknown-state" };
  let serverId: string;
  try {
    ({ serverId } = await host.oauth.complete(params));
  } catch (error) {
    if (!(error instanceof SignInFailure)) throw error;
    const entry = error.serverId ? host.find(error.serverId) : undefined;
    if (entry) {
      host.log(entry, "warning", `sign-in failed: ${error.reason ?? error.kind}`);
      if (entry.state.status === "needs-auth") host.reconnect(entry.record.id).catch(() => {});
    }
    return { ok: false, reason: error.kind, ...(error.serverId && { serverId: error.serverId }) };
  }
  const entry = host.find(serverId);
  // A draft of `POST /api/mcp/test`: its tokens wait in the store until the record is saved.
  if (!entry) return { ok: true, serverId };
  host.log(entry, "info", "signed in");
  return { ok: true, serverId, state: await host.reconnect(serverId) };
}
