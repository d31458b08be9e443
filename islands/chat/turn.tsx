/** One turn of a chat: the user's message and the answer (or a compare turn's columns). */
import { AnswerView } from "./answer.tsx";
import { CompareColumns } from "./compare_view.tsx";
import type { Turn } from "./model.ts";
import type { Interaction } from "../../wire/interactions.ts";

/** A UI action's message for the model: the second line of an A2UI action turn. */
const ACTION_JSON = /^\{"version":"v0\.\d+","action":/;

/** What the user sent; a UI action shows its sentence, with the message for the model folded. */
function UserText({ text }: { text: string }) {
  const newline = text.indexOf("\n");
  const rest = newline < 0 ? "" : text.slice(newline + 1);
  if (!ACTION_JSON.test(rest)) return <p>{text}</p>;
  return (
    <>
      <p>{text.slice(0, newline)}</p>
      <details class="action-message">
        <summary>Sent to the model</summary>
        <pre class="json">{rest}</pre>
      </details>
    </>
  );
}

/** The props of {@link TurnView}. */
export interface TurnViewProps {
  turn: Turn;
  /** Every pending interaction; this turn shows those of its run. */
  pending: Interaction[];
}

/** One turn. */
export function TurnView({ turn, pending }: TurnViewProps) {
  const status = turn.status.value;
  return (
    <article
      class={`turn turn-${status}${turn.compare ? " turn-compare" : ""}`}
      data-run-id={turn.runId.value}
    >
      {turn.user
        ? (
          <div class="msg msg-user">
            <h2 class="visually-hidden">You</h2>
            <UserText text={turn.user} />
          </div>
        )
        : null}
      {turn.compare
        ? <CompareColumns turn={turn} pending={pending} />
        : <AnswerView turn={turn} pending={pending} />}
    </article>
  );
}
