/**
 * Lass's MCP proxy: `/mcp/:id` relays a client's Streamable HTTP session to the configured tool
 * server; `GET /api/mcp/:id/proxy` lists the clients connected through it, and `lass proxy`
 * reports its stdio sessions with `POST /api/mcp/:id/proxy/messages`, watches the holds in force
 * with `GET /api/mcp/:id/proxy/holds?watch=true` and waits for the decision on a held request with
 * `POST /api/mcp/:id/proxy/hold`.
 */
import { z } from "zod";
import { LassError } from "../core/errors.ts";
import type { HoldOutcome, HoldsInForce, ProxyHolds } from "../core/mcp/proxy/holds.ts";
import { isRequest, type RpcMessage } from "../core/mcp/proxy/messages.ts";
import type { ProxyRegistry, ProxySession } from "../core/mcp/proxy/registry.ts";
import { readBody, readText, validateQuery } from "./body.ts";
import { json, respond } from "./http.ts";
import { ndjsonResponse } from "./ndjson.ts";
import type { RouteContext, Routes } from "./context.ts";

const StdioSessionId = z.string().regex(/^[A-Za-z0-9_-]{8,100}$/, {
  message: "must be 8 to 100 letters, digits, - or _",
});

const ReportBody = z.strictObject({
  session: StdioSessionId,
  messages: z.array(z.strictObject({
    dir: z.enum(["out", "in"]).meta({ description: "`out` client → server, `in` back" }),
    message: z.record(z.string(), z.unknown()).meta({ description: "A JSON-RPC message" }),
  })).max(500),
  closed: z.boolean().optional().meta({ description: "The stdio session has ended" }),
});

const HoldsBody = z.strictObject({
  methods: z.array(z.string().min(1).max(200)).max(50).nullable().meta({
    description: "The methods to hold for this run of Lass (not saved); null: the record's",
  }),
});

const HoldsQuery = z.object({
  watch: z.enum(["true", "false", "1", "0"]).optional().meta({
    description: "Stream the holds (NDJSON): now, then each time they change",
  }),
});

const HoldBody = z.strictObject({
  session: StdioSessionId.meta({ description: "The stdio session, as its reports name it" }),
  dir: z.enum(["out", "in"]).meta({ description: "`out` client → server, `in` server → client" }),
  message: z.record(z.string(), z.unknown()).meta({ description: "The JSON-RPC request held" }),
});

/** The stdio session `id` of a server reported by `lass proxy`, opened if not yet reported. */
function stdioSession(registry: ProxyRegistry, serverId: string, id: string): ProxySession {
  const session = registry.get(id);
  if (session && (session.serverId !== serverId || session.transport !== "stdio")) {
    throw new LassError(
      "conflict",
      `the proxy session ${id} is not a stdio session of ${serverId}`,
    );
  }
  return session ?? registry.open(serverId, "stdio", id);
}

/** A server's holds now, then each time they change, until the client or the service goes. */
function watchHolds(holds: ProxyHolds, serverId: string): ReadableStream<HoldsInForce> {
  let stop = () => {};
  return new ReadableStream<HoldsInForce>({
    start: (controller) => {
      let last = "";
      const send = (now: HoldsInForce | null) => {
        if (now === null) {
          stop();
          return controller.close();
        }
        const text = JSON.stringify(now);
        if (text === last) return;
        last = text;
        controller.enqueue(now);
      };
      send(holds.inForce(serverId));
      stop = holds.watch(serverId, send);
    },
    cancel: () => stop(),
  });
}

/**
 * The decision on a held request as the body of the answer, written when it is made. A client
 * that goes away cancels the body, which withdraws the hold (no `req.signal`: Deno aborts it after
 * every delivered response too).
 */
function decisionBody(decide: (signal: AbortSignal) => Promise<HoldOutcome>): Response {
  const gone = new AbortController();
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => {
      decide(gone.signal).then((outcome) => {
        if (gone.signal.aborted) return;
        controller.enqueue(new TextEncoder().encode(JSON.stringify(outcome)));
        controller.close();
      }, (error) => controller.error(error));
    },
    cancel: () => gone.abort(),
  });
  return respond(body, { headers: { "cache-control": "no-store" } });
}

/** `/mcp/:id`: a body is read first, within the API's limit (413 `too-large` past 10 MiB). */
const relay = async (req: Request, context: RouteContext & { params: Record<string, string> }) => {
  const body = req.method === "POST" ? await readText(req) : undefined;
  const { endpoint } = await context.service.proxy();
  return await endpoint.handle(req, context.params.id, context.url.origin, body);
};

/**
 * The command line that starts `lass proxy <id>` on this config: this checkout's `main.ts`
 * under Deno with the permissions it needs.
 */
function proxyCommand(serverId: string, configPath: string): string[] {
  const main = new URL("../main.ts", import.meta.url);
  const entry = main.protocol === "file:" ? decodeURIComponent(main.pathname) : main.href;
  return ["deno", "run", "-A", entry, "proxy", serverId, "--config", configPath];
}

/** The proxy's routes. */
export const proxyRoutes: Routes = {
  "/mcp/:id": { POST: relay, GET: relay, DELETE: relay },
  "/api/mcp/:id/proxy": {
    GET: async (_req, { service, params, url }) => {
      service.mcp.state(params.id);
      const { registry, holds } = await service.proxy();
      return json({
        clients: registry.list(params.id),
        holds: holds.methods(params.id),
        url: `${url.origin}/mcp/${encodeURIComponent(params.id)}`,
        command: proxyCommand(params.id, service.config.path),
      });
    },
  },
  "/api/mcp/:id/proxy/holds": {
    GET: async (_req, { service, params, url }) => {
      const { watch } = validateQuery(HoldsQuery, url);
      service.mcp.state(params.id);
      const { holds } = await service.proxy();
      if (watch === "true" || watch === "1") return ndjsonResponse(watchHolds(holds, params.id));
      return json(holds.inForce(params.id));
    },
    PUT: async (req, { service, params }) => {
      const { methods } = await readBody(req, HoldsBody);
      service.mcp.state(params.id);
      const { holds } = await service.proxy();
      holds.setMethods(params.id, methods);
      return json({ ok: true, holds: holds.methods(params.id) });
    },
  },
  "/api/mcp/:id/proxy/messages": {
    POST: async (req, { service, params }) => {
      const body = await readBody(req, ReportBody);
      service.mcp.state(params.id);
      const { registry } = await service.proxy();
      const session = stdioSession(registry, params.id, body.session);
      for (const { dir, message } of body.messages) session.observe(dir, message);
      if (body.closed) await session.close("client");
      return json({ ok: true, recorded: body.messages.length });
    },
  },
  "/api/mcp/:id/proxy/hold": {
    POST: async (req, { service, params }) => {
      const body = await readBody(req, HoldBody);
      const message = body.message as RpcMessage;
      if (!isRequest(message)) {
        throw new LassError("invalid-request", "only a request can be held", [
          { path: "message", message: "must be a JSON-RPC request (a method and an id)" },
        ]);
      }
      service.mcp.state(params.id);
      const { registry, holds } = await service.proxy();
      const session = stdioSession(registry, params.id, body.session);
      // Its method is no longer held (the holds changed on the way): it goes on at once.
      if (!holds.holds(params.id, message)) return json({ action: "forward", message });
      return decisionBody((signal) => holds.decide(session, body.dir, message, signal));
    },
  },
};
