/** What the server requests' modules share: how a sampling request is answered. */
import type { CreateMessageResult, SamplingParams } from "../session/types.ts";

/** Completes a server's sampling request with a model (wired up where the models are). */
export type Sampler = (
  params: SamplingParams,
  context: { serverId: string; signal: AbortSignal; llmId?: string },
) => Promise<CreateMessageResult>;
