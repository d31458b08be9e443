/** Export: a workspace as code that runs outside Lass (`POST /api/export`). */
import { z } from "zod";
import { EXPORT_TARGETS } from "../wire/export.ts";
import { readBody } from "./body.ts";
import type { Routes } from "./context.ts";
import { json } from "./http.ts";
import { workspaceFor } from "../core/config/workspaces.ts";

const ExportBody = z.strictObject({
  target: z.enum(EXPORT_TARGETS, { message: `must be one of ${EXPORT_TARGETS.join(", ")}` }),
  workspaceId: z.string().min(1).optional().meta({
    description: "Default: the active workspace, else the first",
  }),
});

/** Export routes. */
export const exportRoutes: Routes = {
  "/api/export": {
    POST: async (req, { service }) => {
      const { target, workspaceId } = await readBody(req, ExportBody);
      const config = service.config.config;
      const id = workspaceFor(config, workspaceId).id;
      // The generators load on first use: startup reaches none of them.
      const [{ exportWorkspace }, { demoServerCommand }] = await Promise.all([
        import("../core/export/export.ts"),
        import("../core/export/demo_command.ts"),
      ]);
      const source = {
        config,
        stored: service.config.stored,
        configPath: service.config.path,
        skill: (skillId: string) => service.skills.get(skillId),
        demoServer: demoServerCommand(),
      };
      return json(exportWorkspace(source, { target, workspaceId: id }));
    },
  },
};
