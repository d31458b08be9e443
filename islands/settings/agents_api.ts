/** Typed call of `POST /api/agents/test`, and what a person wants to know of an A2A card. */
import type { AgentProbe } from "../../wire/agents.ts";
import { api } from "../state.ts";
import { type RecordDraft, withStandIns } from "./form.tsx";

/** Reaches an `agents[]` record (saved or a draft) and sends it a short message. */
export function testAgent(agent: RecordDraft): Promise<AgentProbe> {
  return api().json<AgentProbe>("POST", "/api/agents/test", { agent: withStandIns(agent) });
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
