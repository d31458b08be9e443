/**
 * The sandbox port (DESIGN.md section 2): a second listener that serves only the MCP Apps sandbox
 * proxy page, on an origin other than the app's. No API, no token, no data. The page's CSP is
 * built from its `?csp=` query (an MCP Apps `_meta.ui.csp`); the HTML that the page then receives
 * from the Lass page by `postMessage` runs in an inner frame under that CSP.
 */
import { LassError } from "../core/errors.ts";
import { errorResponse, respond } from "./http.ts";
import { checkHost } from "./security.ts";

/** The domain lists of an MCP Apps resource CSP (`_meta.ui.csp`). */
export interface SandboxCsp {
  connectDomains: string[];
  resourceDomains: string[];
  frameDomains: string[];
  baseUriDomains: string[];
}

const CSP_KEYS = ["connectDomains", "resourceDomains", "frameDomains", "baseUriDomains"] as const;

/** A source Lass puts into a CSP: an http(s)/ws(s) origin, `*.` wildcard and `:*` port allowed. */
const SOURCE =
  /^(https?|wss?):\/\/(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?(\/[^\s;,'"]*)?$/;
const MAX_SOURCES = 32;

/**
 * The domain lists of a `?csp=` value (JSON), keeping only well-formed sources: anything that
 * could end a directive or add a keyword (`;`, `,`, quotes, spaces, `*` alone, `data:`) is dropped,
 * which only ever makes the policy stricter. A missing or broken value gives empty lists, that is
 * the spec's default policy.
 */
export function parseSandboxCsp(value: string | null): SandboxCsp {
  let parsed: Record<string, unknown> = {};
  try {
    const json = value === null ? {} : JSON.parse(value);
    if (json && typeof json === "object" && !Array.isArray(json)) parsed = json;
  } catch {
    // Not JSON: the default policy.
  }
  const lists = {} as SandboxCsp;
  for (const key of CSP_KEYS) {
    const list = Array.isArray(parsed[key]) ? parsed[key] as unknown[] : [];
    const sources = list.flatMap((item) =>
      typeof item === "string" && item.length <= 200 && SOURCE.test(item.toLowerCase())
        ? [item.toLowerCase()]
        : []
    );
    lists[key] = [...new Set(sources)].slice(0, MAX_SOURCES);
  }
  return lists;
}

/**
 * The Content-Security-Policy of the proxy page (and so of the View inside it, which inherits it):
 * the MCP Apps 2026-01-26 mapping of the domain lists, the spec's default where a list is empty.
 * `frameAncestors` is the Lass page allowed to frame the proxy.
 */
export function sandboxCsp(csp: SandboxCsp, frameAncestors?: string): string {
  const sources = (base: string, list: string[]) => [base, ...list].join(" ");
  const resources = csp.resourceDomains;
  return [
    "default-src 'none'",
    `script-src ${sources("'self' 'unsafe-inline'", resources)}`,
    `style-src ${sources("'self' 'unsafe-inline'", resources)}`,
    `img-src ${sources("'self' data:", resources)}`,
    `font-src ${sources("'self'", resources)}`,
    `media-src ${sources("'self' data:", resources)}`,
    `connect-src ${csp.connectDomains.join(" ") || "'none'"}`,
    `frame-src ${csp.frameDomains.join(" ") || "'none'"}`,
    `base-uri ${csp.baseUriDomains.join(" ") || "'self'"}`,
    "object-src 'none'",
    ...(frameAncestors ? [`frame-ancestors ${frameAncestors}`] : []),
  ].join("; ");
}

/**
 * The proxy's script. It tells the Lass page it is ready, takes one
 * `ui/notifications/sandbox-resource-ready {html | url, sandbox?, csp?, permissions?}` from it,
 * checks that its own CSP allows nothing the page did not ask for (the query is in the URL, which
 * anything that can navigate the frame can change), loads the View into an inner frame, and then
 * relays every other message both ways: to the page only at its origin, never a sandbox message
 * from the View.
 */
function proxyScript(hostOrigin: string | null, granted: SandboxCsp): string {
  const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");
  return `(() => {
"use strict";
const host = window.parent;
const granted = ${json(granted)};
const PREFIX = "ui/notifications/sandbox-";
const TOKENS = ["allow-scripts", "allow-same-origin", "allow-forms"];
const FEATURES = { camera: "camera", microphone: "microphone", geolocation: "geolocation",
  clipboardWrite: "clipboard-write" };
let hostOrigin = ${json(hostOrigin)};
let inner = null;
let innerOrigin = "*";
const isSandboxMessage = (data) => data !== null && typeof data === "object" &&
  typeof data.method === "string" && data.method.startsWith(PREFIX);
const fail = (text) => {
  const p = document.createElement("p");
  p.className = "fail";
  p.textContent = text;
  document.body.replaceChildren(p);
};
const within = (csp) => Object.keys(granted).every((key) => granted[key].every((source) =>
  csp && Array.isArray(csp[key]) && csp[key].map((s) => String(s).toLowerCase()).includes(source)));
function load(params) {
  if (inner) return;
  if (!within(params.csp)) return fail("Refused: this sandbox's CSP allows more than the host asked for.");
  const tokens = String(params.sandbox || TOKENS.join(" ")).split(/\\s+/).filter((t) => TOKENS.includes(t));
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", tokens.join(" "));
  const permissions = params.permissions || {};
  const allow = Object.keys(FEATURES).filter((key) => permissions[key]).map((key) => FEATURES[key]);
  if (allow.length > 0) frame.setAttribute("allow", allow.join("; "));
  frame.title = "View";
  inner = frame;
  if (typeof params.url === "string") {
    if (!/^https?:\\/\\//i.test(params.url)) return fail("Refused: only http(s) URLs are shown.");
    frame.src = params.url;
    document.body.append(frame);
  } else if (typeof params.html !== "string") {
    fail("Refused: the host sent no HTML.");
  } else if (tokens.includes("allow-same-origin")) {
    // Written rather than srcdoc, as the spec's reference proxy does: the View keeps this origin.
    innerOrigin = location.origin;
    document.body.append(frame);
    const doc = frame.contentDocument;
    doc.open();
    doc.write(params.html);
    doc.close();
  } else {
    frame.srcdoc = params.html;
    document.body.append(frame);
  }
}
window.addEventListener("message", (event) => {
  const data = event.data;
  if (event.source === host) {
    if (hostOrigin !== null && event.origin !== hostOrigin) return;
    if (isSandboxMessage(data)) {
      if (data.method !== PREFIX + "resource-ready") return;
      hostOrigin = event.origin;
      load(data.params || {});
    } else if (inner && inner.contentWindow) {
      inner.contentWindow.postMessage(data, innerOrigin);
    }
  } else if (inner && event.source === inner.contentWindow && hostOrigin !== null) {
    if (!isSandboxMessage(data)) host.postMessage(data, hostOrigin);
  }
});
if (host === window) {
  fail("This is the sandbox of Lass's MCP Apps. It shows nothing on its own.");
} else {
  host.postMessage({ jsonrpc: "2.0", method: PREFIX + "proxy-ready", params: {} }, hostOrigin || "*");
}
})();`;
}

/** The proxy page. */
function proxyPage(hostOrigin: string | null, granted: SandboxCsp): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="color-scheme" content="light dark">
<title>Lass sandbox</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}` +
    `iframe{display:block;border:0;width:100%;height:100%}` +
    `.fail{font:14px system-ui,sans-serif;margin:8px;color:#b42318}</style>
</head><body><script>${proxyScript(hostOrigin, granted)}</script></body></html>`;
}

/** Options of {@link createSandboxHandler}. */
export interface SandboxHandlerOptions {
  /**
   * The origin of the Lass page that may frame the proxy, for a request to the sandbox port
   * (usually the same host name on the app's port). Without it any page may frame it and the
   * proxy trusts the first page that sends it a resource.
   */
  appOrigin?: (url: URL) => string | undefined;
  /** Host names accepted besides loopback names (as for the API). */
  allowedHosts?: string[];
  /** Refuse a request without a `Host` header with 400, as the API does (see `createHandler`). */
  requireHostHeader?: boolean;
}

/**
 * The sandbox port's whole handler: `GET /` (and HEAD) answers the proxy page with the CSP of its
 * `?csp=` query; everything else is 404 (405 for other methods on `/`). A `Host` that is not
 * loopback or allowed is 403, as on the API.
 */
export function createSandboxHandler(
  options: SandboxHandlerOptions = {},
): (req: Request) => Promise<Response> {
  const allowedHosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
  return (req) => {
    let url: URL;
    try {
      url = checkHost(req, allowedHosts, options.requireHostHeader).url;
    } catch (error) {
      return Promise.resolve(errorResponse(error as LassError));
    }
    if (url.pathname !== "/") {
      return Promise.resolve(errorResponse(
        new LassError("not-found", "the sandbox port serves only the MCP Apps proxy page at /"),
      ));
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      return Promise.resolve(errorResponse(
        new LassError("method-not-allowed", `${req.method} is not allowed on the sandbox page`),
        { allow: "GET, HEAD" },
      ));
    }
    const granted = parseSandboxCsp(url.searchParams.get("csp"));
    const hostOrigin = options.appOrigin?.(url) ?? null;
    const body = req.method === "HEAD" ? null : proxyPage(hostOrigin, granted);
    return Promise.resolve(respond(body, {
      type: "text/html; charset=utf-8",
      headers: {
        "content-security-policy": sandboxCsp(granted, hostOrigin ?? undefined),
        "referrer-policy": "no-referrer",
        "cache-control": "no-store",
      },
    }));
  };
}
