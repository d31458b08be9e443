/**
 * `POST /api/llm/test` and `POST /api/llm/models`: the answers about one LLM profile, shared by the
 * server and the settings page.
 */

/** The answer of `POST /api/llm/test`: one small generation with the profile. */
export interface ProfileProbe {
  ok: boolean;
  latencyMs: number;
  text?: string;
  error?: string;
}

/** One model of a provider's list. */
export interface ModelInfo {
  id: string;
  name?: string;
  /** ISO 8601, when the vendor says. */
  created?: string;
  ownedBy?: string;
  /** Bytes on disk (Ollama). */
  size?: number;
}

/** The answer of `POST /api/llm/models`; `error` when the vendor could not be asked. */
export interface ModelList {
  models: ModelInfo[];
  error?: string;
}
