/**
 * What the settings forms are made of besides their fields: a draft record, the changes a field
 * makes to it, the errors by field path that the fields read from {@link FormErrors}, and a draft
 * as the test and preview routes take it.
 */
import { type Signal, useSignal } from "@preact/signals";
import { type ComponentChildren, createContext } from "preact";
import { useContext, useEffect, useMemo } from "preact/hooks";
import type { ErrorDetail } from "../../wire/errors.ts";

/** A config record as edited: plain JSON with an `id`. */
export type RecordDraft = { id: string } & Record<string, unknown>;

/** Errors by field path inside the record (`apiKey`, `headers.x-key`); `""` for the whole form. */
export type FieldErrors = Record<string, string>;

/** The errors of the form being edited, read by every field. */
export const FormErrors = createContext<FieldErrors>({});

/** `errors` with `text` added at `key` (after what is there already). */
function addError(errors: FieldErrors, key: string, text: string): void {
  errors[key] = errors[key] ? `${errors[key]}; ${text}` : text;
}

/**
 * The 400 details of a request as errors by field of the record at `prefix` (`llms.0` of a config
 * write, `profile` of a test): details under it by their rest; the record itself and every other
 * detail (a reference elsewhere, with its path) under `""`.
 */
export function errorsUnder(details: ErrorDetail[], prefix: string): FieldErrors {
  const errors: FieldErrors = {};
  for (const { path, message } of details) {
    const inside = path.startsWith(`${prefix}.`);
    const key = inside ? path.slice(prefix.length + 1) : "";
    addError(
      errors,
      key,
      inside || path === prefix || path === "" ? message : `${path}: ${message}`,
    );
  }
  return errors;
}

/** Shows `errors` (a test's or a preview's) at the fields inside, beside the form's own. */
export function MoreErrors(props: { errors: FieldErrors; children: ComponentChildren }) {
  const merged: FieldErrors = { ...useContext(FormErrors) };
  for (const [key, message] of Object.entries(props.errors)) {
    if (key !== "") addError(merged, key, message);
  }
  return <FormErrors.Provider value={merged}>{props.children}</FormErrors.Provider>;
}

/** Gives the fields inside the errors under `prefix.`, without it (the fields of a nested object). */
export function NestedErrors(props: { prefix: string; children: ComponentChildren }) {
  const nested: FieldErrors = {};
  for (const [key, message] of Object.entries(useContext(FormErrors))) {
    if (key.startsWith(`${props.prefix}.`)) nested[key.slice(props.prefix.length + 1)] = message;
  }
  return <FormErrors.Provider value={nested}>{props.children}</FormErrors.Provider>;
}

/** The error at `name` and at paths under it (`headers.x: ...`), as one sentence; `exact` ignores the latter. */
export function useFieldError(name: string, exact = false): string | undefined {
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

let counter = 0;

/** A page-unique element id, stable for the component's life. */
export function useUniqueId(prefix: string): string {
  return useMemo(() => `${prefix}-${++counter}`, []);
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

/**
 * The object in field `name` of a draft, as a draft of its own that the fields can edit; each
 * change made to it is written back. An empty object removes the field unless `keepEmpty`.
 */
export function useNestedDraft(
  draft: Signal<RecordDraft>,
  name: string,
  options: { keepEmpty?: boolean } = {},
): Signal<RecordDraft> {
  const start = draft.peek()[name];
  // A nested object has no id; the fields only read and write the keys they are given.
  const child = useSignal(
    (start && typeof start === "object" ? { ...start } : {}) as RecordDraft,
  );
  useEffect(() => {
    let first = true;
    return child.subscribe((value) => {
      // `subscribe` calls at once with the value it started from: that is no change.
      if (first) return void (first = false);
      const next = { ...draft.peek() };
      if (Object.keys(value).length === 0 && !options.keepEmpty) delete next[name];
      else next[name] = value;
      draft.value = next;
    });
  }, []);
  return child;
}

/** What a record id may be: 1-64 letters, digits, `_` or `-`, starting with a letter or digit. */
export const RECORD_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * A draft as a test route takes it: the route checks the whole record, so a draft without a
 * usable id (`usable` narrows it further) or name gets stand-ins; the test does not depend on them.
 */
export function withStandIns(
  draft: RecordDraft,
  usable: (id: string) => boolean = () => true,
): Record<string, unknown> {
  const id = RECORD_ID.test(draft.id) && usable(draft.id) ? draft.id : "draft";
  const name = typeof draft.name === "string" && draft.name.trim() !== "" ? draft.name : id;
  return { ...draft, id, name };
}

/** A record as a preview route takes it: without the id, which only names a draft. */
export function withoutId(draft: RecordDraft): Record<string, unknown> {
  const { id: _id, ...rest } = draft;
  return rest;
}
