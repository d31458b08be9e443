/**
 * The "Save as eval case" dialog: a chat turn (or a whole chat) made into an eval case by the
 * server (`POST /api/evals/cases`), edited as YAML, and saved into an eval file of the config's
 * folder, an existing one or a new one (`POST /api/evals/files/:name/cases`). A native modal
 * `<dialog>`: Escape closes it, focus returns to the opener.
 */
import { useModalWhileMounted } from "../modal.ts";
import { batch, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { ErrorDetail } from "../../wire/errors.ts";
import type { EvalCaseDraft, EvalCaseSaved, EvalFileList } from "../../wire/evals.ts";
import { plural } from "../../wire/words.ts";
import { ApiError } from "../api.ts";
import { describeError } from "../state.ts";
import { draftCase, listEvalFiles, saveCase } from "./api.ts";

/** The file picker's choice of a new file. */
const NEW_FILE = "";

/** An eval file's name as the folder listing finds it. */
const EVAL_NAME = /\.eval\.(ya?ml|json)$/i;

/** The props of {@link SaveCaseDialog}. */
export interface SaveCaseDialogProps {
  sessionId: string;
  /** The user turn to take, by index in the session; absent: the whole chat. */
  turn?: number;
  /** Called once the dialog closed; the caller then removes it. */
  onClose: () => void;
}

/** A failure to show: its sentence and the problems at their paths. */
interface Problem {
  message: string;
  details: ErrorDetail[];
}

function problemOf(error: unknown): Problem {
  return {
    message: describeError(error),
    details: error instanceof ApiError ? error.details : [],
  };
}

function ProblemView({ problem }: { problem: Problem }) {
  return (
    <div class="error" role="alert">
      <p>{problem.message}</p>
      {problem.details.length > 1
        ? (
          <ul>
            {problem.details.map((detail) => (
              <li key={detail.path}>
                <code>{detail.path}</code>: {detail.message}
              </li>
            ))}
          </ul>
        )
        : null}
    </div>
  );
}

/** The new file's name as typed, with `.eval.yaml` added when it has no eval file ending. */
function newFileName(typed: string): string {
  const name = typed.trim();
  return name === "" || EVAL_NAME.test(name) ? name : `${name.replace(/\.ya?ml$/i, "")}.eval.yaml`;
}

/** What the case holds, in words: its turns. */
function about(draft: EvalCaseDraft, turn: number | undefined): string {
  const from = turn === undefined
    ? `the chat "${draft.session.title}"`
    : `turn ${turn + 1} of the chat "${draft.session.title}"`;
  const turns = draft.turns.length > 1
    ? ` Its ${draft.turns.length} turns run as one conversation.`
    : "";
  return `A case from ${from}: its prompts, and the tool calls it made with their arguments as ` +
    `expectations. Edit it before saving.${turns}`;
}

/** The dialog. */
export function SaveCaseDialog({ sessionId, turn, onClose }: SaveCaseDialogProps) {
  const dialog = useModalWhileMounted();
  const draft = useSignal<EvalCaseDraft | null>(null);
  const text = useSignal("");
  const files = useSignal<EvalFileList | null>(null);
  const choice = useSignal(NEW_FILE);
  /** The user picked a file (or typed a new name): the list arriving later keeps that choice. */
  const picked = useSignal(false);
  const typed = useSignal("chats.eval.yaml");
  const busy = useSignal(false);
  const problem = useSignal<Problem | null>(null);
  const saved = useSignal<EvalCaseSaved | null>(null);

  useEffect(() => {
    draftCase({ sessionId, ...(turn !== undefined && { turns: [turn] }) }).then(
      (answer) => {
        draft.value = answer;
        text.value = answer.yaml;
      },
      (error) => problem.value = problemOf(error),
    );
    listEvalFiles().then(
      (list) => {
        files.value = list;
        if (!picked.value) choice.value = list.files[0]?.name ?? NEW_FILE;
      },
      (error) => problem.value = problemOf(error),
    );
  }, [sessionId, turn]);

  const file = choice.value === NEW_FILE ? newFileName(typed.value) : choice.value;
  const save = async (event: Event) => {
    event.preventDefault();
    const made = draft.value;
    if (!made || file === "") return;
    busy.value = true;
    problem.value = null;
    saved.value = null;
    try {
      const answer = await saveCase(file, {
        case: text.value,
        workspace: made.workspace,
        ...(made.models && { models: made.models }),
      });
      const list = await listEvalFiles();
      // Said once the picker shows the file it went to.
      batch(() => {
        files.value = list;
        choice.value = file;
        saved.value = answer;
      });
    } catch (error) {
      problem.value = problemOf(error);
    } finally {
      busy.value = false;
    }
  };

  const done = saved.value;
  return (
    <dialog
      ref={dialog}
      class="case-dialog"
      aria-labelledby="case-title"
      onClose={onClose}
    >
      <form class="case-form" onSubmit={save}>
        <header class="export-head">
          <h2 id="case-title">Save as eval case</h2>
          <span class="spacer" />
          <button type="button" onClick={() => dialog.current?.close()}>Close</button>
        </header>
        {draft.value
          ? <p class="hint">{about(draft.value, turn)}</p>
          : problem.value
          ? null
          : <p class="loading">Making the case…</p>}
        <label for="case-yaml">Case (YAML)</label>
        <textarea
          id="case-yaml"
          rows={14}
          spellcheck={false}
          value={text.value}
          disabled={!draft.value}
          onInput={(event) => text.value = event.currentTarget.value}
        />
        <div class="case-file">
          <label for="case-file">Eval file</label>
          <select
            id="case-file"
            value={choice.value}
            onChange={(event) => {
              picked.value = true;
              choice.value = event.currentTarget.value;
            }}
          >
            {(files.value?.files ?? []).map((known) => (
              <option key={known.name} value={known.name}>{known.name}</option>
            ))}
            <option value={NEW_FILE}>New file…</option>
          </select>
          {choice.value === NEW_FILE
            ? (
              <input
                aria-label="New file name"
                value={typed.value}
                placeholder="name.eval.yaml"
                onInput={(event) => {
                  picked.value = true;
                  typed.value = event.currentTarget.value;
                }}
              />
            )
            : null}
          <button
            type="submit"
            class="primary"
            disabled={busy.value || !draft.value || file === ""}
          >
            Save
          </button>
        </div>
        {files.value
          ? (
            <p class="hint">
              {choice.value === NEW_FILE ? "A new file" : "Added at the end of the file"} in{" "}
              <code>{files.value.folder}</code>; <code>lass eval {file || "<file>"}</code> runs it.
            </p>
          )
          : null}
        {problem.value ? <ProblemView problem={problem.value} /> : null}
        <p class="case-saved" role="status">
          {done
            ? `Saved "${done.name}" to ${done.file} (${plural(done.cases, "case")}${
              done.created ? ", a new file" : ""
            }).`
            : ""}
        </p>
        {done?.warnings.map((warning) => (
          <p key={warning.path} class="hint case-warning">Note: {warning.message}.</p>
        ))}
      </form>
    </dialog>
  );
}

export default SaveCaseDialog;
