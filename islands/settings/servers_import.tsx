/**
 * Importing tool servers from another client's config (Claude Desktop, VS Code, Cursor, Codex's
 * TOML, ...): paste, preview what `POST /api/mcp/import` read, pick and rename, add in one write.
 */
import { type Signal, useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { ImportFormat, ImportResult } from "../../wire/tool_servers.ts";
import { describeError } from "../state.ts";
import { mcpApi } from "../tool_servers.ts";
import { RECORD_ID, type RecordDraft } from "./form.tsx";
import { recordsOf, storedConfig, writeConfig } from "./kit.tsx";

/** The client formats `POST /api/mcp/import` reads, with their labels, in the server's order. */
const FORMATS: Record<ImportFormat, string> = {
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  vscode: "VS Code",
  windsurf: "Windsurf",
  zed: "Zed",
  cline: "Cline",
  continue: "Continue (YAML)",
  goose: "Goose (YAML)",
  codex: "Codex (TOML)",
  gemini: "Gemini CLI",
};

const EXAMPLE = `{
  "mcpServers": {
    "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] }
  }
}`;

/** One server of the preview as the person chose: added or not, under which id. */
interface Row {
  record: RecordDraft;
  add: boolean;
  id: string;
}

/** Why a row cannot be added under its id, if it cannot. */
function idProblem(row: Row, rows: Row[], taken: Set<string>): string | undefined {
  if (!RECORD_ID.test(row.id) || row.id.includes("__")) {
    return "must be 1-64 letters, digits, '_' or '-' (no '__'), starting with a letter or digit";
  }
  if (taken.has(row.id.toLowerCase())) return `a tool server with id "${row.id}" exists already`;
  const twice = rows.filter((other) =>
    other.add && other.id.toLowerCase() === row.id.toLowerCase()
  );
  return twice.length > 1 ? `"${row.id}" is chosen for two servers` : undefined;
}

function targetOf(record: RecordDraft): string {
  return record.transport === "stdio"
    ? [record.command, ...(Array.isArray(record.args) ? record.args : [])].join(" ")
    : String(record.url ?? "");
}

/** The Import button and its dialog; `onAdded` gets the ids that were added. */
export function ImportServers({ onAdded }: { onAdded: (ids: string[]) => void }) {
  const open = useSignal(false);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open.value && !element.open) element.showModal();
    if (!open.value && element.open) element.close();
  }, [open.value]);
  return (
    <>
      <button type="button" aria-haspopup="dialog" onClick={() => open.value = true}>
        Import…
      </button>
      <dialog
        ref={dialog}
        class="import-dialog"
        aria-labelledby="import-heading"
        onClose={() => open.value = false}
      >
        {open.value
          ? (
            <ImportForm
              onClose={() => open.value = false}
              onAdded={(ids) => {
                open.value = false;
                onAdded(ids);
              }}
            />
          )
          : null}
      </dialog>
    </>
  );
}

interface ImportFormProps {
  onClose: () => void;
  onAdded: (ids: string[]) => void;
}

function ImportForm({ onClose, onAdded }: ImportFormProps) {
  const text = useSignal("");
  const format = useSignal("");
  const busy = useSignal(false);
  const adding = useSignal(false);
  const failure = useSignal<string | null>(null);
  const preview = useSignal<ImportResult | null>(null);
  const rows = useSignal<Row[]>([]);
  const rowErrors = useSignal<Record<number, string>>({});
  const read = async () => {
    busy.value = true;
    failure.value = null;
    rowErrors.value = {};
    try {
      const answer = await mcpApi.importConfig(text.value, format.value || undefined);
      preview.value = answer;
      rows.value = answer.servers.map((server) => {
        const record = server as RecordDraft;
        return { record, add: true, id: record.id };
      });
    } catch (error) {
      preview.value = null;
      rows.value = [];
      failure.value = describeError(error);
    } finally {
      busy.value = false;
    }
  };
  const add = async () => {
    const chosen = rows.value.filter((row) => row.add);
    const existing = recordsOf("mcpServers");
    const config = storedConfig();
    busy.value = adding.value = true;
    failure.value = null;
    const errors = await writeConfig(
      {
        ...config,
        mcpServers: [...existing, ...chosen.map((row) => ({ ...row.record, id: row.id }))],
      },
      "mcpServers",
    );
    busy.value = adding.value = false;
    if (!errors) return onAdded(chosen.map((row) => row.id));
    // `mcpServers.<index>.<field>` of an added record: shown at its row.
    const byRow: Record<number, string> = {};
    const other: string[] = [];
    for (const [key, message] of Object.entries(errors)) {
      const match = /^(\d+)(?:\.(.+))?$/.exec(key);
      const row = match ? rows.value.indexOf(chosen[Number(match[1]) - existing.length]) : -1;
      if (row >= 0) {
        byRow[row] = [byRow[row], `${match![2] ?? "record"}: ${message}`].filter(Boolean)
          .join("; ");
      } else if (key === "") other.push(message);
      else other.push(`mcpServers.${key}: ${message}`);
    }
    rowErrors.value = byRow;
    failure.value = other.join("; ") || null;
  };
  const taken = new Set(recordsOf("mcpServers").map((record) => record.id.toLowerCase()));
  const problems = rows.value.map((row) => row.add ? idProblem(row, rows.value, taken) : undefined);
  const count = rows.value.filter((row) => row.add).length;
  const blocked = count === 0 || problems.some(Boolean) || busy.value;
  return (
    <div class="import-form">
      <header class="dialog-head">
        <h2 id="import-heading">Import tool servers</h2>
        <span class="spacer" />
        <button type="button" class="icon" aria-label="Close" onClick={onClose}>✕</button>
      </header>
      <p class="hint">
        Paste another client's config: Claude Desktop, Claude Code, Cursor, VS Code, Windsurf, Zed,
        Cline, Gemini CLI (JSON), Continue or Goose (YAML), Codex (TOML). Nothing is saved until you
        add.
      </p>
      <div class="field">
        <label for="import-text">Client config</label>
        <textarea
          id="import-text"
          class="mono"
          rows={8}
          spellcheck={false}
          placeholder={EXAMPLE}
          value={text.value}
          onInput={(event) => text.value = event.currentTarget.value}
        />
      </div>
      <div class="import-controls">
        <label>
          Format{" "}
          <select
            value={format.value}
            onChange={(event) => format.value = event.currentTarget.value}
          >
            <option value="">Detect</option>
            {Object.entries(FORMATS).map(([value, label]) => (
              <option key={value} value={value}>{label}</option>
            ))}
          </select>
        </label>
        <button
          type="button"
          class={preview.value ? "" : "primary"}
          disabled={busy.value || text.value.trim() === ""}
          onClick={read}
        >
          Preview
        </button>
      </div>
      {failure.value ? <p class="error" role="alert">{failure.value}</p> : null}
      {preview.value
        ? (
          <ImportPreviewView
            preview={preview.value}
            rows={rows}
            problems={problems}
            rowErrors={rowErrors.value}
          />
        )
        : null}
      <div class="form-actions">
        <button type="button" class="primary" disabled={blocked} onClick={add}>
          {adding.value ? "Adding…" : `Add ${count} server${count === 1 ? "" : "s"}`}
        </button>
        <button type="button" onClick={onClose}>Cancel</button>
      </div>
    </div>
  );
}

interface PreviewViewProps {
  preview: ImportResult;
  rows: Signal<Row[]>;
  problems: (string | undefined)[];
  rowErrors: Record<number, string>;
}

function ImportPreviewView({ preview, rows, problems, rowErrors }: PreviewViewProps) {
  const label = FORMATS[preview.format as ImportFormat] ?? preview.format;
  const update = (index: number, change: Partial<Row>) => {
    rows.value = rows.value.map((row, i) => i === index ? { ...row, ...change } : row);
  };
  return (
    <section class="import-preview" aria-label="Import preview">
      <p role="status">
        Read as {label}: {preview.servers.length} server{preview.servers.length === 1 ? "" : "s"}.
      </p>
      {preview.warnings.length > 0
        ? (
          <div class="import-warnings">
            <h3>Warnings</h3>
            <ul>{preview.warnings.map((warning) => <li key={warning}>{warning}</li>)}</ul>
          </div>
        )
        : null}
      {rows.value.length > 0
        ? (
          <ul class="import-rows">
            {rows.value.map((row, index) => {
              const problem = problems[index] ?? rowErrors[index];
              const errorId = `import-row-${index}-error`;
              return (
                <li key={index} class={problem ? "import-row invalid" : "import-row"}>
                  <label class="import-pick">
                    <input
                      type="checkbox"
                      checked={row.add}
                      onChange={(event) => update(index, { add: event.currentTarget.checked })}
                    />{" "}
                    Add <strong>{String(row.record.name ?? row.record.id)}</strong>
                  </label>
                  <label class="import-id">
                    Id{" "}
                    <input
                      type="text"
                      value={row.id}
                      spellcheck={false}
                      aria-label={`Id for ${String(row.record.name ?? row.record.id)}`}
                      aria-invalid={Boolean(problem)}
                      aria-describedby={problem ? errorId : undefined}
                      onInput={(event) => update(index, { id: event.currentTarget.value.trim() })}
                    />
                  </label>
                  <span class="record-summary">
                    {String(row.record.transport)} · <code>{targetOf(row.record)}</code>
                  </span>
                  {problem
                    ? <p class="error field-error" id={errorId} role="alert">{problem}</p>
                    : null}
                </li>
              );
            })}
          </ul>
        )
        : null}
    </section>
  );
}
