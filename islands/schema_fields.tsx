/**
 * Form fields generated from a JSON Schema. {@link SchemaFields} edits the value of an object
 * schema as plain JSON: nested objects, lists, enums (a select, or checkboxes for a list of enum
 * values), numbers and integers, booleans, strings with formats, defaults and required fields;
 * what has no widget (a union, an untyped value) gets a JSON box. Constraints become native
 * input attributes, so the browser checks them on submit. The chat's elicitation form and the
 * inspector's tool form both draw with it.
 */
import { useSignal } from "@preact/signals";
import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { kindOf, newItem, normalize, optionsOf, type Schema } from "./json_schema.ts";

const num = (value: unknown) => typeof value === "number" ? value : undefined;
const str = (value: unknown) => typeof value === "string" ? value : undefined;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A change of a value: the new value computed from the current one. */
export type Update = (update: (current: unknown) => unknown) => void;

/** Errors by dotted field path (`a`, `address.city`, `tags.0`), shown at their fields. */
export const FieldErrors = createContext<Record<string, string>>({});

/** An ISO date-time as the value of a `datetime-local` input (local time). */
function localInput(iso: unknown): string {
  const date = typeof iso === "string" ? new Date(iso) : undefined;
  if (!date || Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

/** Where a field sits: its schema (normalized), path, element id, and whether it is required. */
interface FieldProps {
  schema: Schema;
  root: Schema;
  name: string;
  path: string;
  id: string;
  required: boolean;
  value: unknown;
  onChange: Update;
  label?: string;
}

function NumberInput({ field, common }: { field: FieldProps; common: Record<string, unknown> }) {
  // Kept as typed, so "1." or "-" is not rewritten while the user is still typing.
  const text = useSignal(typeof field.value === "number" ? String(field.value) : "");
  const typed = text.value.trim() === "" ? undefined : Number(text.value);
  const shown = typed === field.value
    ? text.value
    : typeof field.value === "number"
    ? String(field.value)
    : "";
  return (
    <input
      type="number"
      {...common}
      value={shown}
      min={num(field.schema.minimum)}
      max={num(field.schema.maximum)}
      step={field.schema.type === "integer" ? 1 : "any"}
      onInput={(event) => {
        const raw = event.currentTarget.value;
        text.value = raw;
        field.onChange(() => raw === "" ? undefined : Number(raw));
      }}
    />
  );
}

function JsonInput({ field, common }: { field: FieldProps; common: Record<string, unknown> }) {
  const text = useSignal(field.value === undefined ? "" : JSON.stringify(field.value, null, 2));
  const error = useSignal<string | null>(null);
  return (
    <>
      <textarea
        {...common}
        class="mono"
        rows={3}
        value={text.value}
        aria-invalid={error.value ? true : undefined}
        onInput={(event) => {
          const input = event.currentTarget;
          text.value = input.value;
          try {
            const parsed = input.value.trim() === "" ? undefined : JSON.parse(input.value);
            error.value = null;
            field.onChange(() => parsed);
          } catch (failure) {
            error.value = `Not valid JSON: ${(failure as Error).message}`;
          }
          input.setCustomValidity(error.value ?? "");
        }}
      />
      {error.value ? <span class="field-error">{error.value}</span> : null}
    </>
  );
}

function Input({ field }: { field: FieldProps }) {
  const { schema, value, onChange, id } = field;
  const hint = str(schema.description) ? `${id}-hint` : undefined;
  const common = { id, name: field.path, required: field.required, "aria-describedby": hint };
  const kind = kindOf(schema, field.root);
  switch (kind) {
    case "boolean":
      return (
        <input
          type="checkbox"
          {...common}
          required={false}
          checked={value === true}
          onChange={(event) => onChange(() => event.currentTarget.checked)}
        />
      );
    case "select": {
      const options = optionsOf(schema)!;
      const index = options.findIndex((option) => option.value === value);
      return (
        <select
          {...common}
          value={index < 0 ? "" : String(index)}
          onChange={(event) => {
            const chosen = event.currentTarget.value;
            onChange(() => chosen === "" ? undefined : options[Number(chosen)].value);
          }}
        >
          {!field.required || index < 0 ? <option value="">Choose…</option> : null}
          {options.map((option, i) => <option key={i} value={String(i)}>{option.label}</option>)}
        </select>
      );
    }
    case "number":
      return <NumberInput field={field} common={common} />;
    case "json":
      return <JsonInput field={field} common={common} />;
    default: {
      const types = { email: "email", url: "url", date: "date", datetime: "datetime-local" };
      const datetime = kind === "datetime";
      return (
        <input
          type={(types[kind as keyof typeof types] ?? "text") as "text"}
          {...common}
          minLength={num(schema.minLength)}
          maxLength={num(schema.maxLength)}
          pattern={str(schema.pattern)}
          value={datetime ? localInput(value) : typeof value === "string" ? value : ""}
          onInput={(event) => {
            const raw = event.currentTarget.value;
            // In a list an empty text is an item; elsewhere it leaves the field out.
            const empty = field.path.match(/\.\d+$/) ? "" : undefined;
            onChange(() => raw === "" ? empty : datetime ? new Date(raw).toISOString() : raw);
          }}
        />
      );
    }
  }
}

function Choices({ field }: { field: FieldProps }) {
  const options = optionsOf(normalize((field.schema.items ?? {}) as Schema, field.root))!;
  const chosen = Array.isArray(field.value) ? field.value : [];
  return (
    <span class="choices" role="group" aria-labelledby={`${field.id}-label`}>
      {options.map((option, i) => (
        <label key={i} class="choice">
          <input
            type="checkbox"
            name={field.path}
            value={String(i)}
            checked={chosen.includes(option.value)}
            onChange={(event) => {
              const on = event.currentTarget.checked;
              field.onChange((current) => {
                const list = Array.isArray(current) ? current : [];
                // Kept in the order of the options.
                return options.map((o) => o.value).filter((v) =>
                  v === option.value ? on : list.includes(v)
                );
              });
            }}
          />{" "}
          {option.label}
        </label>
      ))}
    </span>
  );
}

function ListItems({ field }: { field: FieldProps }) {
  const items = normalize((field.schema.items ?? {}) as Schema, field.root);
  const list = Array.isArray(field.value) ? field.value : [];
  const max = num(field.schema.maxItems);
  const label = field.label ?? str(field.schema.title) ?? field.name;
  return (
    <>
      <ol class="list-items">
        {list.map((item, index) => (
          <li key={index}>
            <SchemaField
              schema={items}
              root={field.root}
              name={`${label} ${index + 1}`}
              path={`${field.path}.${index}`}
              id={`${field.id}-${index}`}
              required
              value={item}
              onChange={(update) =>
                field.onChange((current) => {
                  const next = Array.isArray(current) ? [...current] : [];
                  next[index] = update(next[index]);
                  return next;
                })}
            />
            <button
              type="button"
              class="icon"
              aria-label={`Remove ${label} ${index + 1}`}
              onClick={() =>
                field.onChange((current) =>
                  (Array.isArray(current) ? current : []).filter((_, i) => i !== index)
                )}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        disabled={max !== undefined && list.length >= max}
        onClick={() =>
          field.onChange((current) => [
            ...(Array.isArray(current) ? current : []),
            newItem(items, field.root),
          ])}
      >
        Add {label}
      </button>
    </>
  );
}

function SchemaField(field: FieldProps) {
  const { schema, id, path } = field;
  const kind = kindOf(schema, field.root);
  const label = field.label ?? str(schema.title) ?? field.name;
  const description = str(schema.description);
  const error = useContext(FieldErrors)[path];
  const mark = field.required ? <span class="required" aria-hidden="true">*</span> : null;
  const notes = (
    <>
      {description ? <small id={`${id}-hint`}>{description}</small> : null}
      {error ? <span class="field-error" role="alert">{error}</span> : null}
    </>
  );
  if (kind === "object" || kind === "array") {
    return (
      <fieldset
        class={`field field-${kind}`}
        aria-describedby={description ? `${id}-hint` : undefined}
      >
        <legend id={`${id}-label`}>{label}{mark}</legend>
        {notes}
        {kind === "object"
          ? <ObjectFields {...field} idPrefix={id} keepEmpty={field.required} />
          : <ListItems field={field} />}
      </fieldset>
    );
  }
  return (
    <div class={`field field-${kind}${error ? " invalid" : ""}`}>
      <label id={`${id}-label`} for={kind === "multi" ? undefined : id}>{label}{mark}</label>
      {kind === "multi" ? <Choices field={field} /> : <Input field={field} />}
      {notes}
    </div>
  );
}

interface ObjectProps {
  schema: Schema;
  root: Schema;
  path: string;
  idPrefix: string;
  value: unknown;
  onChange: Update;
  /** Keep `{}` when every field is cleared (else the object is left out). */
  keepEmpty: boolean;
}

function ObjectFields({ schema, root, path, idPrefix, value, onChange, keepEmpty }: ObjectProps) {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const object = isRecord(value) ? value : {};
  return (
    <>
      {Object.entries(properties).map(([name, property]) => (
        <SchemaField
          key={name}
          schema={normalize(property, root)}
          root={root}
          name={name}
          path={path === "" ? name : `${path}.${name}`}
          id={`${idPrefix}-${name.replace(/[^\w-]/g, "_")}`}
          required={required.has(name)}
          value={object[name]}
          onChange={(update) =>
            onChange((current) => {
              const next = { ...(isRecord(current) ? current : {}) };
              const changed = update(next[name]);
              if (changed === undefined) delete next[name];
              else next[name] = changed;
              return Object.keys(next).length === 0 && !keepEmpty ? undefined : next;
            })}
        />
      ))}
    </>
  );
}

/** The props of {@link SchemaFields}. */
export interface SchemaFieldsProps {
  /** An object schema; its properties become the fields. */
  schema: Schema;
  /** Prefix of the element ids, unique on the page. */
  idPrefix: string;
  /** The object edited (fields that are absent are left out). */
  value: Record<string, unknown>;
  onChange: (value: Record<string, unknown>) => void;
}

/** The fields of an object schema, editing `value`. */
export function SchemaFields({ schema, idPrefix, value, onChange }: SchemaFieldsProps) {
  let latest = value;
  return (
    <ObjectFields
      schema={normalize(schema)}
      root={schema}
      path=""
      idPrefix={idPrefix}
      value={value}
      keepEmpty
      onChange={(update) => {
        // Several changes before the next render build on each other.
        latest = (update(latest) ?? {}) as Record<string, unknown>;
        onChange(latest);
      }}
    />
  );
}
