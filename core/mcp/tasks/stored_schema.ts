/** The schema of a task file (`tasks/<serverId>.json`), loaded only when there is one to read. */
import { z } from "zod";

const StoredTaskSchema = z.object({
  taskId: z.string().min(1),
  tool: z.string(),
  reference: z.looseObject({
    endpointId: z.string(),
    generation: z.enum(["v1", "v2"]),
    taskId: z.string().min(1),
    originalOperation: z.string(),
  }),
  status: z.enum(["working", "input_required", "completed", "failed", "cancelled"]),
  message: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
  cancelRequested: z.literal(true).optional(),
});

/** A task file: `{"tasks": [stored task...]}`. */
export const TaskFileSchema = z.object({ tasks: z.array(StoredTaskSchema) });
