/** `GET /api/ui/tool` and `POST /api/ui/preview`: the server's types, re-exported as types only. */
export type { Problem as SurfaceProblem, SurfaceResult } from "../core/genui/surface.ts";
export type { RenderToolDefinition } from "../core/genui/render_tool.ts";
