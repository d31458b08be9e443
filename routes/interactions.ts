/** Pending interactions: `GET /api/interactions`, `POST /api/interactions/:id`. */
import { z } from "zod";
import { readBody } from "./body.ts";
import { json } from "./http.ts";
import type { Routes } from "./context.ts";

const AnswerBody = z.strictObject({ response: z.unknown() }).refine(
  (body) => body.response !== undefined,
  { message: "is required", path: ["response"] },
);

/** Interaction routes. */
export const interactionRoutes: Routes = {
  "/api/interactions": {
    GET: (_req, { service }) => json({ interactions: service.interactions.list() }),
  },
  "/api/interactions/:id": {
    POST: async (req, { service, params }) => {
      service.interactions.assertPending(params.id);
      const { response } = await readBody(req, AnswerBody);
      await service.interactions.answer(params.id, response);
      return json({ ok: true });
    },
  },
};
