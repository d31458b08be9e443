/** `GET /api/health`: open (no token), for scripts and readiness probes. */
import { json } from "./http.ts";
import type { Routes } from "./context.ts";

/** Health routes. */
export const healthRoutes: Routes = {
  "/api/health": {
    GET: (_req, { version }) => json({ ok: true, version }),
  },
};
