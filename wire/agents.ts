/** `POST /api/agents/test`: the answer type, shared by the server and the settings page. */

/** The answer of `POST /api/agents/test`. */
export interface AgentProbe {
  ok: boolean;
  latencyMs: number;
  /** A2A: the agent card. */
  card?: unknown;
  /** AG-UI: the event types seen, in order. */
  events?: string[];
  /** The reply text. */
  text?: string;
  error?: string;
}
