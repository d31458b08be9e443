/** The `llms[]` record of `service.json`: a model profile and its six provider kinds. */
import { z } from "zod";
import { Id, isHttpUrlOrRef, Name, Secretish, StringMap } from "./_record_fields.ts";

/** The six provider kinds of a model profile. */
export const PROVIDERS = [
  "hosted-a",
  "hosted-b",
  "hosted-c",
  "cloud-d",
  "local-e",
  "compatible-api",
] as const;

/** A provider kind of a model profile. */
export type Provider = typeof PROVIDERS[number];

/** US dollars per million tokens: a price of the `pricing` object. */
const PerMTok = z.number().min(0).max(10_000);

/** A profile's own prices, which win over the catalog's (`docs/models.md`, Costs). */
export const PricingSchema = z.strictObject({
  inputPerMTok: PerMTok.meta({ description: "US dollars per million input tokens" }),
  outputPerMTok: PerMTok.meta({
    description: "US dollars per million output tokens (reasoning tokens included)",
  }),
  cachedInputPerMTok: PerMTok.optional().meta({
    description: "US dollars per million input tokens read from the prompt cache " +
      "(default: inputPerMTok)",
  }),
}).meta({
  description: "The profile's own prices in US dollars per million tokens; they win over the " +
    "models.dev catalog's",
});

/** One `llms[]` record: a model profile. */
export const LlmProfileSchema = z.strictObject({
  id: Id.meta({ description: "Unique id, referenced by workspaces" }),
  name: Name.meta({ description: "Display name" }),
  provider: z.enum(PROVIDERS).meta({
    description: "hosted-a: OpenAI API; hosted-b: Anthropic; hosted-c: Google Gemini; " +
      "cloud-d: Azure OpenAI; local-e: Ollama; compatible-api: any OpenAI-compatible endpoint",
  }),
  model: z.string().min(1, { message: "must not be empty" }).meta({
    description: "Model id (cloud-d: the deployment name)",
  }),
  apiKey: Secretish.optional(),
  baseURL: Secretish.refine((value) => value === "service:demo" || isHttpUrlOrRef(value), {
    message: "must be an http or https URL, an env reference, or service:demo",
  }).optional().meta({
    description: "Required for compatible-api (`service:demo` is the built-in demo model); " +
      "an optional override for the others",
  }),
  headers: StringMap.optional().meta({ description: "Extra HTTP headers" }),
  resourceName: Secretish.optional().meta({ description: "cloud-d: the Azure resource name" }),
  apiVersion: z.string().optional().meta({ description: "cloud-d: API version" }),
  useChatApi: z.boolean().optional().meta({
    description: "hosted-a: use Chat Completions instead of the Responses API",
  }),
  temperature: z.number().min(0).max(2).optional(),
  maxOutputTokens: z.int().min(1).optional(),
  providerOptions: z.record(z.string(), z.unknown()).optional().meta({
    description: "Passed through to the model SDK as provider options",
  }),
  pricing: PricingSchema.optional(),
}).superRefine((llm, ctx) => {
  if (llm.provider === "compatible-api" && !llm.baseURL) {
    ctx.addIssue({ code: "custom", path: ["baseURL"], message: "is required for compatible-api" });
  }
  if (llm.provider === "cloud-d" && !llm.resourceName && !llm.baseURL) {
    ctx.addIssue({
      code: "custom",
      path: ["resourceName"],
      message: "cloud-d needs resourceName or baseURL",
    });
  }
});
