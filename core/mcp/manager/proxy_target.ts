/** What the proxy needs to open its own connection to a configured server. */
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import { LassError } from "../../errors.ts";
import type { OAuthSignIn } from "../oauth/sign_in.ts";
import type { ServerAuthProvider } from "../oauth/provider.ts";
import type { TransportSpec } from "../session/types.ts";
import { type SpecContext, transportSpecOf } from "./transport_spec.ts";

/** A server as the proxy reaches it: the record, its transport and its OAuth sign-in. */
export interface ProxyTarget {
  record: McpServerConfig;
  /** Env references resolved; an http or sse spec carries Lass's sign-in. */
  spec: TransportSpec;
  auth?: ServerAuthProvider;
}

/**
 * The proxy's view of a record: 404 for one that opts out (`proxy: false`). A sign-in the
 * server asks for is reported to the proxy's client, not to Lass's own connection.
 */
export async function proxyTargetOf(
  record: McpServerConfig,
  context: SpecContext,
  oauth: OAuthSignIn | undefined,
): Promise<ProxyTarget> {
  if (!record.proxy) {
    throw new LassError(
      "not-found",
      `the tool server ${record.id} is not offered through the proxy (its record says proxy: false)`,
    );
  }
  const spec = await transportSpecOf(record, context);
  if (spec.kind !== "http" && spec.kind !== "sse") return { record, spec };
  const auth = oauth?.forSession(record, () => {});
  // A passed-through server has no SDK transport to finish a sign-in the proxy started: the
  // callback's code is exchanged here (an SSE transport attaches its own when it opens).
  auth?.sessionAuth.attach(async (params) => {
    const { auth: authorize } = await import("@modelcontextprotocol/client");
    const code = params.get("code");
    if (!code) throw new Error("the sign-in callback has no code");
    const result = await authorize(auth.sessionAuth.provider, {
      serverUrl: spec.url,
      authorizationCode: code,
      ...(params.has("iss") && { iss: params.get("iss")! }),
      fetchFn: auth.sessionAuth.fetch,
    });
    if (result !== "AUTHORIZED") throw new Error("the authorization server did not issue tokens");
  });
  return { record, spec: auth ? { ...spec, auth: auth.sessionAuth } : spec, auth };
}

/** The proxy's targets, made once per record (a config change brings a new record, and a new one). */
export class ProxyTargets {
  readonly #made = new WeakMap<McpServerConfig, Promise<ProxyTarget>>();
  readonly #oauth?: OAuthSignIn;

  constructor(oauth: OAuthSignIn | undefined) {
    this.#oauth = oauth;
  }

  /** The target of a record; `context` resolves its transport the first time. */
  of(record: McpServerConfig, context: () => SpecContext): Promise<ProxyTarget> {
    let target = this.#made.get(record);
    if (!target) {
      target = proxyTargetOf(record, context(), this.#oauth);
      this.#made.set(record, target);
      target.catch(() => this.#made.delete(record));
    }
    return target;
  }
}
