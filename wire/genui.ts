/** `POST /api/ui/preview`: the server's types, re-exported as types only. */
export type { Problem as SurfaceProblem, SurfaceResult } from "../core/genui/surface.ts";
