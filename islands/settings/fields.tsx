/**
 * The form fields of the settings editors: one labelled control each (text, choice, checkbox,
 * lines, JSON, color). Each edits one key of a draft record and shows the error at that key, read
 * from the form's {@link FormErrors}; the fieldset choices are in `choices.tsx`.
 */
import { type Signal, useSignal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useContext } from "preact/hooks";
import { FormErrors, type RecordDraft, setField, useFieldError, useUniqueId } from "./form.tsx";
import { WHOLE_ENV_REF } from "../../wire/config/env_refs.ts";

/** A field's hint and its error, below its control; `id` gives them ids to be described by. */
export function FieldNotes(props: { id?: string; hint?: ComponentChildren; error?: string }) {
  const { id, hint, error } = props;
  return (
    <>
      {hint ? <p class="hint" id={id && `${id}-hint`}>{hint}</p> : null}
      {error
        ? <p class="error field-error" id={id && `${id}-error`} role="alert">{error}</p>
        : null}
    </>
  );
}

interface FieldFrameProps {
  name: string;
  label: string;
  hint?: ComponentChildren;
  /** A class beside `field`, e.g. `color`. */
  kind?: string;
  children: (id: string, describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}

/** A labelled field with its hint and its error (`aria-invalid`, `aria-describedby`). */
export function FieldFrame({ name, label, hint, kind, children }: FieldFrameProps) {
  const id = useUniqueId("field");
  const error = useFieldError(name);
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean)
    .join(" ") || undefined;
  const classes = ["field", kind, error ? "invalid" : ""].filter(Boolean).join(" ");
  return (
    <div class={classes} data-field={name}>
      <label for={id}>{label}</label>
      {children(id, described, Boolean(error))}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

/** What every field of a draft takes. */
interface DraftFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  hint?: ComponentChildren;
}

interface TextFieldProps extends DraftFieldProps {
  placeholder?: string;
  multiline?: boolean;
  type?: "text" | "url" | "password" | "number";
  required?: boolean;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
}

/**
 * Whether a value is only a reference to an environment variable (`env:NAME`, `${NAME}`): no
 * secret, so a password field shows it.
 */
function isReference(value: string): boolean {
  return WHOLE_ENV_REF.test(value) || /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/.test(value);
}

/** A string (or number, with `type: "number"`) field of a draft. */
export function TextField(props: TextFieldProps) {
  const { draft, name, type = "text" } = props;
  const value = draft.value[name];
  const shown = value === undefined ? "" : String(value);
  const onInput = (text: string) => {
    if (type !== "number") return setField(draft, name, text);
    setField(draft, name, text.trim() === "" ? undefined : Number(text));
  };
  return (
    <FieldFrame name={name} label={props.label} hint={props.hint}>
      {(id, describedBy, invalid) =>
        props.multiline
          ? (
            <textarea
              id={id}
              rows={4}
              value={shown}
              placeholder={props.placeholder}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(event) => onInput(event.currentTarget.value)}
            />
          )
          : (
            <input
              id={id}
              type={(type === "number" || (type === "password" && isReference(shown))
                ? "text"
                : type) as "text"}
              inputMode={type === "number" ? "decimal" : undefined}
              value={shown}
              placeholder={props.placeholder}
              required={props.required}
              list={props.list}
              autoComplete={type === "password" ? "new-password" : "off"}
              spellcheck={false}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onInput={(event) => onInput(event.currentTarget.value)}
            />
          )}
    </FieldFrame>
  );
}

interface SelectFieldProps extends DraftFieldProps {
  /** `[value, label]` pairs; a value `""` removes the field. */
  options: [string, string][];
  onChange?: (value: string) => void;
  /** The option that shows a stored value, for values that mean the same as another (the default). */
  shown?: (value: string) => string;
}

/** A choice field of a draft. */
export function SelectField(props: SelectFieldProps) {
  const { draft, name, label, options, hint, onChange, shown = (value) => value } = props;
  const value = shown(String(draft.value[name] ?? ""));
  return (
    <FieldFrame name={name} label={label} hint={hint}>
      {(id, describedBy, invalid) => (
        <select
          id={id}
          value={value}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            if (onChange) onChange(chosen);
            else setField(draft, name, chosen);
          }}
        >
          {options.map(([optionValue, optionLabel]) => (
            <option key={optionValue} value={optionValue}>{optionLabel}</option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

interface CheckFieldProps extends DraftFieldProps {
  /** The field means `true` when absent: checking removes it, unchecking writes `false`. */
  defaultOn?: boolean;
}

/** A boolean field of a draft: checked writes `true`, unchecked removes it (see `defaultOn`). */
export function CheckField({ draft, name, label, hint, defaultOn }: CheckFieldProps) {
  const error = useFieldError(name);
  const value = draft.value[name];
  return (
    <div class={error ? "field check invalid" : "field check"} data-field={name}>
      <label>
        <input
          type="checkbox"
          checked={defaultOn ? value !== false : value === true}
          aria-invalid={Boolean(error)}
          onChange={(event) => {
            const on = event.currentTarget.checked;
            setField(draft, name, defaultOn ? (on ? undefined : false) : (on ? true : undefined));
          }}
        />{" "}
        {label}
      </label>
      <FieldNotes hint={hint} error={error} />
    </div>
  );
}

interface LinesFieldProps extends DraftFieldProps {
  /** `map`: `KEY=value` per line into an object; `list`: one string per line. */
  shape: "list" | "map";
}

function linesOf(value: unknown, shape: "list" | "map"): string {
  if (shape === "list") return Array.isArray(value) ? value.join("\n") : "";
  if (!value || typeof value !== "object") return "";
  return Object.entries(value).map(([key, item]) => `${key}=${item}`).join("\n");
}

/** A list of strings (one per line) or a string map (`KEY=value` per line) of a draft. */
export function LinesField({ draft, name, label, hint, shape }: LinesFieldProps) {
  const text = useSignal(linesOf(draft.peek()[name], shape));
  const update = (next: string) => {
    text.value = next;
    const lines = next.split("\n").map((line) => line.trim()).filter((line) => line !== "");
    if (shape === "list") return setField(draft, name, lines);
    const map: Record<string, string> = {};
    for (const line of lines) {
      const at = line.indexOf("=");
      if (at > 0) map[line.slice(0, at).trim()] = line.slice(at + 1).trim();
      else map[line] = "";
    }
    setField(draft, name, map);
  };
  return (
    <FieldFrame name={name} label={label} hint={hint}>
      {(id, describedBy, invalid) => (
        <textarea
          id={id}
          class="mono"
          rows={Math.min(8, Math.max(2, text.value.split("\n").length + 1))}
          value={text.value}
          spellcheck={false}
          placeholder={shape === "map" ? "NAME=value" : "one per line"}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onInput={(event) => update(event.currentTarget.value)}
        />
      )}
    </FieldFrame>
  );
}

/** Any JSON value of a draft, edited as text; text that does not parse is shown as an error. */
export function JsonField(props: DraftFieldProps & { rows?: number }) {
  const { draft, name, rows = 6 } = props;
  const initial = draft.peek()[name];
  const text = useSignal(initial === undefined ? "" : JSON.stringify(initial, null, 2));
  const parseError = useSignal<string | null>(null);
  const update = (next: string) => {
    text.value = next;
    if (next.trim() === "") {
      parseError.value = null;
      return setField(draft, name, undefined);
    }
    try {
      setField(draft, name, JSON.parse(next));
      parseError.value = null;
    } catch (error) {
      parseError.value = `not valid JSON: ${(error as Error).message}`;
    }
  };
  const errors = useContext(FormErrors);
  const merged = parseError.value ? { ...errors, [name]: parseError.value } : errors;
  return (
    <FormErrors.Provider value={merged}>
      <FieldFrame name={name} label={props.label} hint={props.hint}>
        {(id, describedBy, invalid) => (
          <textarea
            id={id}
            class="mono"
            rows={rows}
            value={text.value}
            spellcheck={false}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onInput={(event) => update(event.currentTarget.value)}
          />
        )}
      </FieldFrame>
    </FormErrors.Provider>
  );
}

/** A `#RRGGBB` color: a color picker and the same value as text (empty: not set). */
export function ColorField({ draft, name, label, hint }: DraftFieldProps) {
  const value = typeof draft.value[name] === "string" ? String(draft.value[name]) : "";
  const pickable = /^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : "#000000";
  return (
    <FieldFrame name={name} label={label} hint={hint} kind="color">
      {(id, describedBy, invalid) => (
        <div class="color-inputs">
          <input
            id={id}
            type="color"
            value={pickable}
            aria-describedby={describedBy}
            onInput={(event) => setField(draft, name, event.currentTarget.value)}
          />
          <input
            type="text"
            aria-label={`${label} (hex)`}
            value={value}
            placeholder="not set"
            spellcheck={false}
            autoComplete="off"
            aria-invalid={invalid}
            aria-describedby={describedBy}
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
      )}
    </FieldFrame>
  );
}
