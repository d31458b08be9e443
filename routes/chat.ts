/** `POST /api/chat`: one chat turn, streamed as NDJSON chunks. */
import { ChatBodySchema } from "../core/chat/request.ts";
import { readBody } from "./body.ts";
import type { Routes } from "./context.ts";
import { ndjsonResponse } from "./ndjson.ts";

/** Chat routes. */
export const chatRoutes: Routes = {
  "/api/chat": {
    POST: async (req, { service }) => {
      const body = await readBody(req, ChatBodySchema);
      // The AI SDK loads with the first chat, not at startup.
      const { prepareChat } = await import("../core/chat/run.ts");
      const chat = prepareChat(service, body);
      return ndjsonResponse(chat.stream(req.signal), { headers: { "x-run-id": chat.runId } });
    },
  },
};
