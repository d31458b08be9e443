/** Tool servers: state, drafts, import, and connect / call / read / prompt on one server. */
import { z } from "zod";
import { McpServerSchema } from "../wire/config/mcp_server_schema.ts";
import { readBody, validateQuery } from "./body.ts";
import { json } from "./http.ts";
import { asRequester } from "../core/mcp/requester.ts";
import { ndjsonResponse } from "./ndjson.ts";
import type { Routes } from "./context.ts";
import { LassError } from "../core/errors.ts";
import { LOG_LEVELS } from "../wire/tool_servers.ts";
import type { CallOutcome } from "../core/mcp/manager/calls.ts";

const TestBody = z.strictObject({ server: McpServerSchema });
const ImportBody = z.strictObject({
  json: z.union([z.string().min(1), z.record(z.string(), z.unknown())]),
  format: z.string().optional(),
});
const ConnectBody = z.strictObject({ force: z.boolean().optional() });
const CallBody = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  from: z.enum(["api", "app"]).default("api").meta({
    description: "`app`: the call comes from an MCP App of this server (visibility is enforced)",
  }),
  task: z.boolean().default(false).meta({
    description: "Answer at once with `{taskId, status}` and let the call run as an MCP task " +
      "(400 when the server or the tool cannot run tasks)",
  }),
  callId: z.string().min(1).max(128).optional().meta({
    description: "An id of the caller's choosing, carried as `toolCallId` by the call's " +
      "`tool.call`, `tool.progress` and `tool.result` events; while the call runs, " +
      "`POST /api/mcp/:id/calls/:callId/cancel` cancels it",
  }),
  timeoutMs: z.int().min(100).max(3_600_000).optional().meta({
    description: "This call's deadline in milliseconds (default: the record's `callTimeoutMs`, " +
      "else 120000); past it the answer is 504 `timeout`, progress or not",
  }),
});
const ResourceBody = z.strictObject({ uri: z.string().min(1) });
const PromptBody = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), z.string()).default({}),
});
const NoBody = z.strictObject({});
const CompleteBody = z.strictObject({
  ref: z.discriminatedUnion("type", [
    z.strictObject({ type: z.literal("ref/prompt"), name: z.string().min(1) }),
    z.strictObject({ type: z.literal("ref/resource"), uri: z.string().min(1) }),
  ]),
  argument: z.strictObject({ name: z.string().min(1), value: z.string() }),
  context: z.strictObject({ arguments: z.record(z.string(), z.string()).optional() }).optional(),
});
const LogLevelBody = z.strictObject({ level: z.enum(LOG_LEVELS) });

/** The most messages one trace read returns (a server's ring holds 2,000). */
const MAX_TRACE_LIMIT = 2000;
const TraceQuery = z.object({
  since: z.string().regex(/^\d{1,15}$/, { message: "must be a non-negative integer" })
    .transform(Number).optional(),
  limit: z.string().regex(/^\d{1,4}$/, { message: "must be an integer from 1 to 2000" })
    .transform(Number).refine((n) => n >= 1 && n <= MAX_TRACE_LIMIT, {
      message: "must be an integer from 1 to 2000",
    }).optional(),
  follow: z.enum(["0", "1", "false", "true"]).optional(),
});
const TraceBody = z.strictObject({
  messages: z.array(z.strictObject({
    dir: z.enum(["view-out", "view-in"]),
    message: z.record(z.string(), z.unknown()).meta({ description: "A JSON-RPC message" }),
    ms: z.number().min(0).optional().meta({
      description: "On a response: milliseconds since its request, measured by the host",
    }),
  })).min(1).max(100),
});

/** The key under which calls of `POST /api/mcp/:id/call` with a `callId` are registered. */
function inspectorRun(serverId: string): string {
  return `mcp:${serverId}`;
}

/**
 * The routes with every request they send to a tool server marked in its trace as the
 * inspector's (`by: "inspector"`): these routes are the inspector's way to the servers.
 */
function asInspector(routes: Routes): Routes {
  return Object.fromEntries(
    Object.entries(routes).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, handler]) => [
          method,
          (req: Request, context: Parameters<typeof handler>[1]) =>
            asRequester("inspector", () => handler(req, context)),
        ]),
      ),
    ]),
  );
}

/** Tool-server routes. */
export const mcpRoutes: Routes = asInspector({
  "/api/mcp": {
    GET: (_req, { service }) => json({ servers: service.mcp.states() }),
  },
  "/api/mcp/test": {
    POST: async (req, { service }) => {
      const { server } = await readBody(req, TestBody);
      const state = await service.mcp.testDraft(server);
      return json({ ok: state.status === "connected", ...state });
    },
  },
  "/api/mcp/import": {
    POST: async (req, { service }) => {
      const body = await readBody(req, ImportBody);
      const { importClientConfig, IMPORT_FORMATS } = await import("../core/mcp/import/import.ts");
      if (
        body.format !== undefined && !(IMPORT_FORMATS as readonly string[]).includes(body.format)
      ) {
        throw new LassError("invalid-request", `unknown format ${JSON.stringify(body.format)}`, [
          { path: "format", message: `must be one of ${IMPORT_FORMATS.join(", ")}` },
        ]);
      }
      const existingIds = service.config.config.mcpServers.map((server) => server.id);
      return json(importClientConfig(body.json, {
        format: body.format as (typeof IMPORT_FORMATS)[number] | undefined,
        existingIds,
      }));
    },
  },
  "/api/mcp/:id/log": {
    GET: (_req, { service, params }) => json({ lines: service.mcp.recentLog(params.id) }),
  },
  "/api/mcp/:id/trace": {
    GET: (_req, { service, params, url }) => {
      const query = validateQuery(TraceQuery, url);
      if (query.follow === "1" || query.follow === "true") {
        // A client that goes away cancels the body, which ends the follow (no `req.signal`:
        // Deno aborts it after every delivered response too).
        const { since, limit } = query;
        return ndjsonResponse(service.mcp.followTrace(params.id, { since, limit }));
      }
      const limit = query.limit ?? 500;
      return json({ messages: service.mcp.trace(params.id, { since: query.since, limit }) });
    },
    POST: async (req, { service, params }) => {
      const { messages } = await readBody(req, TraceBody);
      return json({ ok: true, recorded: service.mcp.recordView(params.id, messages) });
    },
  },
  "/api/mcp/:id/connect": {
    POST: async (req, { service, params }) => {
      const { force } = await readBody(req, ConnectBody, { optional: true });
      return json(await service.mcp.connect(params.id, { force }));
    },
  },
  "/api/mcp/:id/disconnect": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      return json(await service.mcp.disconnect(params.id));
    },
  },
  "/api/mcp/:id/signout": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      return json(await service.mcp.signOut(params.id));
    },
  },
  "/api/mcp/:id/oauth/trace": {
    GET: (_req, { service, params }) => json(service.mcp.signInTrace(params.id)),
  },
  "/api/mcp/:id/call": {
    POST: async (req, { service, params }) => {
      const { tool, args, from, task, callId, timeoutMs } = await readBody(req, CallBody);
      if (from === "app") {
        // MCP Apps: a View may call only tools whose `_meta.ui.visibility` includes "app"
        // (absent means ["model", "app"]), and only on its own server (this route's).
        const state = await service.mcp.connect(params.id);
        const info = state.tools.find((candidate) => candidate.name === tool);
        const visibility = info?.ui?.visibility;
        if (info && visibility !== undefined && !visibility.includes("app")) {
          throw new LassError(
            "forbidden-tool",
            `the tool ${tool} of ${params.id} is not visible to apps (visibility: ${
              visibility.join(", ") || "none"
            })`,
          );
        }
      }
      if (task) {
        const started = await service.mcp.startToolTask(params.id, tool, args, { timeoutMs });
        return json("taskId" in started ? started : callAnswer(started));
      }
      // With a `callId` the call can be cancelled while it runs (the inspector's Cancel), through
      // the route below: the same registry as chat tool calls, under the server's name.
      const running = callId ? service.runningCalls.start(inspectorRun(params.id), callId) : null;
      const started = performance.now();
      try {
        const outcome = await service.mcp.callTool(params.id, tool, args, {
          signal: running?.signal,
          timeoutMs,
          ...(callId && { context: { toolCallId: callId } }),
        });
        return json(callAnswer(outcome));
      } catch (error) {
        if (!running?.cancelled()) throw error;
        // Cancelled by the user: an answer, not a failure of the server.
        return json({
          result: {
            content: [{ type: "text", text: "The user cancelled the tool call." }],
            isError: true,
          },
          durationMs: Math.round(performance.now() - started),
          cancelled: true,
        });
      } finally {
        running?.end();
      }
    },
  },
  "/api/mcp/:id/calls/:callId/cancel": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      if (!service.runningCalls.cancel(inspectorRun(params.id), params.callId)) {
        throw new LassError(
          "not-found",
          `no running call ${
            JSON.stringify(params.callId)
          } on ${params.id} (it ended or never ran)`,
        );
      }
      return json({ ok: true });
    },
  },
  "/api/mcp/:id/tasks": {
    GET: (_req, { service, params }) => json({ tasks: service.mcp.tasks(params.id) }),
  },
  "/api/mcp/:id/tasks/:taskId": {
    GET: (_req, { service, params }) => json(service.mcp.task(params.id, params.taskId)),
  },
  "/api/mcp/:id/tasks/:taskId/cancel": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      const task = await service.mcp.cancelTask(params.id, params.taskId);
      return json({ ok: true, task });
    },
  },
  "/api/mcp/:id/resource": {
    POST: async (req, { service, params }) => {
      const { uri } = await readBody(req, ResourceBody);
      return json(await service.mcp.readResource(params.id, uri));
    },
  },
  "/api/mcp/:id/complete": {
    POST: async (req, { service, params }) =>
      json(await service.mcp.complete(params.id, await readBody(req, CompleteBody))),
  },
  "/api/mcp/:id/log-level": {
    POST: async (req, { service, params }) => {
      const { level } = await readBody(req, LogLevelBody);
      await service.mcp.setLogLevel(params.id, level);
      return json({ ok: true, level });
    },
  },
  "/api/mcp/:id/subscribe": {
    POST: async (req, { service, params }) => {
      const { uri } = await readBody(req, ResourceBody);
      await service.mcp.subscribe(params.id, uri);
      return json({ ok: true });
    },
  },
  "/api/mcp/:id/unsubscribe": {
    POST: async (req, { service, params }) => {
      const { uri } = await readBody(req, ResourceBody);
      await service.mcp.unsubscribe(params.id, uri);
      return json({ ok: true });
    },
  },
  "/api/mcp/:id/ping": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      return json(await service.mcp.ping(params.id));
    },
  },
  "/api/mcp/:id/refresh": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      return json(await service.mcp.refresh(params.id));
    },
  },
  "/api/mcp/:id/pins/accept": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      return json(await service.mcp.acceptPins(params.id));
    },
  },
  "/api/mcp/:id/prompt": {
    POST: async (req, { service, params }) => {
      const { name, args } = await readBody(req, PromptBody);
      return json(await service.mcp.getPrompt(params.id, name, args));
    },
  },
});

/**
 * The answer of `POST /api/mcp/:id/call`: the result and its duration, and `outputSchema:
 * "passed"` when the tool has an output schema its structured content was checked against (a
 * result that breaks it fails the call: 502 with the errors at their paths in `details`).
 */
function callAnswer({ result, durationMs, tool }: CallOutcome) {
  const checked = tool?.outputSchema !== undefined && result.isError !== true;
  return { result, durationMs, ...(checked && { outputSchema: "passed" as const }) };
}
