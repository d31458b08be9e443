/**
 * Importing tool servers from another client's config (Claude Desktop, VS Code, Cursor, Codex's
 * TOML, ...): paste, preview what `POST /api/mcp/import` read, pick and rename, add in one write.
 */
import { useModalWhileOpen } from "../modal.ts";
import { type Signal, useSignal } from "@preact/signals";
import type { ImportFormat, ImportResult, ImportSecret } from "../../wire/tool_servers.ts";
import { plural } from "../../wire/words.ts";
import { describeError } from "../state.ts";
import { mcpApi } from "../tool_servers.ts";
import { RECORD_ID, type RecordDraft } from "./form.tsx";
import { recordsOf, writeConfig } from "./kit.tsx";
import { CodeText } from "../code_text.tsx";
import { commandLineOf } from "./command_line.ts";

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
  "server-json": "MCP Registry server.json",
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

/** The record with its literal secrets replaced by their environment references. */
function withReferences(record: RecordDraft, secrets: ImportSecret[]): RecordDraft {
  const next: RecordDraft = { ...record };
  for (const secret of secrets) {
    if (secret.serverId !== record.id) continue;
    const values = next[secret.field] as Record<string, string> | undefined;
    if (values) next[secret.field] = { ...values, [secret.key]: secret.reference };
  }
  return next;
}

/** "A, B and C". */
function listed(items: string[]): string {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

function targetOf(record: RecordDraft): string {
  return record.transport === "stdio"
    ? commandLineOf(record.command, record.args)
    : String(record.url ?? "");
}

/** The Import button and its dialog; `onAdded` gets the ids that were added. */
export function ImportServers({ onAdded }: { onAdded: (ids: string[]) => void }) {
  const open = useSignal(false);
  const dialog = useModalWhileOpen(open);
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
  /** Whether literal secrets are replaced by environment references when added. */
  const useReferences = useSignal(true);
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
      useReferences.value = true;
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
    busy.value = adding.value = true;
    failure.value = null;
    // How many servers the written config had before the added ones (the error paths count them).
    let existing = 0;
    const errors = await writeConfig((config) => {
      const stored = (config.mcpServers ?? []) as RecordDraft[];
      existing = stored.length;
      const secrets = useReferences.value ? preview.value?.secrets ?? [] : [];
      const added = chosen.map((row) => ({ ...withReferences(row.record, secrets), id: row.id }));
      return { ...config, mcpServers: [...stored, ...added] };
    }, "mcpServers");
    busy.value = adding.value = false;
    if (!errors) return onAdded(chosen.map((row) => row.id));
    // `mcpServers.<index>.<field>` of an added record: shown at its row.
    const byRow: Record<number, string> = {};
    const other: string[] = [];
    for (const [key, message] of Object.entries(errors)) {
      const match = /^(\d+)(?:\.(.+))?$/.exec(key);
      const row = match ? rows.value.indexOf(chosen[Number(match[1]) - existing]) : -1;
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
        Cline, Gemini CLI (JSON), Continue or Goose (YAML), Codex (TOML), or an MCP Registry
        server.json. Nothing is saved until you add.
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
            useReferences={useReferences}
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
  useReferences: Signal<boolean>;
  problems: (string | undefined)[];
  rowErrors: Record<number, string>;
}

/** The literal secrets of the chosen servers, and the choice to keep them as references. */
function SecretsView(
  { secrets, rows, useReferences }: {
    secrets: ImportSecret[];
    rows: Row[];
    useReferences: Signal<boolean>;
  },
) {
  const chosen = new Map(rows.filter((row) => row.add).map((row) => [row.record.id, row]));
  const shown = secrets.filter((secret) => chosen.has(secret.serverId));
  if (shown.length === 0) return null;
  const variables = [...new Set(shown.map((secret) => secret.variable))];
  return (
    <div class="import-warnings import-secrets">
      <h3>Secrets in the file</h3>
      <p>
        {shown.length === 1 ? "This value looks" : "These values look"}{" "}
        like a secret. Added as written, {shown.length === 1 ? "it is" : "they are"}{" "}
        copied into Lass's config file.
      </p>
      <ul>
        {shown.map((secret) => {
          const row = chosen.get(secret.serverId)!;
          return (
            <li key={`${secret.serverId} ${secret.field} ${secret.key}`}>
              {String(row.record.name ?? row.id)}: {secret.field === "env" ? "env" : "header"}{" "}
              <code>{secret.key}</code> → <code>{secret.reference}</code>
            </li>
          );
        })}
      </ul>
      <label class="import-references">
        <input
          type="checkbox"
          checked={useReferences.value}
          onChange={(event) => useReferences.value = event.currentTarget.checked}
        />{" "}
        Keep them out of the config: add the references instead
      </label>
      <p class="hint">
        {useReferences.value
          ? (
            <>
              Then set {listed(variables)}{" "}
              in Lass's environment (the values from the file) before connecting{" "}
              {shown.length === 1 ? "this server" : "these servers"}.
            </>
          )
          : "The values are copied as they are."}
      </p>
    </div>
  );
}

/** The sentence about the format: the one read, and the clients that write the same shape. */
function formatSentence(preview: ImportResult): string {
  const label = FORMATS[preview.format as ImportFormat] ?? preview.format;
  const same = (preview.sameShape ?? []).map((format) => FORMATS[format] ?? format);
  const count = plural(preview.servers.length, "server");
  if (same.length === 0) return `Read as ${label}: ${count}.`;
  return `Read as ${label}: ${count}. ${listed(same)} files of this shape read the same.`;
}

function ImportPreviewView(
  { preview, rows, useReferences, problems, rowErrors }: PreviewViewProps,
) {
  const update = (index: number, change: Partial<Row>) => {
    rows.value = rows.value.map((row, i) => i === index ? { ...row, ...change } : row);
  };
  const secrets = preview.secrets ?? [];
  const aboutSecrets = new Set(secrets.map((secret) => secret.warning));
  const warnings = preview.warnings.filter((warning) => !aboutSecrets.has(warning));
  return (
    <section class="import-preview" aria-label="Import preview">
      <p role="status">{formatSentence(preview)}</p>
      {warnings.length > 0
        ? (
          <div class="import-warnings">
            <h3>Warnings</h3>
            <ul>
              {warnings.map((warning) => (
                <li key={warning}>
                  <CodeText text={warning} />
                </li>
              ))}
            </ul>
          </div>
        )
        : null}
      <SecretsView secrets={secrets} rows={rows.value} useReferences={useReferences} />
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
