/**
 * `POST /api/chat`: one chat turn, streamed as NDJSON chunks; `POST /api/chat/compare`: one turn
 * per column, side by side; cancelling a turn's tool call.
 */
import { z } from "zod";
import { ChatBodySchema } from "../core/chat/request.ts";
import { CompareBodySchema } from "../core/chat/compare.ts";
import { LassError } from "../core/errors.ts";
import { readBody } from "./body.ts";
import type { Routes } from "./context.ts";
import { json } from "./http.ts";
import { ndjsonGeneratorResponse } from "./ndjson.ts";

const NoBody = z.strictObject({});

/** Chat routes. */
export const chatRoutes: Routes = {
  "/api/chat": {
    POST: async (req, { service }) => {
      const body = await readBody(req, ChatBodySchema);
      // The AI SDK loads with the first chat, not at startup.
      const { prepareChat } = await import("../core/chat/run.ts");
      const chat = prepareChat(service, body);
      // A damaged session file is refused before anything streams, and left as it is.
      if (body.sessionId) await service.sessions.assertAppendable(body.sessionId);
      // A client that goes away cancels the body stream, which aborts the run. `req.signal` is not
      // used: Deno also aborts it after a response was delivered in full (and warns about it).
      const abort = new AbortController();
      return ndjsonGeneratorResponse(
        chat.run(abort.signal),
        () => abort.abort(new DOMException("the client went away", "AbortError")),
        { headers: { "x-run-id": chat.runId } },
      );
    },
  },
  "/api/chat/compare": {
    POST: async (req, { service }) => {
      const body = await readBody(req, CompareBodySchema);
      const { prepareCompare } = await import("../core/chat/compare.ts");
      const compare = prepareCompare(service, body);
      if (body.sessionId) await service.sessions.assertAppendable(body.sessionId);
      const abort = new AbortController();
      return ndjsonGeneratorResponse(
        compare.run(abort.signal),
        () => abort.abort(new DOMException("the client went away", "AbortError")),
        { headers: { "x-compare-id": compare.compareId } },
      );
    },
  },
  "/api/chat/runs/:runId/tool-calls/:callId/cancel": {
    POST: async (req, { service, params }) => {
      await readBody(req, NoBody, { optional: true });
      if (!service.runningCalls.cancel(params.runId, params.callId)) {
        throw new LassError(
          "not-found",
          `no running tool call ${params.callId} in the chat run ${params.runId}`,
        );
      }
      return json({ ok: true });
    },
  },
};
