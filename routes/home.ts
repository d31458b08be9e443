/**
 * The web UI's pages: `GET /` and the client routes (`/chat/...`, `/settings/...`, ...) answer the
 * app shell, whose asset URLs carry the token (DESIGN.md section 3); the browser code then keeps
 * the token in `sessionStorage` and cleans the URL. A browser that asks for a page without a valid
 * token gets {@link tokenPage} instead of the JSON 401 (a 200 when it has no token at all).
 */
import type { RouteContext, Routes } from "./context.ts";
import { PAGE_HEADERS, respond } from "./http.ts";
import { type UiManifest } from "./ui_sources.ts";
import { uiManifest } from "./assets.ts";
import { tokenOf } from "./security.ts";

/** The `sessionStorage` key of the token; `islands/token.ts` uses the same. */
const TOKEN_KEY = "lass.token";

/** The paths that answer the app shell; the browser code routes among them. */
export const PAGE_PATHS: readonly string[] = [
  "/",
  "/chat",
  "/chat/:sessionId",
  "/settings",
  "/settings/:section",
  "/settings/:section/:id",
  "/events",
  "/evals",
  "/inspector",
  "/inspector/:serverId",
  "/playground",
];

const PAGE_SET = new Set(PAGE_PATHS);

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A random nonce for the shell's inline import map. */
function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The app shell: links the build's entry and styles, with the token on every asset URL. */
function shellHtml(manifest: UiManifest, token: string, scriptNonce: string): string {
  const query = `?token=${encodeURIComponent(token)}`;
  const asset = (name: string) => escapeHtml(`/assets/${name}${query}`);
  // Chunks import each other by relative URL, without the token: the import map adds it.
  const imports: Record<string, string> = {};
  for (const name of Object.keys(manifest.files)) {
    if (name.endsWith(".js")) imports[`/assets/${name}`] = `/assets/${name}${query}`;
  }
  const importMap = JSON.stringify({ imports }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Lass</title>
<link rel="icon" href="data:,">
${manifest.styles.map((name) => `<link rel="stylesheet" href="${asset(name)}">`).join("\n")}
<script type="importmap" nonce="${scriptNonce}">${importMap}</script>
${manifest.preload.map((name) => `<link rel="modulepreload" href="${asset(name)}">`).join("\n")}
<script type="module" src="${asset(manifest.entry)}"></script>
</head><body><div id="app" class="boot"><p>Loading Lass…</p></div>
<noscript><p>The Lass web UI needs JavaScript.</p></noscript></body></html>`;
}

/** The page shown while the UI has not been built (e.g. `main.ts` run without `deno task start`). */
const NOT_BUILT_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="color-scheme" content="light dark">
<title>Lass: web UI not built</title></head>
<body><h1>The web UI is not built</h1>
<p>Run <code>deno task build:ui</code> (or start Lass with <code>deno task start</code>, which builds
it when needed), then reload this page. The JSON API works without it.</p></body></html>`;

/** Shown to a browser without a valid token; its script retries with a token kept in this tab. */
const TOKEN_SCRIPT = `(function(){try{var q=new URLSearchParams(location.search),` +
  `t=sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)});` +
  `if(t&&!q.has("token")){document.documentElement.className="retrying";q.set("token",t);` +
  `location.replace(location.pathname+"?"+q+location.hash)}` +
  `else if(q.has("token"))sessionStorage.removeItem(${JSON.stringify(TOKEN_KEY)})}catch(e){}})()`;

const TOKEN_STYLE = ":root{color-scheme:light dark}" +
  "body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem}" +
  "code{font-size:.9em;overflow-wrap:anywhere}.retrying body{visibility:hidden}";

let tokenPageCsp: Promise<string> | undefined;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}

/** The token page's CSP: exactly its own inline script and style, by hash. */
function tokenCsp(): Promise<string> {
  tokenPageCsp ??= Promise.all([sha256(TOKEN_SCRIPT), sha256(TOKEN_STYLE)]).then((
    [script, style],
  ) =>
    `default-src 'none'; script-src ${script}; style-src ${style}; base-uri 'none'; ` +
    "form-action 'none'; frame-ancestors 'none'"
  );
  return tokenPageCsp;
}

/**
 * The page for a browser that opened a page without the token, or (`wrong`) with another one.
 * Without a token it answers 200: a reload of a cleaned URL lands here on every page load, and its
 * script at once reopens the URL with the tab's kept token, so the browser logs no failed load; it
 * says to open the terminal's URL only when the tab keeps no token. A wrong token is a 401.
 */
async function tokenPage(url: URL, wrong: boolean): Promise<Response> {
  const example = escapeHtml(`${url.protocol}//${url.host}/?token=…`);
  const reason = wrong
    ? "The token in this link is not the one Lass is using now: it is new at every start " +
      "(unless <code>LASS_TOKEN</code> is set)."
    : "This page needs the service token.";
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lass: open the link from the terminal</title>
<script>${TOKEN_SCRIPT}</script><style>${TOKEN_STYLE}</style></head>
<body><main><h1>Open Lass from the terminal</h1>
<p>${reason} Open the URL that Lass printed in the terminal when it started:</p>
<p><code>Lass ready: ${example}</code></p></main></body></html>`;
  return respond(html, {
    status: wrong ? 401 : 200,
    type: "text/html; charset=utf-8",
    headers: { ...PAGE_HEADERS, "content-security-policy": await tokenCsp() },
  });
}

/**
 * The token page for a browser asking for a page path without a valid token, or `undefined` for
 * anything else (API calls and scripts keep the JSON 401). `routePath` is the matched route.
 */
export function pageForMissingToken(
  req: Request,
  url: URL,
  routePath: string | undefined,
  wrong: boolean,
): Promise<Response> | undefined {
  const page = routePath !== undefined && PAGE_SET.has(routePath) &&
    (req.method === "GET" || req.method === "HEAD") &&
    (req.headers.get("accept") ?? "").includes("text/html");
  return page ? tokenPage(url, wrong) : undefined;
}

async function shell(req: Request, ctx: RouteContext): Promise<Response> {
  const { url, sandboxOrigin } = ctx;
  await ctx.uiReady;
  const manifest = await uiManifest();
  if (!manifest) {
    return respond(NOT_BUILT_HTML, {
      status: 503,
      type: "text/html; charset=utf-8",
      headers: {
        ...PAGE_HEADERS,
        "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
      },
    });
  }
  const scriptNonce = nonce();
  // The route guard accepted this token (a browser's is in the query, a script's in the header).
  const token = tokenOf(req, url) ?? "";
  // MCP Apps and MCP-UI resources are framed only through the sandbox port (routes/sandbox.ts).
  const frames = sandboxOrigin ? `frame-src ${sandboxOrigin}; ` : "";
  return respond(shellHtml(manifest, token, scriptNonce), {
    type: "text/html; charset=utf-8",
    headers: {
      ...PAGE_HEADERS,
      "content-security-policy": `default-src 'none'; script-src 'self' 'nonce-${scriptNonce}'; ` +
        "style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; " +
        `${frames}base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}

/** Page routes: every client route answers the same shell. */
export const homeRoutes: Routes = Object.fromEntries(
  PAGE_PATHS.map((
    path,
  ) => [path, {
    GET: (req: Request, ctx: RouteContext) => shell(req, ctx),
  }]),
);
