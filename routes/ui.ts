/** Generative UI: the render tool a workspace sends, previews of surfaces and components, generation. */
import { z } from "zod";
import type { Workspace } from "../wire/config/schema.ts";
import { LassError } from "../core/errors.ts";
import type { Service } from "../core/service.ts";
import { readBody, validateQuery } from "./body.ts";
import type { Routes } from "./context.ts";
import { json } from "./http.ts";
import { workspaceFor } from "../core/config/workspaces.ts";

const ToolQuery = z.object({ workspaceId: z.string().min(1).optional() });

const ComponentRef = z.strictObject({
  catalogId: z.string().min(1).meta({
    description:
      "The catalog's A2UI catalog id, or its record id (`standard` for the standard one)",
  }),
  name: z.string().min(1).meta({ description: "The component's name" }),
});

const PreviewBody = z.union([
  z.strictObject({
    input: z.unknown().refine((value) => value !== undefined, { message: "is required" }),
    workspaceId: z.string().min(1).optional(),
    repair: z.boolean().optional().meta({ description: "Overrides the workspace's repair" }),
  }),
  z.strictObject({
    component: ComponentRef,
    workspaceId: z.string().min(1).optional(),
    repair: z.boolean().optional(),
  }),
]);

const GenerateBody = z.strictObject({
  prompt: z.string().trim().min(1),
  workspaceId: z.string().min(1).optional(),
  llmId: z.string().min(1).optional(),
});

/** The offer a preview uses: the workspace's, or every catalog when no workspace is named. */
async function previewOffer(service: Service, workspaceId: string | undefined, repair?: boolean) {
  const { offerFor, openOffer } = await import("../core/genui/offer.ts");
  const catalogs = await service.catalogs.list();
  if (workspaceId === undefined) return openOffer(catalogs, repair ?? true);
  const workspace = workspaceFor(service.config.config, workspaceId);
  const offer = offerFor(workspace, catalogs);
  if (!offer) throw noRenderTool(workspace);
  return repair === undefined ? offer : { ...offer, repair };
}

function noRenderTool(workspace: Workspace): LassError {
  return new LassError(
    "not-found",
    `the workspace ${workspace.id} has no render tool (generativeUi is off or offers no component)`,
  );
}

/** Generative-UI routes; `core/genui` and `@a2ui/web_core` load on first use. */
export const uiRoutes: Routes = {
  "/api/ui/tool": {
    GET: async (_req, { service, url }) => {
      const { workspaceId } = validateQuery(ToolQuery, url);
      const workspace = workspaceFor(service.config.config, workspaceId);
      const { offerFor } = await import("../core/genui/offer.ts");
      const offer = offerFor(workspace, await service.catalogs.list());
      if (!offer) throw noRenderTool(workspace);
      const { renderToolDefinition } = await import("../core/genui/render_tool.ts");
      return json(renderToolDefinition(offer));
    },
  },
  "/api/ui/preview": {
    POST: async (req, { service }) => {
      const body = await readBody(req, PreviewBody);
      const offer = await previewOffer(service, body.workspaceId, body.repair);
      const { expandSurface } = await import("../core/genui/surface.ts");
      if (!("component" in body)) return json(await expandSurface(body.input, offer));
      const { catalogId, name } = body.component;
      const catalog = (await service.catalogs.list()).find((candidate) =>
        candidate.catalogId === catalogId || candidate.id === catalogId
      );
      if (!catalog) throw new LassError("not-found", `no catalog has the id ${catalogId}`);
      const component = catalog.components.find((candidate) => candidate.name === name);
      if (!component) {
        throw new LassError(
          "not-found",
          `the catalog ${catalog.catalogId} has no component ${name}`,
        );
      }
      const { componentExample } = await import("../core/genui/example.ts");
      const input = { ...componentExample(component), catalogId: catalog.catalogId };
      const result = await expandSurface(input, offer);
      return json({ component: { catalogId: catalog.catalogId, name }, input, ...result });
    },
  },
  "/api/ui/generate": {
    POST: async (req, { service }) => {
      const body = await readBody(req, GenerateBody);
      const config = service.config.config;
      const workspace = workspaceFor(config, body.workspaceId);
      const llmId = body.llmId ?? workspace.llmId;
      const profile = llmId
        ? config.llms.find((candidate) => candidate.id === llmId)
        : config.llms[0];
      if (!profile) {
        throw new LassError(
          "not-found",
          llmId ? `no model profile has id ${llmId}` : "the config has no model profile",
        );
      }
      const { generateUi } = await import("../core/genui/generate.ts");
      // No `req.signal`: Deno aborts it after every delivered response too, and prints a
      // deprecation warning for it. The generation has its own deadline.
      return json(await generateUi({ service, prompt: body.prompt, workspace, profile }));
    },
  },
};
