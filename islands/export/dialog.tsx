/**
 * The export dialog: a workspace as code (`POST /api/export`) for a chosen target, shown with
 * Copy and Download. A native modal `<dialog>`: Escape closes it, focus returns to the opener.
 */
import { useModalWhileMounted } from "../modal.ts";
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { ExportResult, ExportTarget } from "../../wire/export.ts";
import { plural } from "../../wire/words.ts";
import { bootstrap, describeError } from "../state.ts";
import { EXPORT_TARGETS, exportWorkspace } from "./api.ts";
import { copyText } from "./copy.ts";
import { fileUrl } from "./download.ts";
import { CodeText } from "../code_text.tsx";

/** The props of {@link ExportDialog}. */
export interface ExportDialogProps {
  workspaceId: string;
  /** Called once the dialog closed (Escape, the Close button); the caller then removes it. */
  onClose: () => void;
}

const ABOUT: Record<ExportTarget, string> = {
  "sdk-a": "One TypeScript file on the AI SDK: the model, system prompt, skills and tool servers.",
  "graph-a": "One TypeScript file on LangChain (LangGraph) with the MCP adapters.",
  "mcp-json": "The workspace's tool servers in Claude Code's .mcp.json shape.",
  "service": "A Lass config with this workspace and the records it refers to.",
};

function Details({ result }: { result: ExportResult }) {
  const packages = Object.entries(result.dependencies);
  return (
    <div class="export-details">
      {packages.length > 0
        ? (
          <div>
            <strong>Install</strong>
            <pre class="code">npm install --save-exact {packages.map(([name, version]) => `${name}@${version}`).join(" ")}</pre>
          </div>
        )
        : null}
      {result.env.length > 0
        ? (
          <div>
            <strong>Environment variables</strong>
            <ul class="export-env">
              {result.env.map((variable) => (
                <li key={variable.name}>
                  <code>{variable.name}</code> <CodeText text={variable.description} />
                  {variable.replacesLiteral
                    ? (
                      <span class="badge badge-waiting">
                        must be set: the config held a literal
                      </span>
                    )
                    : null}
                </li>
              ))}
            </ul>
          </div>
        )
        : null}
      {result.notes.length > 0
        ? (
          <div>
            <strong>Notes</strong>
            <ul class="export-notes">
              {result.notes.map((note) => (
                <li key={note}>
                  <CodeText text={note} />
                </li>
              ))}
            </ul>
          </div>
        )
        : null}
    </div>
  );
}

/** The export dialog of one workspace. */
export function ExportDialog({ workspaceId, onClose }: ExportDialogProps) {
  const dialog = useModalWhileMounted();
  const code = useRef<HTMLPreElement>(null);
  const target = useSignal<ExportTarget>("sdk-a");
  const result = useSignal<ExportResult | null>(null);
  const url = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const copied = useSignal<string>("");
  const request = useRef(0);

  useEffect(() => {
    const mine = ++request.current;
    busy.value = true;
    copied.value = "";
    exportWorkspace(workspaceId, target.value).then(
      (answer) => {
        if (mine !== request.current) return;
        result.value = answer;
        error.value = null;
      },
      (failure) => {
        if (mine !== request.current) return;
        result.value = null;
        error.value = describeError(failure);
      },
    ).finally(() => {
      if (mine === request.current) busy.value = false;
    });
  }, [workspaceId, target.value]);

  // One Blob URL per result, revoked when the result changes or the dialog goes.
  useEffect(() => {
    const answer = result.value;
    const made = answer ? fileUrl(answer.code, answer.filename) : null;
    url.value = made;
    return () => {
      if (made) URL.revokeObjectURL(made);
    };
  }, [result.value]);

  const copy = async () => {
    if (!result.value) return;
    const done = await copyText(result.value.code, code.current);
    copied.value = done
      ? `Copied ${result.value.filename}.`
      : "The browser refused to copy: the code is selected, press Ctrl+C.";
  };

  const workspace = (bootstrap.value?.config.workspaces ?? []).find((known) =>
    known.id === workspaceId
  );
  const answer = result.value;
  return (
    <dialog
      ref={dialog}
      class="export-dialog"
      aria-labelledby="export-title"
      aria-describedby="export-about"
      onClose={onClose}
    >
      <header class="export-head">
        <h2 id="export-title">Export {workspace?.name ?? workspaceId}</h2>
        <span class="spacer" />
        <button type="button" onClick={() => dialog.current?.close()}>Close</button>
      </header>
      <div class="export-target">
        <label for="export-target">Target</label>
        <select
          id="export-target"
          value={target.value}
          autoFocus
          onChange={(event) => target.value = event.currentTarget.value as ExportTarget}
        >
          {EXPORT_TARGETS.map(([value, label]) => <option key={value} value={value}>{label}
          </option>)}
        </select>
        <p class="hint" id="export-about">{ABOUT[target.value]}</p>
      </div>
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      {answer
        ? (
          <div class="export-file" aria-busy={busy.value}>
            <div class="export-file-head">
              <code class="export-filename">{answer.filename}</code>
              <span class="hint">{plural(answer.code.split("\n").length, "line")}</span>
              <span class="spacer" />
              <button type="button" onClick={copy}>Copy</button>
              {url.value
                ? (
                  <a class="button" href={url.value} download={answer.filename}>
                    Download
                  </a>
                )
                : null}
            </div>
            {answer.filename.startsWith(".")
              ? (
                <p class="hint">
                  Browsers save files without a leading dot: rename the download to{" "}
                  <code>{answer.filename}</code>.
                </p>
              )
              : null}
            <pre
              ref={code}
              class="code export-code"
              tabIndex={0}
              aria-label={`Contents of ${answer.filename}`}
            >{answer.code}</pre>
            <Details result={answer} />
          </div>
        )
        : busy.value
        ? <p class="loading">Generating…</p>
        : null}
      <p class="export-copied" role="status">{copied.value}</p>
    </dialog>
  );
}

export default ExportDialog;
