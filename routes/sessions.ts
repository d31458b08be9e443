/** Stored chats: `GET /api/sessions`, `GET/PUT/DELETE /api/sessions/:id`. */
import { assertSessionId } from "../core/sessions.ts";
import { readJson } from "./body.ts";
import { json } from "./http.ts";
import type { Routes } from "./context.ts";

/** Session routes. */
export const sessionRoutes: Routes = {
  "/api/sessions": {
    GET: async (_req, { service }) => json({ sessions: await service.sessions.list() }),
  },
  "/api/sessions/:id": {
    GET: async (_req, { service, params }) => json(await service.sessions.get(params.id)),
    PUT: async (req, { service, params }) => {
      assertSessionId(params.id);
      return json(await service.sessions.put(params.id, await readJson(req)));
    },
    DELETE: async (_req, { service, params }) => {
      await service.sessions.delete(params.id);
      return json({ ok: true });
    },
  },
};
