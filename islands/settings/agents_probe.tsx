/** Testing a remote agent: the button's state, and the result as a card's facts or a sentence. */
import { type Signal, useSignal } from "@preact/signals";
import { ApiError } from "../api.ts";
import { formatDuration } from "../format.ts";
import { describeError } from "../state.ts";
import { errorsAt, type FieldErrors, type RecordDraft } from "./kit.tsx";
import { type AgentProbe, cardFacts, testAgent } from "./agents_api.ts";

const ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** A draft as the test route takes it: an id and a name are required there, so give stand-ins. */
function testable(draft: RecordDraft): Record<string, unknown> {
  const id = ID.test(draft.id) ? draft.id : "draft";
  const name = typeof draft.name === "string" && draft.name.trim() !== "" ? draft.name : id;
  return { ...draft, id, name };
}

/** The state of one Test button. */
export interface AgentTest {
  busy: Signal<boolean>;
  probe: Signal<AgentProbe | null>;
  /** A request the route refused (a record of the wrong shape), as a sentence. */
  failure: Signal<string | null>;
  /** The same refusal by field. */
  errors: Signal<FieldErrors>;
  run(record: RecordDraft): Promise<void>;
}

/** A Test button's state and action. */
export function useAgentTest(): AgentTest {
  const busy = useSignal(false);
  const probe = useSignal<AgentProbe | null>(null);
  const failure = useSignal<string | null>(null);
  const errors = useSignal<FieldErrors>({});
  return {
    busy,
    probe,
    failure,
    errors,
    async run(record) {
      busy.value = true;
      try {
        probe.value = await testAgent(testable(record));
        failure.value = null;
        errors.value = {};
      } catch (error) {
        probe.value = null;
        failure.value = describeError(error);
        errors.value = error instanceof ApiError ? errorsAt(error.details, "agent") : {};
      } finally {
        busy.value = false;
      }
    },
  };
}

/** One sentence about a test: whom it reached, or why it failed. */
export function probeSentence(probe: AgentProbe): string {
  const took = formatDuration(probe.latencyMs);
  if (!probe.ok) return `Failed after ${took}: ${probe.error ?? "no reason given"}`;
  const { name } = cardFacts(probe.card);
  return `${name ? `Reached ${name}` : "The agent answered"} in ${took}.`;
}

/** The full result of a test, for the editor. */
export function AgentTestResult({ test }: { test: AgentTest }) {
  if (test.failure.value) return <p class="error" role="alert">{test.failure.value}</p>;
  const probe = test.probe.value;
  if (!probe) return null;
  const card = cardFacts(probe.card);
  return (
    <section
      class={probe.ok ? "test-result ok" : "test-result failed"}
      aria-label="Test result"
    >
      <p class={probe.ok ? "status-ok" : "error"} role={probe.ok ? "status" : "alert"}>
        {probeSentence(probe)}
      </p>
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
    </section>
  );
}
