/** Requests from tool servers to Lass: sampling (a model completion) and elicitation (user input). */
import type { Sampler } from "./types.ts";
import type { ConfigStore } from "../../config/store.ts";
import type { McpServerConfig } from "../../../wire/config/schema.ts";
import type { InteractionRegistry } from "../../interactions.ts";
import type {
  CreateMessageResult,
  ElicitationParams,
  ElicitResult,
  SamplingParams,
} from "../session/types.ts";

/** The model name of a completion the user typed by hand. */
export const TYPED_REPLY_MODEL = "user";

/** A sampling result made of what the user typed in the interaction card. */
function typedReply(text: string): CreateMessageResult {
  return {
    role: "assistant",
    content: { type: "text", text },
    model: TYPED_REPLY_MODEL,
    stopReason: "endTurn",
  };
}

/** The chat run a server request belongs to (the run whose tool call was in flight), if any. */
export interface RequestOrigin {
  runId?: string;
  llmId?: string;
}

/** What the handlers need. */
export interface ServerRequestOptions {
  config: ConfigStore;
  interactions: InteractionRegistry;
  /** Completes sampling requests; without it they are refused with a clear error. */
  sampler?: Sampler;
  /**
   * How long a question waits for the person. The server's own request usually ends sooner; this
   * bounds the ones it forgets to cancel (the SDK cannot cancel a session's first request).
   */
  callTimeoutMs?: number;
}

/**
 * Answers sampling per the server's `sampling` setting (`deny` refuses, `ask` waits for the user
 * through an interaction, who lets the model answer or types the reply, `auto` goes straight to
 * the model) and turns elicitation into
 * interactions. A "remember" answer lasts for the process (`session`) or is written into the
 * config (`always`).
 */
export class ServerRequests {
  readonly #options: ServerRequestOptions;
  readonly #samplingApproved = new Set<string>();

  constructor(options: ServerRequestOptions) {
    this.#options = options;
  }

  /** Answers a sampling request of a server. */
  async sample(
    record: McpServerConfig,
    params: SamplingParams,
    signal: AbortSignal,
    origin: RequestOrigin = {},
  ): Promise<CreateMessageResult> {
    const id = record.id;
    const mode = record.sampling;
    if (mode === "deny") {
      throw new Error(`sampling is turned off for the tool server ${id} in Lass (sampling: deny)`);
    }
    if (mode === "ask" && !this.#samplingApproved.has(id)) {
      const { response } = this.#options.interactions.create({
        kind: "sampling",
        serverId: id,
        ...(origin.runId && { runId: origin.runId }),
        messages: params.messages,
        ...(params.systemPrompt !== undefined && { systemPrompt: params.systemPrompt }),
        maxTokens: params.maxTokens,
        ...(params.modelPreferences && {
          modelPreferences: params.modelPreferences as Record<string, unknown>,
        }),
      }, { signal, timeoutMs: this.#options.callTimeoutMs });
      const answer = await response;
      if (!answer.approved) throw new Error("the user declined the sampling request");
      if (answer.remember === "session") this.#samplingApproved.add(id);
      if (answer.remember === "always") await this.#rememberSampling(id);
      if (answer.text !== undefined) return typedReply(answer.text);
    }
    if (!this.#options.sampler) throw new Error("Lass has no model to answer sampling requests");
    return await this.#options.sampler(params, { serverId: id, signal, llmId: origin.llmId });
  }

  async #rememberSampling(id: string): Promise<void> {
    this.#samplingApproved.add(id);
    await this.#options.config.update((stored) => ({
      ...stored,
      mcpServers: (stored.mcpServers as Record<string, unknown>[]).map((server) =>
        server.id === id ? { ...server, sampling: "auto" } : server
      ),
    }));
  }

  /** Turns an elicitation request (form or url mode) into an interaction and returns the answer. */
  async elicit(
    serverId: string,
    params: ElicitationParams,
    signal: AbortSignal,
    origin: RequestOrigin = {},
  ): Promise<ElicitResult> {
    const run = origin.runId ? { runId: origin.runId } : {};
    const request = params.mode === "url"
      ? {
        kind: "elicitation" as const,
        serverId,
        ...run,
        message: params.message,
        mode: "url" as const,
        url: params.url,
      }
      : {
        kind: "elicitation" as const,
        serverId,
        ...run,
        message: params.message,
        mode: "form" as const,
        requestedSchema: params.requestedSchema as Record<string, unknown>,
      };
    const { response } = this.#options.interactions.create(request, {
      signal,
      timeoutMs: this.#options.callTimeoutMs,
    });
    const answer = await response;
    // A url-mode answer says only what the person did; nothing typed in Lass goes back.
    return params.mode === "url" ? { action: answer.action } : answer;
  }
}
