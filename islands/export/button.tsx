/** The Export button: opens the export dialog of a workspace, loading the dialog on first use. */
import { signal, useSignal } from "@preact/signals";
import type { ComponentType } from "preact";
import type { ExportDialogProps } from "./dialog.tsx";

const dialog = signal<ComponentType<ExportDialogProps> | null>(null);
const loadError = signal<string | null>(null);
let loading: Promise<void> | undefined;

/** Loads the dialog's chunk once (it stays out of the pages that show the button). */
function loadDialog(): Promise<void> {
  loading ??= import("./dialog.tsx").then(
    (module) => {
      dialog.value = module.ExportDialog;
      loadError.value = null;
    },
    (error) => {
      loading = undefined;
      loadError.value = `The export dialog could not be loaded: ${error}`;
    },
  );
  return loading;
}

/** The props of {@link ExportButton}. */
export interface ExportButtonProps {
  workspaceId: string;
  /** The button's accessible name; default "Export". */
  label?: string;
}

/** A button that opens the export dialog of `workspaceId`. */
export function ExportButton({ workspaceId, label }: ExportButtonProps) {
  const open = useSignal(false);
  const Dialog = dialog.value;
  return (
    <>
      <button
        type="button"
        aria-haspopup="dialog"
        aria-label={label}
        disabled={workspaceId === ""}
        onClick={() => {
          open.value = true;
          void loadDialog();
        }}
      >
        Export
      </button>
      {open.value && Dialog
        ? <Dialog workspaceId={workspaceId} onClose={() => open.value = false} />
        : null}
      {open.value && loadError.value
        ? <span class="error" role="alert">{loadError.value}</span>
        : null}
    </>
  );
}
