/**
 * An elicitation's form, generated from its `requestedSchema` (a flat object of strings with
 * formats and enums, numbers, integers, booleans and multi-selects, as MCP elicitation allows)
 * by the shared schema fields, with Submit (accept), Decline and Dismiss (MCP's `cancel`: no
 * answer; named apart from the tool card's "Cancel call", which stops the call itself).
 */
import { useSignal } from "@preact/signals";
import { initialValue, kindOf, normalize, type Schema } from "../json_schema.ts";
import { SchemaFields } from "../schema_fields.tsx";
import type { ElicitationAnswer } from "../../wire/interactions.ts";

/**
 * The answer's content in the order of the schema's properties: a checkbox left unticked is
 * `false` and an empty multi-select `[]`, as the person saw them.
 */
function contentOf(schema: Schema, value: Record<string, unknown>): ElicitationAnswer["content"] {
  const content: NonNullable<ElicitationAnswer["content"]> = {};
  for (const [name, property] of Object.entries((schema.properties ?? {}) as Schema)) {
    const kind = kindOf(normalize(property as Schema, schema), schema);
    const field = value[name] ?? (kind === "boolean" ? false : kind === "multi" ? [] : undefined);
    if (field !== undefined) content[name] = field as string;
  }
  return content;
}

/** What Decline does: the elicitation's `decline`. */
export const DECLINE_TITLE = "Say no to this request: the server is told you declined";

/** What Dismiss does: the elicitation's `cancel`; the tool call itself goes on. */
export const DISMISS_TITLE =
  "Close this request without an answer: the server is told it was dismissed (the tool call goes on)";

/** The props of {@link SchemaForm}. */
export interface SchemaFormProps {
  schema: Schema;
  /** Prefix of the element ids, unique on the page. */
  idPrefix: string;
  busy: boolean;
  onAnswer: (answer: ElicitationAnswer) => void;
}

/** An elicitation's form, with Submit (accept), Decline and Dismiss (cancel). */
export function SchemaForm({ schema, idPrefix, busy, onAnswer }: SchemaFormProps) {
  const value = useSignal((initialValue(schema) ?? {}) as Record<string, unknown>);
  const submit = (event: Event) => {
    event.preventDefault();
    onAnswer({ action: "accept", content: contentOf(schema, value.peek()) });
  };
  return (
    <form class="schema-form" onSubmit={submit}>
      <SchemaFields
        schema={schema}
        idPrefix={idPrefix}
        value={value.value}
        onChange={(next) => value.value = next}
      />
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>Submit</button>
        <button
          type="button"
          disabled={busy}
          title={DECLINE_TITLE}
          onClick={() => onAnswer({ action: "decline" })}
        >
          Decline
        </button>
        <button
          type="button"
          disabled={busy}
          title={DISMISS_TITLE}
          onClick={() => onAnswer({ action: "cancel" })}
        >
          Dismiss
        </button>
      </div>
    </form>
  );
}
