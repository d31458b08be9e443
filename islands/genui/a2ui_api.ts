/**
 * Typed calls of the generative-UI routes the A2UI views use (`/api/ui/*`, `/api/catalogs`,
 * `POST /api/events/ui`), all through the app's one API client.
 */
import { api } from "../state.ts";
import type { RenderToolDefinition, SurfaceResult } from "../../wire/genui.ts";

/** `POST /api/ui/preview {input}`: the checked surface, its A2UI messages and its problems. */
export type SurfacePreview = SurfaceResult;

/** `POST /api/ui/preview {component}`: one component's example surface and its input. */
export interface ComponentPreview extends SurfacePreview {
  component: { catalogId: string; name: string };
  input: unknown;
}

/** `GET /api/ui/tool`: the render tool a workspace sends the model. */
export type RenderToolView = RenderToolDefinition;

/** What `POST /api/events/ui` records for an A2UI action. */
export interface UiActionEvent {
  name: string;
  surfaceId?: string;
  sourceComponentId?: string;
  context?: Record<string, unknown>;
  sessionId?: string;
  runId?: string;
  tool?: string;
  serverId?: string;
}

/** Checks a render-tool input without a model. */
export function previewSurface(
  body: { input: unknown; workspaceId?: string; repair?: boolean },
): Promise<SurfacePreview> {
  return api().json<SurfacePreview>("POST", "/api/ui/preview", body);
}

/** The example surface of one component of a catalog (`catalogId`: URI or record id). */
export function previewComponent(catalogId: string, name: string): Promise<ComponentPreview> {
  return api().json<ComponentPreview>("POST", "/api/ui/preview", {
    component: { catalogId, name },
  });
}

/** The render tool of a workspace (the active one when `workspaceId` is empty). */
export function renderTool(workspaceId: string): Promise<RenderToolView> {
  const query = workspaceId ? `?workspaceId=${encodeURIComponent(workspaceId)}` : "";
  return api().json<RenderToolView>("GET", `/api/ui/tool${query}`);
}

/** Records an A2UI action as a `ui.action` event. */
export function reportAction(data: UiActionEvent): Promise<{ ok: true; seq: number }> {
  return api().json("POST", "/api/events/ui", { type: "ui.action", data });
}
