/**
 * The settings fields that are a fieldset of choices: one of a few radio buttons, which field
 * holds a record's source, a setting that is default / off / custom, and a checklist of ids.
 */
import { type Signal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { FieldNotes } from "./fields.tsx";
import {
  NestedErrors,
  type RecordDraft,
  setField,
  useFieldError,
  useNestedDraft,
  useUniqueId,
} from "./form.tsx";

interface ChoiceFieldProps<T extends string> {
  /** The field path its errors are reported at. */
  name: string;
  legend: string;
  value: T;
  options: [T, string][];
  onChange: (value: T) => void;
  hint?: ComponentChildren;
}

/** One of a few choices, as radio buttons in a fieldset (arrow keys move between them). */
export function ChoiceField<T extends string>(props: ChoiceFieldProps<T>) {
  const group = useUniqueId("choice");
  const error = useFieldError(props.name, true);
  return (
    <fieldset class={error ? "choice invalid" : "choice"} data-field={props.name}>
      <legend>{props.legend}</legend>
      <div class="choice-options">
        {props.options.map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name={group}
              value={value}
              checked={props.value === value}
              onChange={() => props.onChange(value)}
            />{" "}
            {label}
          </label>
        ))}
      </div>
      <FieldNotes hint={props.hint} error={error} />
    </fieldset>
  );
}

interface SourceFieldProps<T extends string> {
  draft: Signal<RecordDraft>;
  /** `[field, label]` of each field that can hold the source, the default first. */
  options: [T, string][];
  /** Called after a choice, once the other fields are removed. */
  onChoose?: (source: T) => void;
  /** The chosen field. */
  children: (source: T) => ComponentChildren;
}

/**
 * Where a record's source is: one of several fields (a path, a URL, inline text), chosen with
 * radio buttons; choosing one removes the others from the draft.
 */
export function SourceField<T extends string>(props: SourceFieldProps<T>) {
  const { draft, options } = props;
  const source = useSignal<T>(
    options.find(([field]) => draft.peek()[field] !== undefined)?.[0] ?? options[0][0],
  );
  const choose = (next: T) => {
    source.value = next;
    for (const [field] of options) if (field !== next) setField(draft, field, undefined);
    props.onChoose?.(next);
  };
  return (
    <>
      <ChoiceField
        name="source"
        legend="Source"
        value={source.value}
        options={options}
        onChange={choose}
      />
      {props.children(source.value)}
    </>
  );
}

/** The three states of {@link SettingsChoiceField}'s field. */
export type SettingsMode = "default" | "off" | "custom";

interface SettingsChoiceFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  legend: string;
  /** The label of each state, in the order shown. */
  options: [SettingsMode, string][];
  /** The object's fields, shown when it is chosen; they edit `settings`. */
  children: (settings: Signal<RecordDraft>) => ComponentChildren;
}

/**
 * A field that is absent (the default), `false` (off) or an object of settings: a choice of the
 * three, and the object's fields below it while it is chosen. The object's values are kept while
 * another state is chosen, so choosing it again brings them back.
 */
export function SettingsChoiceField(props: SettingsChoiceFieldProps) {
  const { draft, name } = props;
  const settings = useNestedDraft(draft, name, { keepEmpty: true });
  const value = draft.value[name];
  const mode: SettingsMode = value === false
    ? "off"
    : value && typeof value === "object"
    ? "custom"
    : "default";
  const choose = (next: SettingsMode) => {
    const record = { ...draft.peek() };
    if (next === "default") delete record[name];
    else record[name] = next === "off" ? false : { ...settings.peek() };
    draft.value = record;
  };
  return (
    <>
      <ChoiceField
        name={name}
        legend={props.legend}
        value={mode}
        options={props.options}
        onChange={choose}
      />
      {mode === "custom"
        ? <NestedErrors prefix={name}>{props.children(settings)}</NestedErrors>
        : null}
    </>
  );
}

interface ChecklistFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  legend: string;
  /** `[id, label, note?]` of each record that can be checked. */
  options: [string, string, ComponentChildren?][];
  hint?: ComponentChildren;
  /** Keep `[]` when nothing is checked (instead of removing the field). */
  keepEmpty?: boolean;
  /** Shown when there is nothing to check. */
  empty?: ComponentChildren;
}

/** A list of record ids, as one checkbox per record; ids that name no record stay uncheckable. */
export function ChecklistField(props: ChecklistFieldProps) {
  const { draft, name } = props;
  const chosen = (draft.value[name] ?? []) as string[];
  const error = useFieldError(name);
  const known = new Set(props.options.map(([id]) => id));
  const options = [
    ...props.options,
    ...chosen.filter((id) => !known.has(id)).map((
      id,
    ): [string, string, ComponentChildren] => [id, id, "no such record"]),
  ];
  const toggle = (id: string, on: boolean) => {
    const next = on ? [...chosen, id] : chosen.filter((known) => known !== id);
    if (next.length === 0 && props.keepEmpty) draft.value = { ...draft.peek(), [name]: [] };
    else setField(draft, name, next);
  };
  return (
    <fieldset class={error ? "checklist invalid" : "checklist"} data-field={name}>
      <legend>{props.legend}</legend>
      {options.length === 0 ? <p class="hint">{props.empty ?? "Nothing to choose yet."}</p> : (
        <ul>
          {options.map(([id, label, note]) => (
            <li key={id}>
              <label>
                <input
                  type="checkbox"
                  checked={chosen.includes(id)}
                  onChange={(event) => toggle(id, event.currentTarget.checked)}
                />{" "}
                {label}
                {label !== id ? <code class="record-id">{id}</code> : null}
              </label>
              {note ? <span class="checklist-note">{note}</span> : null}
            </li>
          ))}
        </ul>
      )}
      <FieldNotes hint={props.hint} error={error} />
    </fieldset>
  );
}
