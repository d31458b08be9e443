/**
 * A tool server's `roots` (`[{uri, name?}]`, offered to the server when it asks) as rows of a URI
 * and an optional name with Add and Remove: the settings form's Roots field, and the rows the
 * inspector's roots editor draws too. What they store is worked out in `roots.ts`.
 */
import type { Signal } from "@preact/signals";
import { useSignal } from "@preact/signals";
import { useContext } from "preact/hooks";
import {
  type FieldErrors,
  FormErrors,
  type RecordDraft,
  setField,
  useFieldError,
  useUniqueId,
} from "./form.tsx";
import { asRootUri, cleanRoots, errorsByRow, type Root, rootsOf } from "./roots.ts";

/** The props of {@link RootRows}. */
export interface RootRowsProps {
  rows: Root[];
  onChange: (rows: Root[]) => void;
  /** Errors by path in the record (`roots.0.uri`), shown at their rows. */
  errors: FieldErrors;
}

/**
 * The rows: a URI and a name each (labelled "URI 1", "Name 1"), Remove per row and Add root. A
 * path typed as the URI shows as its `file://` URI when the field is left.
 */
export function RootRows({ rows, onChange, errors }: RootRowsProps) {
  const id = useUniqueId("roots");
  const byRow = errorsByRow(errors, rows);
  const edit = (i: number, change: Partial<Root>) =>
    onChange(rows.map((row, j) => j === i ? { ...row, ...change } : row));
  return (
    <>
      {rows.length === 0 ? <p class="hint">No roots.</p> : null}
      <ul class="roots-list">
        {rows.map((root, i) => {
          const error = byRow.get(i);
          return (
            <li key={i} class="root-row">
              <label for={`${id}-${i}-uri`} class="visually-hidden">URI {i + 1}</label>
              <input
                id={`${id}-${i}-uri`}
                class="mono"
                placeholder="file:///home/me/project"
                value={root.uri}
                spellcheck={false}
                autoComplete="off"
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-${i}-error` : undefined}
                onInput={(event) => edit(i, { uri: event.currentTarget.value })}
                onBlur={(event) => {
                  const uri = asRootUri(event.currentTarget.value);
                  if (uri !== root.uri) edit(i, { uri });
                }}
              />
              <label for={`${id}-${i}-name`} class="visually-hidden">Name {i + 1}</label>
              <input
                id={`${id}-${i}-name`}
                placeholder="Name (optional)"
                value={root.name ?? ""}
                autoComplete="off"
                onInput={(event) => edit(i, { name: event.currentTarget.value })}
              />
              <button
                type="button"
                aria-label={`Remove root ${root.uri || i + 1}`}
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
              >
                Remove
              </button>
              {error
                ? (
                  <p class="error field-error" id={`${id}-${i}-error`} role="alert">
                    {error}
                  </p>
                )
                : null}
            </li>
          );
        })}
      </ul>
      <button type="button" onClick={() => onChange([...rows, { uri: "" }])}>Add root</button>
    </>
  );
}

/** The Roots field of the tool-server form: the rows, stored cleaned in the draft (none: no field). */
export function RootsField({ draft }: { draft: Signal<RecordDraft> }) {
  const rows = useSignal(rootsOf(draft.peek()));
  const errors = useContext(FormErrors);
  const whole = useFieldError("roots", true);
  const invalid = Boolean(whole) || errorsByRow(errors, rows.value).size > 0;
  const edit = (next: Root[]) => {
    rows.value = next;
    setField(draft, "roots", cleanRoots(next));
  };
  return (
    <fieldset
      class={invalid ? "group roots-field invalid" : "group roots-field"}
      data-field="roots"
    >
      <legend>Roots</legend>
      <p class="hint">
        Folders and files the server may work in, offered when it asks (<code>roots/list</code>):
        {" "}
        <code>file://</code>{" "}
        URIs; an absolute path becomes one. A change reaches a connected server without a reconnect.
      </p>
      <RootRows rows={rows.value} onChange={edit} errors={errors} />
      {whole ? <p class="error field-error" role="alert">{whole}</p> : null}
    </fieldset>
  );
}
