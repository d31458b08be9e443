/** Request guards: the service token, loopback-only `Host` (DNS rebinding) and same-origin `Origin`. */
import { LassError } from "../core/errors.ts";
import { hostName, isLoopbackName } from "../core/host_names.ts";

/** The routes that need no token. */
export const OPEN_ROUTES: ReadonlySet<string> = new Set(["GET /api/health", "GET /oauth/callback"]);

/**
 * The token of a request: header `x-service-token`, else `Authorization: Bearer <token>` (what
 * MCP clients send to the proxy), else query `token`.
 */
export function tokenOf(req: Request, url: URL): string | null {
  const header = req.headers.get("x-service-token");
  if (header !== null) return header;
  const authorization = req.headers.get("authorization");
  const bearer = authorization && /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return bearer ? bearer[1] : url.searchParams.get("token");
}

let loadedCrypto: Promise<typeof import("node:crypto")> | undefined;
/** The digest of the last expected token: a server compares every request with the same one. */
let expectedDigest: { token: string; digest: Uint8Array } | undefined;
/** The digest of the last token a request carried. */
let givenDigest: { token: string; digest: Uint8Array } | undefined;

/**
 * Compares two tokens in constant time: both are hashed with SHA-256 and the digests compared
 * with the platform's `timingSafeEqual`, so neither the content nor the length leaks through timing.
 * `node:crypto` loads with the first compare: starting Lass does not wait for it.
 */
export async function tokensMatch(given: string, expected: string): Promise<boolean> {
  const { createHash, timingSafeEqual } = await (loadedCrypto ??= import("node:crypto"));
  const digest = (token: string) => createHash("sha256").update(token).digest();
  if (expectedDigest?.token !== expected) {
    expectedDigest = { token: expected, digest: digest(expected) };
  }
  // The last given token's digest is kept too (a client sends the same one every time); comparing
  // a given token with the last given one tells nothing about the expected one.
  if (givenDigest?.token !== given) givenDigest = { token: given, digest: digest(given) };
  return timingSafeEqual(givenDigest.digest, expectedDigest.digest);
}

/**
 * The syntax of a `Host` value Lass accepts: a name or IPv4 address, or an IPv6 address in
 * brackets, with an optional port. Anything else (`[evil.com]`, spaces, `@`, `/`) is malformed.
 */
const HOST_SYNTAX = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._~-]+)(?::\d{1,5})?$/i;

/**
 * The URL and `Host` of a request, checked: 400 `invalid-request` when there is no `Host` header
 * and `requireHostHeader` is set (requests from the network; a `Request` built in process carries
 * no `Host`, and then its URL's host is checked instead); 403 `forbidden-host` for a malformed
 * `Host`, an empty one, or one that is not loopback or an allowed name. Checked before the
 * request's URL is parsed, as a runtime builds that URL from the `Host` header.
 */
export function checkHost(
  req: Request,
  allowedHosts: ReadonlySet<string>,
  requireHostHeader = false,
): { url: URL; host: string } {
  const header = req.headers.get("host");
  if (header === null && requireHostHeader) {
    throw new LassError(
      "invalid-request",
      "the request has no Host header; send the host name and port you reach Lass at",
    );
  }
  let url: URL | undefined;
  try {
    url = new URL(req.url);
  } catch {
    // Only a malformed Host makes the URL of a received request invalid: refused below.
  }
  const host = header ?? url?.host ?? "";
  const name = HOST_SYNTAX.test(host) ? hostName(host) : "";
  if (!url || name === "" || (!isLoopbackName(name) && !allowedHosts.has(name))) {
    throw new LassError("forbidden-host", `requests for host ${JSON.stringify(host)} are refused`);
  }
  return { url, host };
}

/**
 * Checks `Host` (see {@link checkHost}) and throws 403 for a foreign `Origin`; returns the
 * request's URL.
 */
export function checkHostAndOrigin(
  req: Request,
  allowedHosts: ReadonlySet<string>,
  requireHostHeader = false,
): URL {
  const { url, host } = checkHost(req, allowedHosts, requireHostHeader);
  const origin = req.headers.get("origin");
  if (origin !== null && origin !== `${url.protocol}//${host}`) {
    throw new LassError(
      "forbidden-origin",
      `requests from origin ${JSON.stringify(origin)} are refused`,
    );
  }
  return url;
}
