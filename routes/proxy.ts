/**
 * Lass's MCP proxy: `/mcp/:id` relays a client's Streamable HTTP session to the configured tool
 * server; `GET /api/mcp/:id/proxy` lists the clients connected through it, and `lass proxy`
 * reports its stdio sessions with `POST /api/mcp/:id/proxy/messages`.
 */
import { z } from "zod";
import { LassError } from "../core/errors.ts";
import { readBody, readText } from "./body.ts";
import { json } from "./http.ts";
import type { RouteContext, Routes } from "./context.ts";

const ReportBody = z.strictObject({
  session: z.string().regex(/^[A-Za-z0-9_-]{8,100}$/, {
    message: "must be 8 to 100 letters, digits, - or _",
  }),
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
      let session = registry.get(body.session);
      if (session && (session.serverId !== params.id || session.transport !== "stdio")) {
        throw new LassError(
          "conflict",
          `the proxy session ${body.session} is not a stdio session of ${params.id}`,
        );
      }
      session ??= registry.open(params.id, "stdio", body.session);
      for (const { dir, message } of body.messages) session.observe(dir, message);
      if (body.closed) await session.close("client");
      return json({ ok: true, recorded: body.messages.length });
    },
  },
};
