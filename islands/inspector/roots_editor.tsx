/**
 * The roots editor: the `roots` of a tool-server record (`file://` URIs, each with an optional
 * name), which Lass offers to the server when it asks. Saving writes the config; Lass tells a
 * connected server that its roots changed.
 */
import { useSignal } from "@preact/signals";
import { bootstrap } from "../state.ts";
import { type FieldErrors, type RecordDraft } from "../settings/form.tsx";
import { saveRecord } from "../settings/kit.tsx";
import { cleanRoots, type Root, rootsOf } from "../settings/roots.ts";
import { RootRows } from "../settings/roots_field.tsx";

/** The record of a server as stored, if it is in the config. */
function recordOf(serverId: string): RecordDraft | undefined {
  const records = (bootstrap.value?.config.mcpServers ?? []) as RecordDraft[];
  return records.find((record) => record.id === serverId);
}

/** The props of {@link RootsEditor}. */
export interface RootsEditorProps {
  serverId: string;
}

/** Edits and saves the roots of a server's record. */
export function RootsEditor({ serverId }: RootsEditorProps) {
  const record = recordOf(serverId);
  const stored = record ? rootsOf(record) : [];
  const rows = useSignal<Root[] | null>(null);
  const errors = useSignal<FieldErrors>({});
  const busy = useSignal(false);
  const saved = useSignal(false);
  if (!record) return null;
  const shown = rows.value ?? stored;
  const edit = (next: Root[]) => {
    rows.value = next;
    saved.value = false;
  };
  const save = async (event: Event) => {
    event.preventDefault();
    busy.value = true;
    const roots = cleanRoots(rows.peek() ?? stored);
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
        <RootRows rows={shown} onChange={edit} errors={errors.value} />
        <div class="actions">
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
