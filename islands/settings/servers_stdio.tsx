/**
 * The fields of a stdio tool server: the command (a pasted command line is split into command and
 * arguments), arguments, environment, the variables passed through from Lass's environment, and
 * the working directory, with a sentence on what environment the process gets.
 */
import { type Signal, useSignal } from "@preact/signals";
import { plural } from "../../wire/words.ts";
import { commandParts } from "./command_line.ts";
import { FieldFrame, LinesField, TextField } from "./fields.tsx";
import type { RecordDraft } from "./form.tsx";

/** What a split changed, to say so and to undo it. */
interface Split {
  before: { command: unknown; args: unknown };
  command: string;
  args: string[];
}

/** The Command field: a whole command line put into it is split into command and arguments. */
function CommandField(
  { draft, onSplit }: { draft: Signal<RecordDraft>; onSplit: (split: Split) => void },
) {
  const value = draft.value.command;
  const split = (line: string) => {
    const parts = commandParts(line);
    if (!parts) return false;
    const before = { command: draft.peek().command, args: draft.peek().args };
    draft.value = { ...draft.peek(), command: parts.command, args: parts.args };
    onSplit({ before, ...parts });
    return true;
  };
  return (
    <FieldFrame
      name="command"
      label="Command"
      hint="The executable, e.g. npx; a whole command line pasted here is split into the command and its arguments. service:demo is the built-in demo server."
    >
      {(id, describedBy, invalid) => (
        <input
          id={id}
          type="text"
          value={value === undefined ? "" : String(value)}
          placeholder="npx"
          required
          autoComplete="off"
          spellcheck={false}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          onInput={(event) => {
            const text = event.currentTarget.value;
            const next = { ...draft.peek() };
            if (text === "") delete next.command;
            else next.command = text;
            draft.value = next;
          }}
          onPaste={(event) => {
            const input = event.currentTarget;
            const pasted = event.clipboardData?.getData("text") ?? "";
            // Only a paste that makes up the whole field: what was there is replaced.
            const whole = input.selectionStart === 0 && input.selectionEnd === input.value.length;
            if ((whole || input.value === "") && split(pasted)) event.preventDefault();
          }}
          onChange={(event) => split(event.currentTarget.value)}
        />
      )}
    </FieldFrame>
  );
}

/** The note after a split, with Undo. */
function SplitNote({ split, onUndo }: { split: Split; onUndo: () => void }) {
  return (
    <p class="note split-note" role="status">
      Split the pasted command line into the command <code>{split.command}</code> and{" "}
      {plural(split.args.length, "argument")}, one per line under Arguments.{" "}
      <button type="button" onClick={onUndo}>Undo</button>
    </p>
  );
}

/** The stdio fields of the tool-server editor. */
export function StdioFields({ draft }: { draft: Signal<RecordDraft> }) {
  const split = useSignal<Split | null>(null);
  // The Arguments field keeps its own text: a new key draws it again from the draft.
  const argsVersion = useSignal(0);
  const undo = () => {
    const done = split.peek();
    if (!done) return;
    const next = { ...draft.peek() };
    for (const [key, value] of Object.entries(done.before)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    draft.value = next;
    split.value = null;
    argsVersion.value++;
  };
  return (
    <>
      <CommandField
        draft={draft}
        onSplit={(done) => {
          split.value = done;
          argsVersion.value++;
        }}
      />
      {split.value ? <SplitNote split={split.value} onUndo={undo} /> : null}
      <LinesField
        key={`args-${argsVersion.value}`}
        draft={draft}
        name="args"
        label="Arguments"
        shape="list"
        hint="One per line, passed as they are (no shell quoting)."
      />
      <p class="hint env-explained" id="stdio-env-explained">
        The process does not get Lass's whole environment: only HOME, LOGNAME, PATH, SHELL, TERM and
        USER (on Windows the system's usual set, such as APPDATA, PATH and USERPROFILE), the
        variables passed through below, and Environment. API keys in Lass's environment reach it
        only when you name them.
      </p>
      <LinesField
        draft={draft}
        name="inheritEnv"
        label="Pass through from Lass's environment"
        shape="list"
        hint="Variable names, one per line (e.g. GITHUB_TOKEN): each is passed with its value in Lass's environment, when set."
      />
      <LinesField
        draft={draft}
        name="env"
        label="Environment"
        shape="map"
        hint="KEY=value per line, set for the process; values may be env:NAME or contain ${NAME}, read from Lass's environment."
      />
      <TextField
        draft={draft}
        name="cwd"
        label="Working directory"
        hint="Relative to the config file's folder."
      />
    </>
  );
}
