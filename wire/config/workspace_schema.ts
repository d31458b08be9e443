/** The `workspaces[]` record of `service.json`, with its generative-UI (render tool) settings. */
import { z } from "zod";
import { Id, Name } from "./_record_fields.ts";
import { CONFIG_DEFAULTS } from "./field_defaults.ts";

const ComponentNames = z.array(z.string().min(1));

/** The settings of a workspace's render tool (`generativeUi` as an object). */
export const GenerativeUiSettingsSchema = z.strictObject({
  toolName: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).default(CONFIG_DEFAULTS.renderToolName)
    .meta({ description: "Name of the render tool the model sees" }),
  catalogIds: z.array(z.string()).optional().meta({
    description: "Configured catalogs to offer; all of them when absent",
  }),
  standard: z.boolean().default(true).meta({ description: "Include the standard A2UI catalog" }),
  allow: ComponentNames.optional().meta({ description: "Only these component names" }),
  deny: ComponentNames.optional().meta({ description: "Never these component names" }),
  instructions: z.string().optional().meta({ description: "Added to the system prompt" }),
  description: z.string().optional().meta({ description: "The render tool's description" }),
  examples: z.array(z.strictObject({
    prompt: z.string().optional().meta({ description: "What the example answers" }),
    input: z.record(z.string(), z.unknown()).meta({ description: "A render-tool input" }),
  })).optional().meta({
    description: "Example render-tool inputs shown to the model (replace the built-in example)",
  }),
  repair: z.boolean().default(true).meta({
    description: "Repair small mistakes in the model's UI instead of rejecting them",
  }),
  theme: z.looseObject({
    primaryColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, { message: "must be a color like #1a73e8" })
      .optional().meta({ description: "The surface's primary color, #RRGGBB" }),
    iconUrl: z.string().optional().meta({ description: "An icon shown as the agent's" }),
    agentDisplayName: z.string().optional().meta({ description: "The agent's name on surfaces" }),
  }).optional().meta({
    description: "Theme passed into createSurface (A2UI v0.9 theme; other fields pass through)",
  }),
});

/** One `workspaces[]` record. */
export const WorkspaceSchema = z.strictObject({
  id: Id,
  name: Name,
  llmId: z.string().optional().meta({
    description: "Default model; falls back to the first model",
  }),
  agentId: z.string().optional().meta({ description: "Chat with this remote agent instead" }),
  mcpServerIds: z.array(z.string()).default([]).meta({ description: "Enabled tool servers" }),
  skillIds: z.array(z.string()).default([]).meta({ description: "Enabled skills" }),
  systemPrompt: z.string().optional(),
  starterPrompts: z.array(z.string()).optional().meta({ description: "Chips on an empty chat" }),
  maxSteps: z.int().min(1).max(100).default(CONFIG_DEFAULTS.maxSteps),
  toolServerWaitMs: z.int().min(0).max(600_000).default(CONFIG_DEFAULTS.toolServerWaitMs).meta({
    description: "How long a chat turn waits in all for tool servers that are still connecting " +
      "(servers in error or waiting for sign-in are never waited for)",
  }),
  generativeUi: z.union([z.boolean(), GenerativeUiSettingsSchema]).default(true).meta({
    description: "The render tool: on by default, `false` turns it off, an object sets it up",
  }),
  requireApproval: z.boolean().optional().meta({
    description: "Ask before every tool call on a tool server in this workspace",
  }),
});
