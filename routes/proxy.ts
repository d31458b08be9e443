/**
 * Lass's MCP proxy: `/mcp/:id` relays a client's Streamable HTTP session to the configured tool
 * server, and `GET /api/mcp/:id/proxy` lists the clients connected through it.
 */
import { json } from "./http.ts";
import type { Routes } from "./context.ts";
import type { RouteContext } from "./context.ts";

const relay = async (req: Request, context: RouteContext & { params: Record<string, string> }) => {
  const { endpoint } = await context.service.proxy();
  return await endpoint.handle(req, context.params.id, context.url.origin);
};

/** The proxy's routes. */
export const proxyRoutes: Routes = {
  "/mcp/:id": { POST: relay, GET: relay, DELETE: relay },
  "/api/mcp/:id/proxy": {
    GET: async (_req, { service, params }) => {
      service.mcp.state(params.id);
      const { registry } = await service.proxy();
      return json({ clients: registry.list(params.id) });
    },
  },
};
