/**
 * A tool server's per-tool settings: which tools the model sees (`disabledTools`) and which run
 * without asking (`approval.default`, `approval.tools`), over the tools Lass knows of.
 */
import { type Signal, useSignal } from "@preact/signals";
import { useContext } from "preact/hooks";
import type { ToolInfo } from "../../wire/tool_servers.ts";
import { FieldFrame } from "./fields.tsx";
import { FormErrors, type RecordDraft, setField } from "./form.tsx";

type Mode = "auto" | "ask";

interface Approval {
  default?: Mode;
  tools?: Record<string, Mode>;
}

function approvalOf(draft: RecordDraft): Approval {
  const value = draft.approval;
  return value && typeof value === "object" ? value as Approval : {};
}

function disabledOf(draft: RecordDraft): string[] {
  return Array.isArray(draft.disabledTools) ? draft.disabledTools as string[] : [];
}

/** Sets the approval object; empty parts are removed, and an empty object altogether. */
function setApproval(draft: Signal<RecordDraft>, next: Approval): void {
  const clean: Approval = {};
  if (next.default) clean.default = next.default;
  if (next.tools && Object.keys(next.tools).length > 0) clean.tools = next.tools;
  setField(draft, "approval", clean);
}

function setToolMode(draft: Signal<RecordDraft>, tool: string, mode: Mode | ""): void {
  const approval = approvalOf(draft.peek());
  const tools = { ...(approval.tools ?? {}) };
  if (mode === "") delete tools[tool];
  else tools[tool] = mode;
  setApproval(draft, { ...approval, tools });
}

function setOffered(draft: Signal<RecordDraft>, tool: string, offered: boolean): void {
  const disabled = disabledOf(draft.peek()).filter((name) => name !== tool);
  setField(draft, "disabledTools", offered ? disabled : [...disabled, tool]);
}

/** Errors at `name` and below it, as one sentence. */
function useErrorsUnder(...names: string[]): string | undefined {
  const errors = useContext(FormErrors);
  const found = Object.entries(errors)
    .filter(([key]) => names.some((name) => key === name || key.startsWith(`${name}.`)))
    .map(([key, message]) => `${key}: ${message}`);
  return found.length > 0 ? found.join("; ") : undefined;
}

interface ToolSettingsProps {
  draft: Signal<RecordDraft>;
  /** The tools the server offered when it was last connected or tested. */
  known: ToolInfo[];
}

/** The approval default, and a table of the tools with "offered" and "approval" per tool. */
export function ToolSettings({ draft, known }: ToolSettingsProps) {
  const added = useSignal<string[]>([]);
  const newName = useSignal("");
  const approval = approvalOf(draft.value);
  const disabled = disabledOf(draft.value);
  const described = new Map(known.map((tool) => [tool.name, tool]));
  const names = [
    ...new Set([
      ...known.map((tool) => tool.name),
      ...Object.keys(approval.tools ?? {}),
      ...disabled,
      ...added.value,
    ]),
  ];
  const error = useErrorsUnder("approval.tools", "disabledTools");
  const add = () => {
    const name = newName.value.trim();
    if (name !== "" && !names.includes(name)) added.value = [...added.value, name];
    newName.value = "";
  };
  return (
    <fieldset class={error ? "tool-settings invalid" : "tool-settings"}>
      <legend>Tools</legend>
      <FieldFrame
        name="approval.default"
        label="Tool calls"
        hint="Whether a call runs at once or waits for you. A workspace set to ask before every call wins over this; a tool's own setting below wins over both."
      >
        {(id, describedBy, invalid) => (
          <select
            id={id}
            value={approval.default === "ask" ? "ask" : ""}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(event) =>
              setApproval(draft, {
                ...approval,
                default: (event.currentTarget.value || undefined) as Mode | undefined,
              })}
          >
            <option value="">Run without asking (default)</option>
            <option value="ask">Ask before each call</option>
          </select>
        )}
      </FieldFrame>
      {names.length === 0
        ? (
          <p class="hint">
            Connect or test the server to list its tools, or add a tool by name.
          </p>
        )
        : (
          <table class="tool-table">
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Offered to the model</th>
                <th scope="col">Approval</th>
              </tr>
            </thead>
            <tbody>
              {names.map((name) => {
                const tool = described.get(name);
                // An app-only tool is never offered, whatever disabledTools says.
                const appOnly = tool?.ui?.visibility !== undefined &&
                  !tool.ui.visibility.includes("model");
                return (
                  <tr key={name}>
                    <th scope="row">
                      <code>{name}</code>
                      {tool?.title || tool?.description
                        ? <span class="hint tool-about">{tool.title ?? tool.description}</span>
                        : null}
                      {appOnly
                        ? <span class="hint tool-about">Only its app calls it; never offered.</span>
                        : null}
                    </th>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Offer ${name} to the model`}
                        checked={!appOnly && !disabled.includes(name)}
                        disabled={appOnly}
                        onChange={(event) => setOffered(draft, name, event.currentTarget.checked)}
                      />
                    </td>
                    <td>
                      <select
                        aria-label={`Approval of ${name}`}
                        value={approval.tools?.[name] ?? ""}
                        onChange={(event) =>
                          setToolMode(draft, name, event.currentTarget.value as Mode | "")}
                      >
                        <option value="">As above</option>
                        <option value="auto">Run without asking</option>
                        <option value="ask">Ask</option>
                      </select>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        )}
      <div class="tool-add">
        <input
          type="text"
          aria-label="Tool name to add"
          placeholder="tool name"
          value={newName.value}
          onInput={(event) => newName.value = event.currentTarget.value}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" onClick={add}>Add tool</button>
      </div>
      {error ? <p class="error field-error" role="alert">{error}</p> : null}
    </fieldset>
  );
}
