/**
 * The zod schema of `service.json`: the single source of the config's types, JSON Schema and 400
 * details, shared by the server, the UI and the user's file.
 */
import { z } from "zod";
import { referenceProblems } from "./references.ts";
import { LlmProfileSchema } from "./llm_profile_schema.ts";
import { McpServerSchema } from "./mcp_server_schema.ts";
import { AgentSchema, CatalogSchema, SkillSchema } from "./skill_agent_catalog_schemas.ts";
import { WorkspaceSchema } from "./workspace_schema.ts";
import { HttpUrl } from "./_record_fields.ts";
import { DEFAULT_REGISTRY_URL } from "./field_defaults.ts";
import { TelemetrySchema } from "./telemetry_schema.ts";

const ConfigObjectSchema = z.looseObject({
  $schema: z.string().optional(),
  version: z.literal(1, { message: "only config version 1 is supported" }).default(1),
  activeWorkspaceId: z.string().optional().meta({
    description: "The default workspace of chat when workspaceId is omitted",
  }),
  registryUrl: HttpUrl.optional().meta({
    description: "The MCP Registry that Settings → Tool servers → Add from registry searches " +
      `(the registry API, v0.1); default ${DEFAULT_REGISTRY_URL}, the official one`,
  }),
  llms: z.array(LlmProfileSchema).default([]),
  mcpServers: z.array(McpServerSchema).default([]),
  skills: z.array(SkillSchema).default([]),
  agents: z.array(AgentSchema).default([]),
  catalogs: z.array(CatalogSchema).default([]),
  workspaces: z.array(WorkspaceSchema).default([]),
  telemetry: TelemetrySchema.optional().meta({
    description: "OpenTelemetry export of traces (docs/telemetry.md); off when absent and no " +
      "OTEL_EXPORTER_OTLP_ENDPOINT is set",
  }),
});

/** The whole `service.json`. Unknown top-level fields are kept; unknown record fields are errors. */
export const ServiceConfigSchema = ConfigObjectSchema.superRefine(checkReferences).meta({
  title: "Lass service.json",
  description: "Configuration of Lass, the Local Agent Sandbox Service",
});

/** The config as the service uses it: defaults filled in. */
export type ServiceConfig = z.output<typeof ServiceConfigSchema>;
/** The config as written in the file: defaults may be absent. */
export type ServiceConfigInput = z.input<typeof ServiceConfigSchema>;
/** A model profile with defaults filled in. */
export type LlmProfile = z.output<typeof LlmProfileSchema>;
/** A tool-server record with defaults filled in. */
export type McpServerConfig = z.output<typeof McpServerSchema>;
/** A `mcpServers[]` record as written in `service.json` (defaults not yet filled in). */
export type McpServerInput = z.input<typeof McpServerSchema>;
/** The `telemetry` section with defaults filled in. */
export type TelemetryConfig = z.output<typeof TelemetrySchema>;
/** A workspace with defaults filled in. */
export type Workspace = z.output<typeof WorkspaceSchema>;

/** Unique ids per array and every cross reference, each problem at its dotted path. */
function checkReferences(config: unknown, ctx: z.RefinementCtx): void {
  for (const problem of referenceProblems(config as Record<string, unknown>)) {
    const path = problem.path.split(".").map((part) => /^\d+$/.test(part) ? Number(part) : part);
    ctx.addIssue({ code: "custom", path, message: problem.message });
  }
}

/** The JSON Schema of `service.json` (the input form: defaults are not required). */
export function configJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(ServiceConfigSchema, { io: "input", unrepresentable: "any" });
}
