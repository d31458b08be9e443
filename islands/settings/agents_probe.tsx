/** A remote agent's test result: one sentence, and the agent card's facts, events and reply. */
import type { AgentProbe } from "../../wire/agents.ts";
import { formatDuration } from "../format.ts";
import { cardFacts } from "./agents_api.ts";
import { failedSentence, TestResult } from "./checks.tsx";

/** One sentence about a test: whom it reached, or why it failed. */
export function probeSentence(probe: AgentProbe): string {
  if (!probe.ok) return failedSentence(probe);
  const { name } = cardFacts(probe.card);
  return `${name ? `Reached ${name}` : "The agent answered"} in ${
    formatDuration(probe.latencyMs)
  }.`;
}

/** The full result of a test, for the editor. */
export function AgentTestResult({ probe }: { probe: AgentProbe }) {
  const card = cardFacts(probe.card);
  return (
    <TestResult ok={probe.ok} sentence={probeSentence(probe)}>
      {card.name
        ? (
          <dl class="preview-facts">
            <dt>Agent card</dt>
            <dd>
              <strong>{card.name}</strong>
              {card.description ? ` · ${card.description}` : ""}
            </dd>
            {card.skills.length > 0
              ? [<dt key="st">Skills</dt>, <dd key="sd">{card.skills.join(", ")}</dd>]
              : null}
          </dl>
        )
        : null}
      {probe.events && probe.events.length > 0
        ? <p class="hint">Events: {probe.events.join(" → ")}</p>
        : null}
      {probe.text ? <pre class="code test-reply">{probe.text}</pre> : null}
    </TestResult>
  );
}
