/** The schemas of the pin files (the lock file, a server's first-seen pins), loaded on first read. */
import { z } from "zod";

const PinSchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  definition: z.record(z.string(), z.unknown()),
});
const Pins = z.record(z.string(), PinSchema).default({});
/** A server's pins. */
export const PinnedServerSchema = z.object({
  name: z.string().optional(),
  version: z.string().optional(),
  tools: Pins,
  prompts: Pins,
  resourceTemplates: Pins,
});
/** `lass.lock.json`. */
export const LockFileSchema = z.object({
  lockfileVersion: z.literal(1),
  servers: z.record(z.string(), PinnedServerSchema),
});
