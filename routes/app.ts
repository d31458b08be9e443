/** `createHandler`: the whole HTTP API as one `(req: Request) => Promise<Response>` on web standards. */
import { LassError } from "../core/errors.ts";
import type { Service } from "../core/service.ts";
import { VERSION } from "../core/version.ts";
import { checkDeclaredLength } from "./body.ts";
import type { RouteContext } from "./context.ts";
import { healthRoutes } from "./health.ts";
import { errorResponse, responseForError } from "./http.ts";
import { Router } from "./router.ts";
import { checkHostAndOrigin, OPEN_ROUTES, tokenOf, tokensMatch } from "./security.ts";

/** What {@link createHandler} needs; everything with a side effect comes in here. */
export interface HandlerOptions {
  service: Service;
  /** The service token every non-open route requires. */
  token: string;
  /** Host names accepted besides loopback names, e.g. the address given with `--host`. */
  allowedHosts?: string[];
  /**
   * Refuse a request without a `Host` header with 400 (`main.ts` sets it: every request from the
   * network is checked by its `Host`). Off by default, for `Request`s built in process, which carry
   * no `Host`: their URL's host is checked instead.
   */
  requireHostHeader?: boolean;
  /** Interval of event-stream heartbeats; default 15 s. */
  heartbeatMs?: number;
  /** Deadline of `POST /api/llm/test` and `/api/llm/models`; default 20 s. */
  llmTimeoutMs?: number;
  version?: string;
  /** Where 5xx errors are logged; default `console.error`. */
  log?: (message: string) => void;
  /**
   * Where Lass really listens, e.g. `http://127.0.0.1:7420` (a function when it is known only
   * once the server is bound). OAuth callback URLs are built from it; without it, from the
   * origin of the first request that carried the token.
   */
  publicOrigin?: string | (() => string | undefined);
  /**
   * The origin of the MCP Apps sandbox port (see `routes/sandbox.ts`) for a page requested at
   * `url`, e.g. the same host name on port + 1, or `undefined` while it is not known. The shell's
   * CSP may frame only this origin and the bootstrap tells the UI where it is. Without it MCP Apps
   * and MCP-UI resources are not shown.
   */
  sandboxOrigin?: string | ((url: URL) => string | undefined);
  /**
   * Settles when the web UI's build files are up to date (a build that `lass serve` runs after
   * listening, when they were stale): pages and assets wait for it. Its failure only means the
   * build folder is served as it is.
   */
  uiReady?: Promise<unknown>;
}

/** Builds the request handler of the Lass API. */
export function createHandler(options: HandlerOptions): (req: Request) => Promise<Response> {
  // The health route answers from the start; the whole table (every route module) loads with the
  // first other request, so that starting loads only what serving needs.
  const early = new Router(healthRoutes);
  let full: Router<RouteContext> | undefined;
  let loading: Promise<Router<RouteContext>> | undefined;
  const routerFor = async (method: string, pathname: string) => {
    if (full) return full;
    if (early.match(method, pathname).kind === "found") return early;
    loading ??= import("./table.ts").then(({ ROUTES }) => full = new Router(ROUTES));
    return await loading;
  };
  const allowedHosts = new Set((options.allowedHosts ?? []).map((host) => host.toLowerCase()));
  const log = options.log ?? ((message: string) => console.error(message));
  let seenOrigin: string | undefined;
  const { publicOrigin, sandboxOrigin } = options;
  options.service.mcp.setOAuthOrigin(() =>
    (typeof publicOrigin === "function" ? publicOrigin() : publicOrigin) ?? seenOrigin
  );
  const base = {
    service: options.service,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    llmTimeoutMs: options.llmTimeoutMs ?? 20_000,
    version: options.version ?? VERSION,
    uiReady: options.uiReady?.catch(() => {}),
  };

  async function route(req: Request): Promise<Response> {
    const url = checkHostAndOrigin(req, allowedHosts, options.requireHostHeader);
    const match = (await routerFor(req.method, url.pathname)).match(req.method, url.pathname);
    const method = req.method === "HEAD" ? "GET" : req.method;
    if (!(match.kind === "found" && OPEN_ROUTES.has(`${method} ${match.path}`))) {
      const token = tokenOf(req, url);
      if (token === null || !await tokensMatch(token, options.token)) {
        const path = match.kind === "found" ? match.path : undefined;
        const { pageForMissingToken } = await import("./home.ts");
        const page = pageForMissingToken(req, url, path, token !== null);
        if (page) return await page;
        throw new LassError(
          "unauthorized",
          token === null
            ? "this request needs the service token (header x-service-token or query token)"
            : "the service token is wrong; use the token printed at startup",
        );
      }
      seenOrigin ??= url.origin;
    }
    if (match.kind === "not-found") {
      throw new LassError("not-found", `there is nothing at ${url.pathname}`);
    }
    if (match.kind === "method-not-allowed") {
      return errorResponse(
        new LassError("method-not-allowed", `${req.method} is not allowed on ${url.pathname}`),
        { allow: match.allow },
      );
    }
    checkDeclaredLength(req);
    const context: RouteContext & { params: Record<string, string> } = {
      ...base,
      url,
      params: match.params,
      sandboxOrigin: typeof sandboxOrigin === "function" ? sandboxOrigin(url) : sandboxOrigin,
    };
    return await match.handler(req, context);
  }

  return async (req) => {
    let response: Response;
    try {
      response = await route(req);
    } catch (error) {
      response = responseForError(error, log);
    }
    if (req.method === "HEAD" && response.body) response = await headResponse(response);
    // Responses built with `respond` have it already (cheaper than adding it here).
    if (!response.headers.has("x-content-type-options")) {
      response.headers.set("x-content-type-options", "nosniff");
    }
    return response;
  };
}

/**
 * The answer to a HEAD: the GET's status and headers without its body. A body of known length
 * (every answer but the NDJSON streams) is read to give the `content-length` that the GET has; a
 * stream is cancelled and replaced by an empty one, so that no length is claimed, as for the GET.
 */
async function headResponse(response: Response): Promise<Response> {
  const init = { status: response.status, statusText: response.statusText };
  if (response.headers.get("content-type")?.startsWith("application/x-ndjson")) {
    await response.body?.cancel();
    const empty = new ReadableStream({ start: (controller) => controller.close() });
    return new Response(empty, { ...init, headers: response.headers });
  }
  const length = (await response.arrayBuffer()).byteLength;
  const headers = new Headers(response.headers);
  headers.set("content-length", String(length));
  return new Response(null, { ...init, headers });
}
