/**
 * The "Save as eval case" button of a chat turn or a whole chat: opens the dialog, loading it on
 * first use (it stays out of the chat's own bundle).
 */
import { signal, useSignal } from "@preact/signals";
import type { ComponentType } from "preact";
import type { SaveCaseDialogProps } from "./save_case.tsx";

const dialog = signal<ComponentType<SaveCaseDialogProps> | null>(null);
const loadError = signal<string | null>(null);
let loading: Promise<void> | undefined;

/** Loads the dialog's chunk once. */
function loadDialog(): Promise<void> {
  loading ??= import("./save_case.tsx").then(
    (module) => {
      dialog.value = module.SaveCaseDialog;
      loadError.value = null;
    },
    (error) => {
      loading = undefined;
      loadError.value = `The dialog could not be loaded: ${error}`;
    },
  );
  return loading;
}

/** The props of {@link SaveCaseButton}. */
export interface SaveCaseButtonProps {
  sessionId: string;
  /** The user turn, by index in the session; absent: the whole chat. */
  turn?: number;
  /** The button's accessible name; default "Save as eval case". */
  label?: string;
  /** Shown instead of the label (e.g. an icon); the label stays its name and title. */
  text?: string;
  class?: string;
}

/** A button that opens the Save as eval case dialog. */
export function SaveCaseButton(props: SaveCaseButtonProps) {
  const open = useSignal(false);
  const Dialog = dialog.value;
  const label = props.label ?? "Save as eval case";
  return (
    <>
      <button
        type="button"
        class={props.class}
        aria-haspopup="dialog"
        aria-label={label}
        title={props.text ? label : undefined}
        onClick={() => {
          open.value = true;
          void loadDialog();
        }}
      >
        {props.text ?? label}
      </button>
      {open.value && Dialog
        ? (
          <Dialog
            sessionId={props.sessionId}
            turn={props.turn}
            onClose={() => open.value = false}
          />
        )
        : null}
      {open.value && loadError.value
        ? <span class="error" role="alert">{loadError.value}</span>
        : null}
    </>
  );
}
