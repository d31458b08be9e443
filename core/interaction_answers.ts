/**
 * The answers a person gives to pending interactions, one schema per kind. Loaded with the first
 * answer (`InteractionRegistry.answer`), so zod is not on the startup path.
 */
import { z } from "zod";
import type { InteractionKind } from "../wire/interactions.ts";

/** The answer to an approval request. */
export const ApprovalResponseSchema = z.strictObject({
  approved: z.boolean(),
  remember: z.enum(["session", "always"]).optional(),
});

/**
 * The answer to a sampling request: allowed (the model answers) or not, or the reply typed by
 * the user (`text`, with `approved: true`), which goes back to the server as the completion.
 */
export const SamplingResponseSchema = z.strictObject({
  approved: z.boolean(),
  remember: z.enum(["session", "always"]).optional(),
  text: z.string().max(100_000).optional(),
}).refine((answer) => answer.text === undefined || answer.approved, {
  message: "a typed reply needs approved: true",
  path: ["text"],
});

/** The answer to an elicitation request. */
export const ElicitationResponseSchema = z.strictObject({
  action: z.enum(["accept", "decline", "cancel"]),
  content: z.record(
    z.string(),
    z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
  ).optional(),
});

/** The answer to a request held by the proxy: forward (maybe edited), reply in its place, drop. */
export const ProxyHoldResponseSchema = z.union([
  z.strictObject({
    action: z.literal("forward"),
    params: z.record(z.string(), z.unknown()).optional(),
  }),
  z.strictObject({ action: z.literal("reply"), result: z.record(z.string(), z.unknown()) }),
  z.strictObject({
    action: z.literal("reply"),
    error: z.strictObject({ code: z.int(), message: z.string(), data: z.unknown().optional() }),
  }),
  z.strictObject({ action: z.literal("drop") }),
]);

/** The schema of each kind's answer. */
export const RESPONSE_SCHEMAS = {
  approval: ApprovalResponseSchema,
  sampling: SamplingResponseSchema,
  elicitation: ElicitationResponseSchema,
  "proxy-hold": ProxyHoldResponseSchema,
} as const satisfies Record<InteractionKind, z.ZodType>;

/** The answer type for each kind. */
export type InteractionResponse<K extends InteractionKind = InteractionKind> = z.output<
  typeof RESPONSE_SCHEMAS[K]
>;
