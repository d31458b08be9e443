/**
 * What every settings section shares: saving one record through `PUT /api/config` (the whole
 * config, so the server validates references too) with the 400 details mapped onto the record's
 * fields, and the list / add / edit / delete layout. The fields are in `fields.tsx`.
 */
import { type Signal, signal, useSignal } from "@preact/signals";
import type { ComponentChildren, ComponentType } from "preact";
import { useEffect, useLayoutEffect, useRef } from "preact/hooks";
import { ApiError } from "../api.ts";
import { onLink } from "../sidebar.tsx";
import { api, bootstrap, describeError, loadBootstrap, navigate } from "../state.ts";
import { TextField } from "./fields.tsx";
import { errorsUnder, type FieldErrors, FormErrors, type RecordDraft } from "./form.tsx";

/** The record arrays of the config, by their key in `service.json`. */
export type Section = "llms" | "mcpServers" | "skills" | "agents" | "catalogs" | "workspaces";

/** The config as stored (defaults not filled in). */
export function storedConfig(): Record<string, unknown> {
  return (bootstrap.peek()?.config ?? {}) as Record<string, unknown>;
}

/** The records of a section as stored. */
export function recordsOf(section: Section): RecordDraft[] {
  return (bootstrap.value?.config[section] ?? []) as RecordDraft[];
}

/** One record kind in words, by its section, for messages. */
const NOUNS: Record<string, string> = {
  llms: "model profile",
  mcpServers: "tool server",
  skills: "skill",
  agents: "agent",
  catalogs: "catalog",
  workspaces: "workspace",
};

/**
 * A config path in words, naming the record by its id: `workspaces.0.llmId` of `config` is
 * `workspace "default", llmId`. Other paths stay as they are.
 */
export function pathInWords(config: Record<string, unknown>, path: string): string {
  const [section, index, ...rest] = path.split(".");
  const record = (config[section] as RecordDraft[] | undefined)?.[Number(index)];
  if (!NOUNS[section] || !/^\d+$/.test(index ?? "") || !record) return path;
  const named = `${NOUNS[section]} "${record.id}"`;
  return rest.length > 0 ? `${named}, ${rest.join(".")}` : named;
}

/**
 * Writes the config that `change` makes of the stored one, only over the config it read: when
 * another tab or an edit of the file changed it meanwhile (a 412), the change is made again on
 * the new config, once. A 400 becomes {@link FieldErrors} under `prefix` (a path, or one read
 * from the new config; paths elsewhere in words, see {@link pathInWords}), else `null`.
 */
export async function writeConfig(
  change: (config: Record<string, unknown>) => Record<string, unknown>,
  prefixOf: string | ((next: Record<string, unknown>) => string) = "",
): Promise<FieldErrors | null> {
  let next: Record<string, unknown> = {};
  try {
    for (let attempt = 1;; attempt++) {
      next = change(storedConfig());
      try {
        await api().putConfig(next, bootstrap.peek()?.configEtag);
        break;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 412 && attempt === 1)) throw error;
        await loadBootstrap();
      }
    }
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      return { "": "The config keeps changing (another tab or an edit of the file): try again." };
    }
    if (error instanceof ApiError && error.details.length > 0) {
      const prefix = typeof prefixOf === "string" ? prefixOf : prefixOf(next);
      const details = error.details.map(({ path, message }) => ({
        path: path === prefix || path.startsWith(`${prefix}.`) ? path : pathInWords(next, path),
        message,
      }));
      const errors = errorsUnder(details, prefix);
      errors[""] ??= "Not saved: see the errors at the fields.";
      return errors;
    }
    return { "": describeError(error) };
  }
  await loadBootstrap();
  return null;
}

/** Saves one record: replaces the one with id `originalId`, or appends it when that is `null`. */
export async function saveRecord(
  section: Section,
  originalId: string | null,
  record: RecordDraft,
): Promise<FieldErrors | null> {
  const change = (config: Record<string, unknown>) => {
    const list = [...((config[section] ?? []) as RecordDraft[])];
    const index = originalId === null ? -1 : list.findIndex((known) => known.id === originalId);
    if (index < 0) list.push(record);
    else list[index] = record;
    return { ...config, [section]: list };
  };
  const prefix = (next: Record<string, unknown>) =>
    `${section}.${(next[section] as RecordDraft[]).findIndex((known) => known === record)}`;
  const errors = await writeConfig(change, prefix);
  if (errors?.[""] && !errors[""].startsWith("Not saved")) errors[""] = `Not saved: ${errors[""]}`;
  return errors;
}

/** Deletes one record; the server refuses when something still refers to it (the message). */
export async function removeRecord(section: Section, id: string): Promise<string | null> {
  const errors = await writeConfig((config) => ({
    ...config,
    [section]: ((config[section] ?? []) as RecordDraft[]).filter((record) => record.id !== id),
  }));
  return errors ? `Not deleted: ${Object.values(errors).join("; ")}` : null;
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
        <h2 id="section-heading" tabIndex={-1}>{props.title}</h2>
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
  const deleteButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  // Focus follows the swap: into the question when it opens, back to Delete when it closes.
  const focusNext = useRef<"keep" | "delete" | null>(null);
  useLayoutEffect(() => {
    const target = focusNext.current === "keep" ? keepButton : deleteButton;
    if (focusNext.current) target.current?.focus();
    focusNext.current = null;
  });
  const ask = (open: boolean) => {
    focusNext.current = open ? "keep" : "delete";
    confirming.value = open;
  };
  const remove = async () => {
    busy.value = true;
    const refused = await removeRecord(props.section, record.id);
    busy.value = false;
    if (!refused) {
      // The row is gone: focus goes to the section's heading, and off a deleted record's editor.
      if (props.selected === record.id) navigate(`/settings/${slug}`, { replace: true });
      document.getElementById("section-heading")?.focus();
      return;
    }
    error.value = refused;
    ask(false);
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
              <button type="button" ref={keepButton} onClick={() => ask(false)}>Keep</button>
            </span>
          )
          : (
            <button
              type="button"
              ref={deleteButton}
              aria-label={`Delete ${label}`}
              onClick={() => ask(true)}
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
 * Puts the focus on the first field of `form` marked invalid, opening the folded sections around
 * it; a problem of the whole record (no field marked) leaves the focus where it is.
 */
function focusFirstInvalid(form: HTMLFormElement | null): void {
  const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!field) return;
  for (
    let fold = field.closest("details");
    fold;
    fold = fold.parentElement?.closest("details") ?? null
  ) {
    fold.open = true;
  }
  field.focus();
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
    if (busy.peek()) return;
    busy.value = true;
    const saved = draft.value;
    const result = await saveRecord(props.section, original?.id ?? null, saved);
    busy.value = false;
    if (result) {
      errors.value = result;
      lastSaved.value = null;
      // The first bad field takes the focus (its error is read with it) once it is drawn.
      requestAnimationFrame(() => focusFirstInvalid(form.current));
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
  const submit = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // Drawn again at its new URL after a save (a new record, a new id): focus stays on Save.
  useEffect(() => {
    if (isSaved) submit.current?.focus();
  }, []);
  const title = original ? `Edit ${String(original.name ?? original.id)}` : `New ${props.noun}`;
  const Editor = props.Editor;
  return (
    <form ref={form} class="record-editor" aria-label={title} onSubmit={save} noValidate>
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
        {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
        <button type="submit" ref={submit} class="primary" aria-disabled={busy.value}>
          {busy.value ? "Saving…" : "Save"}
        </button>
        <button type="button" onClick={props.onClose}>Close</button>
        <span class="form-status" role="status">{isSaved ? "Saved" : ""}</span>
      </div>
    </form>
  );
}
