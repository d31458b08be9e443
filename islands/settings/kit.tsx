/**
 * What every settings section shares: saving one record through `PUT /api/config` (the whole
 * config, so the server validates references too), the 400 details mapped onto the record's
 * fields, form fields that show their error, and the list / add / edit / delete layout.
 */
import { type Signal, signal, useSignal } from "@preact/signals";
import { type ComponentChildren, type ComponentType, createContext } from "preact";
import { useContext, useMemo } from "preact/hooks";
import { ApiError } from "../api.ts";
import { onLink } from "../sidebar.tsx";
import { api, bootstrap, describeError, loadBootstrap, navigate } from "../state.ts";
import type { ErrorDetail } from "../../wire/errors.ts";

/** The record arrays of the config, by their key in `service.json`. */
export type Section = "llms" | "mcpServers" | "skills" | "agents" | "catalogs" | "workspaces";

/** A config record as edited: plain JSON with an `id`. */
export type RecordDraft = { id: string } & Record<string, unknown>;

/** Errors by field path inside the record (`apiKey`, `headers.x-key`); `""` for the whole form. */
export type FieldErrors = Record<string, string>;

/** The config as stored (defaults not filled in). */
export function storedConfig(): Record<string, unknown> {
  return (bootstrap.peek()?.config ?? {}) as Record<string, unknown>;
}

/** The records of a section as stored. */
export function recordsOf(section: Section): RecordDraft[] {
  return (bootstrap.value?.config[section] ?? []) as RecordDraft[];
}

/**
 * The 400 details of a config write, as errors of the record at `llms.<index>`: details under
 * that path by their rest, every other detail (a reference elsewhere) under `""`.
 */
export function errorsForRecord(details: ErrorDetail[], prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of details) {
    const key = path === prefix
      ? ""
      : path.startsWith(`${prefix}.`)
      ? path.slice(prefix.length + 1)
      : "";
    const text = key === "" && path !== prefix && path !== "" ? `${path}: ${message}` : message;
    errors[key] = errors[key] ? `${errors[key]}; ${text}` : text;
  }
  return errors;
}

/** Writes a whole config; a 400 becomes {@link FieldErrors} under `prefix`, else `null`. */
export async function writeConfig(
  next: Record<string, unknown>,
  prefix = "",
): Promise<FieldErrors | null> {
  try {
    await api().putConfig(next);
  } catch (error) {
    if (error instanceof ApiError && error.details.length > 0) {
      const errors = errorsForRecord(error.details, prefix);
      errors[""] ??= error.message;
      return errors;
    }
    return { "": describeError(error) };
  }
  await loadBootstrap();
  return null;
}

/** Saves one record: replaces the one with id `originalId`, or appends it when that is `null`. */
export function saveRecord(
  section: Section,
  originalId: string | null,
  record: RecordDraft,
): Promise<FieldErrors | null> {
  const config = storedConfig();
  const list = [...((config[section] ?? []) as RecordDraft[])];
  let index = originalId === null ? -1 : list.findIndex((known) => known.id === originalId);
  if (index < 0) {
    index = list.length;
    list.push(record);
  } else {
    list[index] = record;
  }
  return writeConfig({ ...config, [section]: list }, `${section}.${index}`);
}

/** Deletes one record; the server refuses when something still refers to it (the message). */
export async function removeRecord(section: Section, id: string): Promise<string | null> {
  const config = storedConfig();
  const list = ((config[section] ?? []) as RecordDraft[]).filter((record) => record.id !== id);
  const errors = await writeConfig({ ...config, [section]: list });
  return errors ? Object.values(errors).join("; ") : null;
}

/** Sets a field of a draft; `undefined`, `""` and empty lists or maps remove it. */
export function setField(draft: Signal<RecordDraft>, key: string, value: unknown): void {
  const next = { ...draft.peek() };
  const empty = value === undefined || value === "" ||
    (Array.isArray(value) && value.length === 0) ||
    (value !== null && typeof value === "object" && !Array.isArray(value) &&
      Object.keys(value).length === 0);
  if (empty) delete next[key];
  else next[key] = value;
  draft.value = next as RecordDraft;
}

/** The errors of the form being edited, read by every field. */
export const FormErrors = createContext<FieldErrors>({});

/** The 400 details under `prefix` (`profile`, `server`) as errors by field; others under `""`. */
export function errorsAt(details: ErrorDetail[], prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of details) {
    const key = path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : "";
    errors[key] = errors[key] ? `${errors[key]}; ${message}` : message;
  }
  return errors;
}

/** Shows `errors` (a test's or a preview's) at the fields inside, beside the form's own. */
export function MoreErrors(props: { errors: FieldErrors; children: ComponentChildren }) {
  const own = useContext(FormErrors);
  const merged: FieldErrors = { ...own };
  for (const [key, message] of Object.entries(props.errors)) {
    if (key === "") continue;
    merged[key] = merged[key] ? `${merged[key]}; ${message}` : message;
  }
  return <FormErrors.Provider value={merged}>{props.children}</FormErrors.Provider>;
}

/** The error of field `name` (and of its nested paths such as `headers.x`). */
function useFieldError(name: string): string | undefined {
  const errors = useContext(FormErrors);
  const own = errors[name];
  const nested = Object.entries(errors).filter(([key]) => key.startsWith(`${name}.`))
    .map(([key, message]) => `${key.slice(name.length + 1)}: ${message}`);
  const all = [own, ...nested].filter(Boolean);
  return all.length > 0 ? all.join("; ") : undefined;
}

let fieldIds = 0;

interface FieldFrameProps {
  name: string;
  label: string;
  hint?: ComponentChildren;
  children: (id: string, describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}

/** A labelled field with its hint and its error (`aria-invalid`, `aria-describedby`). */
export function FieldFrame({ name, label, hint, children }: FieldFrameProps) {
  const id = useMemo(() => `field-${++fieldIds}`, []);
  const error = useFieldError(name);
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean)
    .join(" ") || undefined;
  return (
    <div class={error ? "field invalid" : "field"} data-field={name}>
      <label for={id}>{label}</label>
      {children(id, described, Boolean(error))}
      {hint ? <p class="hint" id={`${id}-hint`}>{hint}</p> : null}
      {error ? <p class="error field-error" id={`${id}-error`} role="alert">{error}</p> : null}
    </div>
  );
}

interface TextFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  hint?: ComponentChildren;
  placeholder?: string;
  multiline?: boolean;
  type?: "text" | "url" | "password" | "number";
  required?: boolean;
  /** The id of a `<datalist>` of suggestions. */
  list?: string;
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
              type={(type === "number" ? "text" : type) as "text"}
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

interface SelectFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  /** `[value, label]` pairs; a value `""` removes the field. */
  options: [string, string][];
  hint?: ComponentChildren;
  onChange?: (value: string) => void;
}

/** A choice field of a draft. */
export function SelectField({ draft, name, label, options, hint, onChange }: SelectFieldProps) {
  const value = String(draft.value[name] ?? "");
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

interface CheckFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  hint?: ComponentChildren;
}

/** A boolean field of a draft (unchecked removes it). */
export function CheckField({ draft, name, label, hint }: CheckFieldProps) {
  const error = useFieldError(name);
  return (
    <div class={error ? "field check invalid" : "field check"} data-field={name}>
      <label>
        <input
          type="checkbox"
          checked={draft.value[name] === true}
          aria-invalid={Boolean(error)}
          onChange={(event) =>
            setField(draft, name, event.currentTarget.checked ? true : undefined)}
        />{" "}
        {label}
      </label>
      {hint ? <p class="hint">{hint}</p> : null}
      {error ? <p class="error field-error" role="alert">{error}</p> : null}
    </div>
  );
}

interface LinesFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  hint?: ComponentChildren;
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

interface JsonFieldProps {
  draft: Signal<RecordDraft>;
  name: string;
  label: string;
  hint?: ComponentChildren;
  rows?: number;
}

/** Any JSON value of a draft, edited as text; text that does not parse is shown as an error. */
export function JsonField({ draft, name, label, hint, rows = 6 }: JsonFieldProps) {
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
      <FieldFrame name={name} label={label} hint={hint}>
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

/** What a section's editor gets: the draft to edit and whether it is a new record. */
export interface EditorProps {
  draft: Signal<RecordDraft>;
  isNew: boolean;
  /** The record as stored (`null` for a new one). */
  original?: RecordDraft | null;
}

/** The props of {@link RecordSection}. */
export interface RecordSectionProps {
  section: Section;
  /** The page's heading, e.g. "Models". */
  title: string;
  /** One record in words, e.g. "model profile". */
  noun: string;
  intro?: ComponentChildren;
  /** The `/settings/<slug>` of this section. */
  slug: string;
  /** The id in the URL (`/settings/<slug>/<id>`, `new` for a new record), if any. */
  selected?: string;
  /** A new record's starting fields. */
  blank: () => RecordDraft;
  /** One line about a record in the list. */
  summary: (record: RecordDraft) => ComponentChildren;
  /** Extra controls of a record in the list (test, connect, …). */
  actions?: (record: RecordDraft) => ComponentChildren;
  /** Controls above the list (import, discover, …). */
  tools?: ComponentChildren;
  Editor: ComponentType<EditorProps>;
}

/** A settings section: the records with edit and delete, an editor for one, and add. */
export function RecordSection(props: RecordSectionProps) {
  const records = recordsOf(props.section);
  const { selected, slug } = props;
  const editing = selected === "new"
    ? null
    : records.find((record) => record.id === selected) ?? undefined;
  return (
    <section class="settings-section" aria-labelledby="section-heading">
      <header class="section-head">
        <h2 id="section-heading">{props.title}</h2>
        <span class="spacer" />
        {props.tools}
        <button
          type="button"
          class="primary"
          onClick={() => navigate(`/settings/${slug}/new`)}
        >
          Add {props.noun}
        </button>
      </header>
      {props.intro ? <div class="section-intro">{props.intro}</div> : null}
      {selected !== undefined && editing !== undefined
        ? (
          <RecordEditor
            key={selected}
            {...props}
            original={editing}
            onClose={() => navigate(`/settings/${slug}`)}
          />
        )
        : null}
      {selected !== undefined && selected !== "new" && editing === undefined
        ? <p class="error" role="alert">There is no {props.noun} with id "{selected}".</p>
        : null}
      {records.length === 0
        ? <p class="hint empty">No {props.noun}s yet.</p>
        : (
          <ul class="records" aria-label={props.title}>
            {records.map((record) => <RecordItem key={record.id} record={record} {...props} />)}
          </ul>
        )}
    </section>
  );
}

function RecordItem(props: RecordSectionProps & { record: RecordDraft }) {
  const { record, slug } = props;
  const confirming = useSignal(false);
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const path = `/settings/${slug}/${encodeURIComponent(record.id)}`;
  const label = String(record.name ?? record.id);
  const remove = async () => {
    busy.value = true;
    error.value = await removeRecord(props.section, record.id);
    busy.value = false;
    confirming.value = false;
  };
  return (
    <li
      class={props.selected === record.id ? "record current" : "record"}
      data-record-id={record.id}
    >
      <div class="record-main">
        <a href={path} onClick={(event) => onLink(event, path)}>
          <strong>{label}</strong>
        </a>
        <code class="record-id">{record.id}</code>
        <span class="record-summary">{props.summary(record)}</span>
      </div>
      <div class="record-actions">
        {props.actions?.(record)}
        <button type="button" onClick={() => navigate(path)} aria-label={`Edit ${label}`}>
          Edit
        </button>
        {confirming.value
          ? (
            <span class="confirm" role="group" aria-label={`Delete ${label}?`}>
              <button type="button" class="danger" disabled={busy.value} onClick={remove}>
                Delete
              </button>
              <button type="button" onClick={() => confirming.value = false}>Keep</button>
            </span>
          )
          : (
            <button
              type="button"
              aria-label={`Delete ${label}`}
              onClick={() => confirming.value = true}
            >
              Delete
            </button>
          )}
      </div>
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
    </li>
  );
}

/**
 * The record last saved, as saved: its editor says "Saved" until the draft changes, also when
 * the save moved it to a new URL (a new record, a new id) and the editor was drawn again.
 */
const lastSaved = signal<{ key: string; json: string } | null>(null);

function RecordEditor(
  props: RecordSectionProps & { original: RecordDraft | null; onClose: () => void },
) {
  const { original } = props;
  const draft = useSignal<RecordDraft>(
    original ? structuredClone(original) : props.blank(),
  );
  const errors = useSignal<FieldErrors>({});
  const busy = useSignal(false);
  const save = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    const saved = draft.value;
    const result = await saveRecord(props.section, original?.id ?? null, saved);
    busy.value = false;
    if (result) {
      errors.value = result;
      lastSaved.value = null;
      return;
    }
    errors.value = {};
    lastSaved.value = { key: `${props.section}/${saved.id}`, json: JSON.stringify(saved) };
    const path = `/settings/${props.slug}/${encodeURIComponent(saved.id)}`;
    if (!original || original.id !== saved.id) navigate(path, { replace: true });
  };
  const shownSaved = lastSaved.value;
  const isSaved = shownSaved !== null && !busy.value &&
    shownSaved.key === `${props.section}/${draft.value.id}` &&
    shownSaved.json === JSON.stringify(draft.value);
  const title = original ? `Edit ${String(original.name ?? original.id)}` : `New ${props.noun}`;
  const Editor = props.Editor;
  return (
    <form class="record-editor" aria-label={title} onSubmit={save} noValidate>
      <h3>{title}</h3>
      <FormErrors.Provider value={errors.value}>
        <TextField
          draft={draft}
          name="id"
          label="Id"
          required
          hint="Letters, digits, '-' and '_'; other records refer to it."
        />
        <Editor draft={draft} isNew={!original} original={original} />
      </FormErrors.Provider>
      {errors.value[""] ? <p class="error form-error" role="alert">{errors.value[""]}</p> : null}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={busy.value}>
          {busy.value ? "Saving…" : "Save"}
        </button>
        <button type="button" onClick={props.onClose}>Close</button>
        <span class="form-status" role="status">{isSaved ? "Saved" : ""}</span>
      </div>
    </form>
  );
}
