/** Typed call of `POST /api/agents/test`. */
import { api } from "../state.ts";

/** The answer of `POST /api/agents/test` (see docs/agents.md). */
export interface AgentProbe {
  ok: boolean;
  latencyMs: number;
  /** A2A: the agent card as fetched. */
  card?: unknown;
  /** AG-UI: the event types seen, in order. */
  events?: string[];
  /** The agent's reply. */
  text?: string;
  /** Why it failed, one sentence. */
  error?: string;
}

/** Reaches an `agents[]` record (not saved) and sends it a short message. */
export function testAgent(agent: Record<string, unknown>): Promise<AgentProbe> {
  return api().json<AgentProbe>("POST", "/api/agents/test", { agent });
}

/** What a person wants to know of an A2A card: its name, description and skills. */
export function cardFacts(
  card: unknown,
): { name?: string; description?: string; skills: string[] } {
  if (!card || typeof card !== "object") return { skills: [] };
  const { name, description, skills } = card as Record<string, unknown>;
  return {
    name: typeof name === "string" ? name : undefined,
    description: typeof description === "string" ? description : undefined,
    skills: Array.isArray(skills)
      ? skills.map((skill) =>
        skill && typeof skill === "object"
          ? String(
            (skill as Record<string, unknown>).name ?? (skill as Record<string, unknown>).id ?? "",
          )
          : ""
      ).filter((skill) => skill !== "")
      : [],
  };
}
