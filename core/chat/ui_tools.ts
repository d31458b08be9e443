/** The render tool of a chat run: A2UI surfaces from the model's compact input (see `core/genui`). */
import { dynamicTool, jsonSchema, type Tool, type ToolSet } from "ai";
import type { Workspace } from "../../wire/config/schema.ts";
import { offerFor, type UiOffer, uiSettings } from "../genui/offer.ts";
import type { RenderToolDefinition, SurfaceResult } from "../../wire/genui.ts";
import { renderToolDefinition, resultText } from "../genui/render_tool.ts";
import { SurfaceIds } from "../genui/surface_ids.ts";
import { RENDER_TOOL_MARK } from "../llm/demo/ui.ts";
import type { Service } from "../service.ts";
import type { ToolRun } from "./tools.ts";
import type { ToolOrigin } from "./types.ts";

/** The render tool of a run, where its name leads, and its system-prompt section. */
export interface UiTools {
  tools: ToolSet;
  origins: Map<string, ToolOrigin>;
  /** Absent when the workspace has no render tool. */
  instructions?: string;
}

/**
 * The AI SDK tool for an offer. Each call is checked and expanded into A2UI v0.9 messages: the
 * result carries them as `ui: {kind: "a2ui", messages}`; an input that cannot be shown (even
 * after repairs, when they are on) is an error result listing the problems, so the model can try
 * again. `ids` keeps surface ids unique; `onResult` sees every outcome. The tool never throws.
 */
export function renderTool(
  offer: UiOffer,
  ids: SurfaceIds,
  onResult?: (result: SurfaceResult) => void,
): { definition: RenderToolDefinition; tool: Tool } {
  const definition = renderToolDefinition(offer);
  const tool = dynamicTool({
    description: definition.description,
    inputSchema: inputSchemaOf(definition),
    execute: async (input) => {
      const started = performance.now();
      // The A2UI checks load with the first surface, not with every chat.
      const { expandSurface } = await import("../genui/surface.ts");
      const result = await expandSurface(input, offer, ids);
      onResult?.(result);
      const text = resultText(result, definition.name);
      const run: ToolRun = {
        model: result.ok ? { type: "text", value: text } : { type: "error-text", value: text },
        isError: !result.ok,
        durationMs: Math.round(performance.now() - started),
        ...(result.ok && {
          ui: {
            kind: "a2ui" as const,
            messages: result.messages,
            ...(result.title && { title: result.title }),
          },
        }),
      };
      return run;
    },
    toModelOutput: ({ output }) => (output as ToolRun).model,
    // Lets the demo model tell Lass's render tool from tool-server tools, whatever its name.
    providerOptions: RENDER_TOOL_MARK,
  });
  return { definition, tool };
}

/** Input schemas by definition: one per offer, as the definition is. */
const inputSchemas = new WeakMap<RenderToolDefinition, ReturnType<typeof jsonSchema>>();

/** The AI SDK schema of a definition's input, made once. */
function inputSchemaOf(definition: RenderToolDefinition): ReturnType<typeof jsonSchema> {
  let schema = inputSchemas.get(definition);
  if (!schema) inputSchemas.set(definition, schema = jsonSchema(definition.inputSchema));
  return schema;
}

/**
 * The workspace's render tool for one run (source `ui`), or nothing when `generativeUi` is off
 * or no component is left to offer. Surface ids are unique within the run.
 */
export async function uiTools(
  service: Service,
  workspace: Workspace,
  runId: string,
): Promise<UiTools> {
  const tools: ToolSet = {};
  const origins = new Map<string, ToolOrigin>();
  // Loading the catalogs takes time: not when the render tool is off.
  if (!uiSettings(workspace)) return { tools, origins };
  const offer = offerFor(workspace, await service.catalogs.list());
  if (!offer) return { tools, origins };
  const { definition, tool } = renderTool(offer, new SurfaceIds(`ui-${runId.slice(0, 8)}`));
  origins.set(definition.name, { source: "ui", tool: definition.name });
  tools[definition.name] = tool;
  return { tools, origins, instructions: definition.instructions };
}
