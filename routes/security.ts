/** Request guards: the service token, loopback-only `Host` (DNS rebinding) and same-origin `Origin`. */
import { createHash, timingSafeEqual } from "node:crypto";
import { LassError } from "../core/errors.ts";

/** The routes that need no token. */
export const OPEN_ROUTES: ReadonlySet<string> = new Set(["GET /api/health", "GET /oauth/callback"]);

/** The token of a request: header `x-service-token`, else query `token`. */
export function tokenOf(req: Request, url: URL): string | null {
  return req.headers.get("x-service-token") ?? url.searchParams.get("token");
}

/** The SHA-256 digest of a token: 32 bytes whatever the token's length. */
function tokenDigest(token: string): Uint8Array {
  return createHash("sha256").update(token).digest();
}

/**
 * Compares two tokens in constant time: both are hashed with SHA-256 and the digests compared
 * with the platform's `timingSafeEqual`, so neither the content nor the length leaks through timing.
 */
export function tokensMatch(given: string, expected: string): boolean {
  return timingSafeEqual(tokenDigest(given), tokenDigest(expected));
}

/** The host name of a `Host` header value, without port and IPv6 brackets, lower case. */
export function hostName(host: string): string {
  const name = host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.split(":")[0];
  return name.toLowerCase().replace(/\.$/, "");
}

/** Whether a host name is a loopback name: localhost, *.localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackName(name: string): boolean {
  return name === "localhost" || name.endsWith(".localhost") || name === "::1" ||
    /^127(\.\d{1,3}){3}$/.test(name);
}

/** Throws 403 for a `Host` that is not loopback or an allowed name, and for a foreign `Origin`. */
export function checkHostAndOrigin(
  req: Request,
  url: URL,
  allowedHosts: ReadonlySet<string>,
): void {
  const host = req.headers.get("host") ?? url.host;
  const name = hostName(host);
  if (name === "" || (!isLoopbackName(name) && !allowedHosts.has(name))) {
    throw new LassError("forbidden-host", `requests for host ${JSON.stringify(host)} are refused`);
  }
  const origin = req.headers.get("origin");
  if (origin !== null && origin !== `${url.protocol}//${host}`) {
    throw new LassError(
      "forbidden-origin",
      `requests from origin ${JSON.stringify(origin)} are refused`,
    );
  }
}
