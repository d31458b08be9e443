/**
 * Fields the record sections need beside the kit's: a choice of radio buttons, a checklist of
 * ids, a box that is on by default, a color, and a nested object edited as a draft of its own.
 */
import { type Signal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useContext, useEffect, useMemo } from "preact/hooks";
import { type FieldErrors, FormErrors, type RecordDraft, setField } from "./kit.tsx";

let counter = 0;

/** A page-unique element id, stable for the component's life. */
export function useUniqueId(prefix: string): string {
  return useMemo(() => `${prefix}-${++counter}`, []);
}

/** The error at `name` and at paths under it, as one sentence; `exact` ignores nested paths. */
export function useErrorAt(name: string, exact = false): string | undefined {
  const errors = useContext(FormErrors);
  const found = [errors[name]];
  if (!exact) {
    for (const [key, message] of Object.entries(errors)) {
      if (key.startsWith(`${name}.`)) found.push(`${key.slice(name.length + 1)}: ${message}`);
    }
  }
  const all = found.filter(Boolean);
  return all.length > 0 ? all.join("; ") : undefined;
}

/** Gives the fields inside the errors under `prefix.`, without it (the fields of a nested object). */
export function NestedErrors(props: { prefix: string; children: ComponentChildren }) {
  const errors = useContext(FormErrors);
  const nested: FieldErrors = {};
  for (const [key, message] of Object.entries(errors)) {
    if (key.startsWith(`${props.prefix}.`)) nested[key.slice(props.prefix.length + 1)] = message;
  }
  return <FormErrors.Provider value={nested}>{props.children}</FormErrors.Provider>;
}

/**
 * The object in field `name` of a draft, as a draft of its own that the kit's fields can edit;
 * every change is written back. An empty object removes the field unless `keepEmpty`.
 */
export function useNestedDraft(
  draft: Signal<RecordDraft>,
  name: string,
  options: { keepEmpty?: boolean } = {},
): Signal<RecordDraft> {
  const start = draft.peek()[name];
  // A nested object has no id; the kit's fields only read and write the keys they are given.
  const child = useSignal(
    (start && typeof start === "object" ? { ...start } : {}) as RecordDraft,
  );
  useEffect(() =>
    child.subscribe((value) => {
      const next = { ...draft.peek() };
      if (Object.keys(value).length === 0 && !options.keepEmpty) delete next[name];
      else next[name] = value;
      draft.value = next as RecordDraft;
    }), []);
  return child;
}

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
  const error = useErrorAt(props.name, true);
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
      {props.hint ? <p class="hint">{props.hint}</p> : null}
      {error ? <p class="error field-error" role="alert">{error}</p> : null}
    </fieldset>
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
  const error = useErrorAt(name);
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
      {props.hint ? <p class="hint">{props.hint}</p> : null}
      {error ? <p class="error field-error" role="alert">{error}</p> : null}
    </fieldset>
  );
}

interface OnByDefaultFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  hint?: ComponentChildren;
}

/** A boolean that is `true` when absent: checking removes it, unchecking writes `false`. */
export function OnByDefaultField({ draft, name, label, hint }: OnByDefaultFieldProps) {
  const error = useErrorAt(name);
  return (
    <div class={error ? "field check invalid" : "field check"} data-field={name}>
      <label>
        <input
          type="checkbox"
          checked={draft.value[name] !== false}
          aria-invalid={Boolean(error)}
          onChange={(event) =>
            setField(draft, name, event.currentTarget.checked ? undefined : false)}
        />{" "}
        {label}
      </label>
      {hint ? <p class="hint">{hint}</p> : null}
      {error ? <p class="error field-error" role="alert">{error}</p> : null}
    </div>
  );
}

interface ColorFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  hint?: ComponentChildren;
}

/** A `#RRGGBB` color: a color picker and the same value as text (empty: not set). */
export function ColorField({ draft, name, label, hint }: ColorFieldProps) {
  const id = useUniqueId("color");
  const error = useErrorAt(name);
  const value = typeof draft.value[name] === "string" ? String(draft.value[name]) : "";
  const pickable = /^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : "#000000";
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean)
    .join(" ") || undefined;
  return (
    <div class={error ? "field color invalid" : "field color"} data-field={name}>
      <label for={id}>{label}</label>
      <div class="color-inputs">
        <input
          id={id}
          type="color"
          value={pickable}
          aria-describedby={described}
          onInput={(event) => setField(draft, name, event.currentTarget.value)}
        />
        <input
          type="text"
          aria-label={`${label} (hex)`}
          value={value}
          placeholder="not set"
          spellcheck={false}
          autoComplete="off"
          aria-invalid={Boolean(error)}
          aria-describedby={described}
          onInput={(event) => setField(draft, name, event.currentTarget.value.trim())}
        />
        {value !== ""
          ? (
            <button type="button" onClick={() => setField(draft, name, undefined)}>
              Clear
            </button>
          )
          : null}
      </div>
      {hint ? <p class="hint" id={`${id}-hint`}>{hint}</p> : null}
      {error ? <p class="error field-error" id={`${id}-error`} role="alert">{error}</p> : null}
    </div>
  );
}
