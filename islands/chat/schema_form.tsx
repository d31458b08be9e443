/**
 * A form generated from an elicitation's `requestedSchema`: a flat object of strings (with
 * formats and enums), numbers, integers, booleans and arrays of enum strings, which is what MCP
 * elicitation allows. Constraints become native input attributes, so the browser checks them.
 */
import type { ElicitationAnswer } from "../../wire/interactions.ts";

type Value = string | number | boolean | string[];

interface Option {
  value: string;
  label: string;
}

interface Field {
  name: string;
  label: string;
  description?: string;
  required: boolean;
  kind: "text" | "email" | "url" | "date" | "datetime" | "number" | "boolean" | "select" | "multi";
  integer?: boolean;
  options?: Option[];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  initial?: unknown;
}

type Schema = Record<string, unknown>;

const num = (value: unknown) => typeof value === "number" ? value : undefined;
const str = (value: unknown) => typeof value === "string" ? value : undefined;

function optionsOf(schema: Schema): Option[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, i) => ({
      value: String(value),
      label: String(names[i] ?? value),
    }));
  }
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (Array.isArray(choices) && choices.every((choice) => "const" in choice)) {
    return choices.map((choice) => ({
      value: String(choice.const),
      label: str(choice.title) ?? String(choice.const),
    }));
  }
  return undefined;
}

/** The fields of a requested schema, in the order of its properties. */
export function fieldsOf(schema: Schema): Field[] {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(properties).map(([name, property]) => {
    const base = {
      name,
      label: str(property.title) ?? name,
      description: str(property.description),
      required: required.has(name),
      initial: property.default,
    };
    const options = optionsOf(property);
    if (property.type === "array") {
      const items = (property.items ?? {}) as Schema;
      return { ...base, kind: "multi", options: optionsOf(items) ?? [] };
    }
    if (options) return { ...base, kind: "select", options };
    if (property.type === "boolean") return { ...base, kind: "boolean" };
    if (property.type === "number" || property.type === "integer") {
      return {
        ...base,
        kind: "number",
        integer: property.type === "integer",
        min: num(property.minimum),
        max: num(property.maximum),
      };
    }
    const format = str(property.format);
    const kind = format === "email"
      ? "email"
      : format === "uri"
      ? "url"
      : format === "date"
      ? "date"
      : format === "date-time"
      ? "datetime"
      : "text";
    return {
      ...base,
      kind,
      minLength: num(property.minLength),
      maxLength: num(property.maxLength),
    };
  });
}

/** The answer's content from the submitted form, typed by the schema. */
function contentOf(fields: Field[], form: FormData): ElicitationAnswer["content"] {
  const content: Record<string, Value> = {};
  for (const field of fields) {
    if (field.kind === "boolean") {
      content[field.name] = form.get(field.name) === "on";
    } else if (field.kind === "multi") {
      content[field.name] = form.getAll(field.name).map(String);
    } else {
      const raw = String(form.get(field.name) ?? "");
      if (raw === "") continue;
      if (field.kind === "number") content[field.name] = Number(raw);
      else if (field.kind === "datetime") content[field.name] = new Date(raw).toISOString();
      else content[field.name] = raw;
    }
  }
  return content;
}

function FieldInput({ field, id }: { field: Field; id: string }) {
  const describedBy = field.description ? `${id}-hint` : undefined;
  const common = {
    id,
    name: field.name,
    required: field.required,
    "aria-describedby": describedBy,
  };
  const initial = field.initial;
  switch (field.kind) {
    case "boolean":
      return (
        <input type="checkbox" {...common} required={false} defaultChecked={initial === true} />
      );
    case "select":
      return (
        <select {...common} defaultValue={initial === undefined ? "" : String(initial)}>
          {!field.required || initial === undefined ? <option value="">Choose…</option> : null}
          {field.options!.map((option) => (
            <option key={option.value} value={option.value}>{option.label}</option>
          ))}
        </select>
      );
    case "multi": {
      const chosen = new Set(Array.isArray(initial) ? initial.map(String) : []);
      return (
        <span class="choices" role="group" aria-labelledby={`${id}-label`}>
          {field.options!.map((option) => (
            <label key={option.value} class="choice">
              <input
                type="checkbox"
                name={field.name}
                value={option.value}
                defaultChecked={chosen.has(option.value)}
              />{" "}
              {option.label}
            </label>
          ))}
        </span>
      );
    }
    case "number":
      return (
        <input
          type="number"
          {...common}
          min={field.min}
          max={field.max}
          step={field.integer ? 1 : "any"}
          defaultValue={typeof initial === "number" ? String(initial) : ""}
        />
      );
    default: {
      const types = {
        text: "text",
        email: "email",
        url: "url",
        date: "date",
        datetime: "datetime-local",
      } as const;
      const type = types[field.kind as keyof typeof types] ?? "text";
      return (
        <input
          type={type as "text"}
          {...common}
          minLength={field.minLength}
          maxLength={field.maxLength}
          defaultValue={typeof initial === "string" ? initial : ""}
        />
      );
    }
  }
}

/** The props of {@link SchemaForm}. */
export interface SchemaFormProps {
  schema: Schema;
  /** Prefix of the element ids, unique on the page. */
  idPrefix: string;
  busy: boolean;
  onAnswer: (answer: ElicitationAnswer) => void;
}

/** The form, with Submit (accept), Decline and Cancel. */
export function SchemaForm({ schema, idPrefix, busy, onAnswer }: SchemaFormProps) {
  const fields = fieldsOf(schema);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    onAnswer({ action: "accept", content: contentOf(fields, new FormData(form)) });
  };
  return (
    <form class="schema-form" onSubmit={submit}>
      {fields.map((field) => {
        const id = `${idPrefix}-${field.name}`;
        return (
          <div key={field.name} class={`field field-${field.kind}`}>
            <label id={`${id}-label`} for={field.kind === "multi" ? undefined : id}>
              {field.label}
              {field.required ? <span class="required" aria-hidden="true">*</span> : null}
            </label>
            <FieldInput field={field} id={id} />
            {field.description ? <small id={`${id}-hint`}>{field.description}</small> : null}
          </div>
        );
      })}
      <div class="actions">
        <button type="submit" class="primary" disabled={busy}>Submit</button>
        <button type="button" disabled={busy} onClick={() => onAnswer({ action: "decline" })}>
          Decline
        </button>
        <button type="button" disabled={busy} onClick={() => onAnswer({ action: "cancel" })}>
          Cancel
        </button>
      </div>
    </form>
  );
}
