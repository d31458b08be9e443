/**
 * The roots editor: the `roots` of a tool-server record (`file://` URIs, each with an optional
 * name), which Lass offers to the server when it asks. Saving writes the config; Lass tells a
 * connected server that its roots changed.
 */
import { useSignal } from "@preact/signals";
import { bootstrap } from "../state.ts";
import { type FieldErrors, type RecordDraft } from "../settings/form.tsx";
import { saveRecord } from "../settings/kit.tsx";

/** One root as the config holds it. */
interface Root {
  uri: string;
  name?: string;
}

/** The record of a server as stored, if it is in the config. */
function recordOf(serverId: string): RecordDraft | undefined {
  const records = (bootstrap.value?.config.mcpServers ?? []) as RecordDraft[];
  return records.find((record) => record.id === serverId);
}

/** The roots to store: rows with a URI, names trimmed and left out when empty. */
function cleaned(rows: Root[]): Root[] {
  return rows.filter((row) => row.uri.trim() !== "").map(({ uri, name }) => ({
    uri: uri.trim(),
    ...(name?.trim() && { name: name.trim() }),
  }));
}

/** The props of {@link RootsEditor}. */
export interface RootsEditorProps {
  serverId: string;
}

/** Edits and saves the roots of a server's record. */
export function RootsEditor({ serverId }: RootsEditorProps) {
  const record = recordOf(serverId);
  const stored = (record?.roots ?? []) as Root[];
  const rows = useSignal<Root[] | null>(null);
  const errors = useSignal<FieldErrors>({});
  const busy = useSignal(false);
  const saved = useSignal(false);
  if (!record) return null;
  const shown = rows.value ?? stored;
  const idPrefix = `roots-${serverId}`.replace(/[^\w-]/g, "_");
  const edit = (next: Root[]) => {
    rows.value = next;
    saved.value = false;
  };
  const save = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    const roots = cleaned(rows.peek() ?? stored);
    const { roots: _old, ...rest } = record;
    const found = await saveRecord(
      "mcpServers",
      serverId,
      roots.length ? { ...rest, roots } : rest,
    );
    busy.value = false;
    errors.value = found ?? {};
    if (!found) {
      rows.value = null;
      saved.value = true;
    }
  };
  return (
    <details class="roots-editor">
      <summary>
        Roots <span class="count">{stored.length}</span>
      </summary>
      <form onSubmit={save} aria-label={`Roots of ${serverId}`}>
        <p class="hint">
          Folders and files the server may work in, offered when it asks (<code>roots/list</code>).
        </p>
        {shown.length === 0 ? <p class="hint">No roots.</p> : null}
        <ul class="roots-list">
          {shown.map((root, i) => {
            const rowError = Object.entries(errors.value)
              .filter(([path]) => path === `roots.${i}` || path.startsWith(`roots.${i}.`))
              .map(([, message]) => message).join("; ");
            return (
              <li key={i} class="root-row">
                <label for={`${idPrefix}-${i}-uri`} class="visually-hidden">URI {i + 1}</label>
                <input
                  id={`${idPrefix}-${i}-uri`}
                  class="mono"
                  placeholder="file:///home/me/project"
                  value={root.uri}
                  aria-invalid={rowError ? true : undefined}
                  onInput={(event) =>
                    edit(
                      shown.map((r, j) => j === i ? { ...r, uri: event.currentTarget.value } : r),
                    )}
                />
                <label for={`${idPrefix}-${i}-name`} class="visually-hidden">Name {i + 1}</label>
                <input
                  id={`${idPrefix}-${i}-name`}
                  placeholder="Name (optional)"
                  value={root.name ?? ""}
                  onInput={(event) =>
                    edit(
                      shown.map((r, j) => j === i ? { ...r, name: event.currentTarget.value } : r),
                    )}
                />
                <button
                  type="button"
                  aria-label={`Remove root ${root.uri || i + 1}`}
                  onClick={() => edit(shown.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
                {rowError ? <span class="field-error" role="alert">{rowError}</span> : null}
              </li>
            );
          })}
        </ul>
        <div class="actions">
          <button type="button" onClick={() => edit([...shown, { uri: "", name: "" }])}>
            Add root
          </button>
          <button type="submit" class="primary" disabled={busy.value || rows.value === null}>
            {busy.value ? "Saving…" : "Save roots"}
          </button>
          {saved.value ? <span class="hint" role="status">Saved.</span> : null}
          {errors.value[""] ? <span class="error" role="alert">{errors.value[""]}</span> : null}
        </div>
      </form>
    </details>
  );
}
