/** The event stream: `GET /api/events` (NDJSON), `POST /api/events/ui`, `DELETE /api/events`. */
import { z } from "zod";
import { readBody, validateQuery } from "./body.ts";
import { json } from "./http.ts";
import { ndjsonResponse } from "./ndjson.ts";
import type { Routes } from "./context.ts";

const StreamQuery = z.object({
  since: z.string().regex(/^\d{1,15}$/, { message: "must be a non-negative integer" }).optional(),
});

const UiAction = z.looseObject({
  name: z.string().min(1),
  surfaceId: z.string().optional(),
  sourceComponentId: z.string().optional(),
  context: z.record(z.string(), z.unknown()).optional(),
  sessionId: z.string().optional(),
  runId: z.string().optional(),
  serverId: z.string().optional().meta({ description: "The tool server whose UI sent it" }),
  tool: z.string().optional().meta({ description: "The tool whose result the UI shows" }),
});

const UiRpc = z.looseObject({
  method: z.string().min(1),
  direction: z.enum(["to-app", "from-app"]).optional(),
  serverId: z.string().optional(),
  tool: z.string().optional().meta({
    description: "The tool concerned; for tools/call taken from params.name when absent",
  }),
  resourceUri: z.string().optional(),
}).transform((data) => {
  const name = (data.params as { name?: unknown } | undefined)?.name;
  return data.tool === undefined && data.method === "tools/call" && typeof name === "string"
    ? { ...data, tool: name }
    : data;
});

/** What a client may report: a UI action (A2UI) or an MCP Apps JSON-RPC message. */
const UiEvent = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("ui.action"), data: UiAction }),
  z.strictObject({ type: z.literal("ui.rpc"), data: UiRpc }),
]);

/** Event routes. */
export const eventRoutes: Routes = {
  "/api/events": {
    GET: (_req, { service, url, heartbeatMs }) => {
      const { since } = validateQuery(StreamQuery, url);
      const stream = service.events.stream({
        since: since === undefined ? undefined : Number(since),
        heartbeatMs,
      });
      return ndjsonResponse(stream);
    },
    DELETE: (_req, { service }) => {
      service.events.clear();
      return json({ ok: true });
    },
  },
  "/api/events/ui": {
    POST: async (req, { service }) => {
      const event = await readBody(req, UiEvent);
      const { seq } = service.events.emit(event.type, event.data);
      return json({ ok: true, seq });
    },
  },
};
