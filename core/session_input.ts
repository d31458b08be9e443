/** The body of `PUT /api/sessions/:id`, loaded with the first such request (zod stays off startup). */
import { z } from "zod";

const ModelMessage = z.looseObject({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.unknown(),
});

/**
 * The body of `PUT /api/sessions/:id`. A record as `GET` returned it is accepted as is:
 * `id` must match the path, `updatedAt` is set by the server, `createdAt` is kept.
 */
export const SessionInputSchema = z.strictObject({
  id: z.string().optional(),
  updatedAt: z.string().optional(),
  title: z.string().max(500).optional(),
  workspaceId: z.string().min(1),
  llmId: z.string().optional(),
  agentId: z.string().optional(),
  messages: z.array(ModelMessage),
  meta: z.record(z.string(), z.unknown()).optional(),
  createdAt: z.iso.datetime().optional(),
});

/** A session body as the schema gives it back. */
export type SessionInputFields = z.output<typeof SessionInputSchema>;
