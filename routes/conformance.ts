/**
 * `POST /api/mcp/:id/conformance`: the official MCP conformance suite's server scenarios against
 * one configured tool server, its progress streamed as NDJSON (docs/api.md).
 */
import { z } from "zod";
import { LassError } from "../core/errors.ts";
import { readBody } from "./body.ts";
import type { Routes } from "./context.ts";
import { ndjsonGeneratorResponse } from "./ndjson.ts";
import { tokenOf } from "./security.ts";

const ConformanceBody = z.strictObject({
  scenarios: z.array(z.string().min(1).max(100)).max(100).optional().meta({
    description: "Server scenarios to run (e.g. `server-initialize`); absent: the whole suite",
  }),
  via: z.enum(["auto", "direct", "proxy"]).default("auto").meta({
    description: "`auto`: a Streamable HTTP server without headers or OAuth at its own URL, " +
      "any other through Lass's `/mcp/:id` proxy; `direct` or `proxy` to choose",
  }),
  scenarioTimeoutMs: z.int().min(1000).max(600_000).optional().meta({
    description: "How long one scenario may run (default 60000)",
  }),
});

/** The conformance route. */
export const conformanceRoutes: Routes = {
  "/api/mcp/:id/conformance": {
    POST: async (req, { service, params, url }) => {
      const body = await readBody(req, ConformanceBody, { optional: true });
      service.mcp.state(params.id);
      const record = service.config.config.mcpServers.find((server) => server.id === params.id);
      if (!record) throw new LassError("not-found", `no tool server ${params.id}`);
      const { runConformance } = await import("../core/mcp/conformance/run.ts");
      const abort = new AbortController();
      const lines = runConformance(record, {
        scenarios: body.scenarios,
        via: body.via,
        scenarioTimeoutMs: body.scenarioTimeoutMs,
        origin: url.origin,
        token: tokenOf(req, url) ?? "",
        signal: abort.signal,
      });
      return ndjsonGeneratorResponse(
        lines,
        () => abort.abort(new DOMException("the client went away", "AbortError")),
      );
    },
  },
};
