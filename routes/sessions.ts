/**
 * Stored chats: `GET /api/sessions`, `GET/PUT/DELETE /api/sessions/:id`, and picking the column
 * a compare turn goes on with.
 */
import { z } from "zod";
import { assertSessionId } from "../core/sessions.ts";
import { LassError } from "../core/errors.ts";
import { readBody, readJson } from "./body.ts";
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
  "/api/sessions/:id/compares/:index/pick": {
    POST: async (req, { service, params }) => {
      assertSessionId(params.id);
      const { column } = await readBody(req, PickBody);
      const index = Number(params.index);
      if (!/^\d+$/.test(params.index) || !Number.isSafeInteger(index)) {
        throw new LassError("invalid-request", "the compare turn's index is a message index", [
          { path: "index", message: `is ${JSON.stringify(params.index)}, not a whole number` },
        ]);
      }
      return json(await service.sessions.pickCompareColumn(params.id, index, column));
    },
  },
};

const PickBody = z.strictObject({ column: z.int().min(0) });
