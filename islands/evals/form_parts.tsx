/** The Evals page's form parts: the file picker, and the problems and warnings of an eval. */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { ErrorDetail } from "../../wire/errors.ts";
import type { EvalFileList } from "../../wire/evals.ts";
import { describeError } from "../state.ts";
import { listEvalFiles, readEvalFile } from "./api.ts";

/** The files beside the config, and loading one into the editor. */
export function FilePicker({ onLoad }: { onLoad: (text: string) => void }) {
  const list = useSignal<EvalFileList | null>(null);
  const chosen = useSignal("");
  const error = useSignal<string | null>(null);
  useEffect(() => {
    listEvalFiles().then((files) => {
      list.value = files;
      chosen.value = files.files[0]?.name ?? "";
    }, (failure) => error.value = describeError(failure));
  }, []);
  const load = async () => {
    error.value = null;
    try {
      onLoad((await readEvalFile(chosen.value)).text);
    } catch (failure) {
      error.value = describeError(failure);
    }
  };
  if (error.value) return <p class="error" role="alert">{error.value}</p>;
  if (!list.value) return <p class="hint">Looking for eval files…</p>;
  if (list.value.files.length === 0) {
    return (
      <p class="hint">
        No <code>*.eval.yaml</code> files in <code>{list.value.folder}</code>, the config's folder.
      </p>
    );
  }
  return (
    <div class="eval-files">
      <label for="eval-file">File in {list.value.folder}</label>
      <select
        id="eval-file"
        value={chosen.value}
        onChange={(event) => chosen.value = event.currentTarget.value}
      >
        {list.value.files.map((file) => (
          <option key={file.name} value={file.name}>{file.name}</option>
        ))}
      </select>
      <button type="button" onClick={load}>Load</button>
    </div>
  );
}

/** The problems of a refused eval, each at its path. */
export function Problems({ message, details }: { message: string; details: ErrorDetail[] }) {
  return (
    <div class="eval-problems" role="alert">
      {/* With details, the message's summary (up to its first colon) heads their list. */}
      <p class="error">{details.length > 0 ? `${message.replace(/: .*$/s, "")}:` : message}</p>
      {details.length > 0
        ? (
          <ul>
            {details.map((d) => (
              <li key={`${d.path}:${d.message}`}>
                <code>{d.path || "(top level)"}</code>: {d.message}
              </li>
            ))}
          </ul>
        )
        : null}
    </div>
  );
}

/** Warnings about the eval that still runs (a misspelt extra field), each at its path. */
export function Warnings({ warnings }: { warnings: { path: string; message: string }[] }) {
  return (
    <ul class="eval-warnings" aria-label="Warnings">
      {warnings.map((w) => (
        <li key={`${w.path}:${w.message}`}>
          <code>{w.path}</code>: {w.message}
        </li>
      ))}
    </ul>
  );
}
