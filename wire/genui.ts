/**
 * `GET /api/ui/tool` and `POST /api/ui/preview`: the render tool a workspace offers the model and
 * the outcome of expanding a surface, shared by the server and the UI.
 */

/** What is wrong with a surface input, at a JSON pointer into it; `repaired` when Lass fixed it. */
export interface SurfaceProblem {
  code: string;
  path: string;
  message: string;
  repaired?: true;
}

/** The outcome of expanding one surface input (`POST /api/ui/preview`). */
export interface SurfaceResult {
  /** True when nothing is left unrepaired; then `messages` is non-empty. */
  ok: boolean;
  /** The surface's id, unique among those given out; when not `ok`, the requested one or "". */
  surfaceId: string;
  catalogId?: string;
  title?: string;
  messages: unknown[];
  problems: SurfaceProblem[];
}

/** One example input the model is shown, with the prompt it answers. */
export interface UiExample {
  prompt?: string;
  input: Record<string, unknown>;
}

/** One component as the model is told about it. */
export interface ToolComponent {
  name: string;
  catalogId: string;
  description?: string;
  /** The line of the instructions that lists its properties. */
  signature: string;
}

/** Exactly what the model is sent for the render tool (`GET /api/ui/tool`). */
export interface RenderToolDefinition {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The section added to the system prompt. */
  instructions: string;
  components: ToolComponent[];
  /** The example inputs the instructions show the model. */
  examples: UiExample[];
}
